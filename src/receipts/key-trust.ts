import { createPublicKey, verify } from 'node:crypto';
import { decodeBase64url } from './base64url.js';
import type { KeyEndorsement, SigningKeyRecord } from './ports.js';
import { jwkThumbprint, type Ed25519PublicJwk, type Signer } from './signer.js';

/**
 * The signing key ring's chain of trust. The store is not trusted on its own: a key verifies
 * receipts (and is published in the JWKS) only if it is a trust anchor (the key this process
 * signs with, or a kid pinned in SIGNING_TRUSTED_KIDS) or is endorsed by a trusted key.
 * `signing-keys rotate` writes both links (old endorses new, new endorses every key trusted so
 * far), so the whole ring stays reachable from whichever key is active.
 */

export const ENDORSEMENT_CONTEXT = 'verification-receipt-service/signing-key-endorsement/v1';

/** The bytes an endorser signs: context, the subject's kid and raw key, one per line. */
export function endorsementMessage(subject: Pick<Ed25519PublicJwk, 'kid' | 'x'>): Uint8Array {
  return new TextEncoder().encode(`${ENDORSEMENT_CONTEXT}\n${subject.kid}\n${subject.x}\n`);
}

export function endorse(endorser: Signer, subject: Ed25519PublicJwk): KeyEndorsement {
  return {
    subjectKid: subject.kid,
    endorserKid: endorser.kid,
    signature: Buffer.from(endorser.sign(endorsementMessage(subject))).toString('base64url'),
  };
}

/** A well-formed Ed25519 public JWK whose kid is its RFC 7638 thumbprint. */
function wellFormed(jwk: Ed25519PublicJwk): boolean {
  return (
    jwk.kty === 'OKP' &&
    jwk.crv === 'Ed25519' &&
    typeof jwk.x === 'string' &&
    decodeBase64url(jwk.x)?.length === 32 &&
    jwk.kid === jwkThumbprint(jwk.x)
  );
}

function endorsementValid(endorser: Ed25519PublicJwk, subject: Ed25519PublicJwk, sig: string) {
  const signature = decodeBase64url(sig);
  if (!signature || signature.length !== 64) return false;
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: endorser.x },
    format: 'jwk',
  });
  return verify(null, endorsementMessage(subject), key, signature);
}

export interface KeyTrust {
  trusted: Ed25519PublicJwk[];
  /** Kids present in the store that no chain reaches: ignored, and worth a warning. */
  untrusted: string[];
}

/** The trusted part of the ring: anchors, then every key a trusted key endorsed, to a fixpoint. */
export function trustedKeys(
  records: readonly SigningKeyRecord[],
  endorsements: readonly KeyEndorsement[],
  anchors: readonly Ed25519PublicJwk[],
): KeyTrust {
  const known = new Map(records.filter((r) => wellFormed(r.jwk)).map((r) => [r.jwk.kid, r.jwk]));
  const trusted = new Map<string, Ed25519PublicJwk>();
  for (const anchor of anchors) if (wellFormed(anchor)) trusted.set(anchor.kid, anchor);
  for (let grew = true; grew;) {
    grew = false;
    for (const e of endorsements) {
      const endorser = trusted.get(e.endorserKid);
      const subject = known.get(e.subjectKid);
      if (!endorser || !subject || trusted.has(subject.kid)) continue;
      if (endorsementValid(endorser, subject, e.signature)) {
        trusted.set(subject.kid, subject);
        grew = true;
      }
    }
  }
  const ordered = records.map((r) => trusted.get(r.jwk.kid)).filter((k) => k !== undefined);
  for (const anchor of trusted.values()) if (!ordered.includes(anchor)) ordered.push(anchor);
  const untrusted = records.map((r) => r.jwk.kid).filter((kid) => !trusted.has(kid));
  return { trusted: ordered, untrusted };
}

/**
 * What a rotation stores: the outgoing key endorses the new one, and the new key endorses every
 * key trusted so far, so the ring stays reachable from whichever key is active.
 */
export function rotationEndorsements(
  outgoing: Signer | undefined,
  incoming: Signer,
  trustedSoFar: readonly Ed25519PublicJwk[],
): KeyEndorsement[] {
  const forward = outgoing ? [endorse(outgoing, incoming.publicJwk)] : [];
  const backward = trustedSoFar
    .filter((jwk) => jwk.kid !== incoming.kid)
    .map((jwk) => endorse(incoming, jwk));
  return [...forward, ...backward];
}
