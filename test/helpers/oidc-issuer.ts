import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/**
 * An OpenID Connect issuer on loopback for the tests: its own keys (RSA and EC), a discovery
 * document and a JWKS served over real HTTP, tokens signed like GitHub Actions' and key rotation.
 */
export interface TestIssuer {
  url: string;
  sign(claims: Record<string, unknown>, options?: SignOptions): Promise<string>;
  /** Replaces the published keys with a new RSA key; returns its kid. */
  rotate(): Promise<string>;
  /** Makes discovery and JWKS answer 503 (the issuer is down). */
  setDown(down: boolean): void;
  /** Pads one of its documents with `bytes` of filler (a misbehaving issuer); 0 stops. */
  setPadding(document: 'discovery' | 'jwks', bytes: number): void;
  close(): Promise<void>;
}

interface SignOptions {
  kid?: string;
  alg?: 'RS256' | 'ES256';
  /** Sign with a key the issuer does not publish. */
  unpublished?: boolean;
  audience?: string;
  issuer?: string;
  expiresIn?: number;
  notBefore?: number;
}

interface KeyEntry {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(kid: string, alg: 'RS256' | 'ES256'): Promise<KeyEntry> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export async function startIssuer(audience: string): Promise<TestIssuer> {
  let published = [await newKey('rsa-1', 'RS256'), await newKey('ec-1', 'ES256')];
  const stray = await newKey('rsa-1', 'RS256'); // same kid as a published key, other key
  let down = false;
  let rotations = 0;
  const padding = { discovery: 0, jwks: 0 };
  const padded = (doc: object, bytes: number) =>
    JSON.stringify(bytes > 0 ? { ...doc, filler: 'x'.repeat(bytes) } : doc);
  const server = http.createServer((req, res) => {
    if (down) {
      res.writeHead(503).end();
      return;
    }
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(padded({ issuer: url, jwks_uri: `${url}/jwks` }, padding.discovery));
    } else if (req.url === '/jwks') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(padded({ keys: published.map((k) => k.jwk) }, padding.jwks));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    async sign(claims, options = {}) {
      const alg = options.alg ?? 'RS256';
      const key = options.unpublished
        ? stray
        : published.find((k) => k.alg === alg && (!options.kid || k.kid === options.kid));
      if (!key) throw new Error(`no ${alg} key`);
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg, kid: key.kid, typ: 'JWT' })
        .setIssuer(options.issuer ?? url)
        .setAudience(options.audience ?? audience)
        .setJti(randomUUID())
        .setIssuedAt(now)
        .setNotBefore(options.notBefore ?? now)
        .setExpirationTime(now + (options.expiresIn ?? 300))
        .sign(key.privateKey);
    },
    async rotate() {
      rotations += 1;
      const kid = `rsa-rotated-${rotations}`;
      published = [await newKey(kid, 'RS256')];
      return kid;
    },
    setDown(value) {
      down = value;
    },
    setPadding(document, bytes) {
      padding[document] = bytes;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
