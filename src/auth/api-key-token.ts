import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * An API key is `vrs_<key id, 32 hex>_<secret, 43 base64url chars>`. The id finds the row
 * (so no table scan and no timing oracle on the lookup); the secret is checked against its
 * stored sha256 with `timingSafeEqual`. The secret has 256 bits of entropy, so a fast hash is
 * the right tool (a password KDF protects low-entropy secrets, which these are not).
 */
const TOKEN_PATTERN = /^vrs_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface ParsedToken {
  keyId: string;
  secret: string;
}

export function mintToken(): { keyId: string; token: string; secretHash: string } {
  const keyId = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return {
    keyId,
    token: `vrs_${keyId.replaceAll('-', '')}_${secret}`,
    secretHash: hashSecret(secret),
  };
}

export function parseToken(token: string): ParsedToken | undefined {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return undefined;
  const hex = match[1] as string;
  const keyId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { keyId, secret: match[2] as string };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
