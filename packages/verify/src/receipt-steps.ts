import type { ReceiptBundle } from './bundle.js';
import { equalBytes, fromBase64url, utf8 } from './encoding.js';
import {
  akpKey,
  akpThumbprint,
  ed25519Verify,
  jcs,
  jwkThumbprint,
  mlDsa44Verify,
  sha256Wire,
} from './primitives.js';
import { step, type Step } from './steps.js';
import type { TrustRoot } from './trust.js';

/** The steps on the receipt itself: its canonical form, hash, key and signature. */

export function canonicalForm(bundle: ReceiptBundle): Step {
  const unsigned = { ...bundle.receipt };
  delete unsigned.receiptHash;
  delete unsigned.receiptSignature;
  return jcs(unsigned) === bundle.canonicalReceipt
    ? step('canonical-form', 'PASS', 'canonicalReceipt is the RFC 8785 form of the receipt')
    : step('canonical-form', 'FAIL', 'canonicalReceipt is not the RFC 8785 form of the receipt');
}

export function receiptHash(bundle: ReceiptBundle): Step {
  const computed = sha256Wire(bundle.canonicalReceipt);
  return computed === bundle.receipt.receiptHash
    ? step('receipt-hash', 'PASS', `SHA-256 of the canonical receipt is ${computed}`)
    : step(
        'receipt-hash',
        'FAIL',
        `SHA-256 of the canonical receipt is ${computed}, not receiptHash`,
      );
}

function signatureOf(bundle: ReceiptBundle): { alg?: unknown; kid?: unknown; signature?: unknown } {
  const s = bundle.receipt.receiptSignature;
  return typeof s === 'object' && s !== null ? s : {};
}

export function keyId(bundle: ReceiptBundle, key: Uint8Array | undefined): Step {
  if (!key) return step('key-id', 'FAIL', 'verificationMaterial.publicKey is not an Ed25519 JWK');
  const thumbprint = jwkThumbprint(key);
  const { kid } = signatureOf(bundle);
  const jwk = bundle.verificationMaterial.publicKey;
  if (jwk?.alg !== 'EdDSA') return step('key-id', 'FAIL', 'the key is not an EdDSA key (alg)');
  if (jwk.kid !== thumbprint)
    return step('key-id', 'FAIL', 'the key kid is not its RFC 7638 thumbprint');
  if (kid !== thumbprint) return step('key-id', 'FAIL', 'the receipt is signed by another kid');
  return step('key-id', 'PASS', `kid ${thumbprint} is the RFC 7638 thumbprint of the key`);
}

export function signature(bundle: ReceiptBundle, key: Uint8Array | undefined): Step {
  const { alg, signature: sig } = signatureOf(bundle);
  if (alg !== 'EdDSA' || typeof sig !== 'string') {
    return step('signature', 'FAIL', 'the receipt carries no EdDSA signature');
  }
  const bytes = fromBase64url(sig);
  if (!bytes) return step('signature', 'FAIL', 'the signature is not canonical base64url');
  if (!key) return step('signature', 'FAIL', 'no usable public key');
  return ed25519Verify(bytes, utf8(bundle.canonicalReceipt), key)
    ? step('signature', 'PASS', 'Ed25519 signature over the canonical receipt verifies')
    : step('signature', 'FAIL', 'Ed25519 signature over the canonical receipt does not verify');
}

export const NO_TRUST_ROOT =
  'no trust root: pin the issuing service with --jwks URL|FILE, --key FILE or --online URL, ' +
  'or its log with --log-policy FILE';

/**
 * Whether the signing key is one the relying party trusts: a pinned key, or (with only the log
 * pinned) a receipt the pinned log includes. `underPinnedLog` says the checkpoint step verified
 * under the pinned log key.
 */
export function keyTrust(
  key: Uint8Array | undefined,
  trust: TrustRoot,
  underPinnedLog: boolean,
): Step {
  const pinned = trust.keys ?? [];
  const from = trust.source ? ` (${trust.source})` : '';
  if (pinned.length > 0) {
    return key && pinned.some((k) => equalBytes(k, key))
      ? step('key-trust', 'PASS', `the signing key is one of the pinned keys${from}`)
      : step('key-trust', 'FAIL', `the signing key is not one of the pinned keys${from}`);
  }
  if (trust.log?.publicKey) {
    return underPinnedLog
      ? step('key-trust', 'PASS', `the receipt is in the pinned log ${trust.log.origin}`)
      : step(
          'key-trust',
          'FAIL',
          `only the log ${trust.log.origin} is pinned and the receipt is not proved in it: ` +
            'pin the service keys too (--jwks or --online), or fetch the bundle again once anchored',
        );
  }
  if (trust.insecureIgnoreTrust) {
    return step(
      'key-trust',
      'WARN',
      'TRUST IGNORED (--insecure-ignore-trust): the key came from the file itself, so anyone ' +
        'could have signed this receipt',
    );
  }
  return step('key-trust', 'FAIL', NO_TRUST_ROOT);
}

/** A post-quantum signature that is absent or does not hold: FAIL when required, else WARN. */
const pqProblem = (required: boolean, detail: string): Step =>
  step(
    'pq-signature',
    required ? 'FAIL' : 'WARN',
    required ? detail : `${detail} (not required: ignored)`,
  );

/**
 * The receipt's ML-DSA-44 signature (bundle `pqSignature`): by a pinned ML-DSA-44 key, named by
 * its RFC 7638 thumbprint, over the same canonical bytes as the Ed25519 one. Without
 * `required` (--require-pq) a missing or broken one is reported and does not change the verdict.
 */
export function pqSignature(
  bundle: ReceiptBundle,
  trust: TrustRoot,
  required: boolean,
): Step | undefined {
  const pq = bundle.pqSignature as Partial<ReceiptBundle['pqSignature']> | undefined;
  if (pq === undefined) {
    // a bundle made before hybrid signatures: its steps are what they always were
    return required
      ? step('pq-signature', 'FAIL', 'the bundle carries no ML-DSA-44 signature (--require-pq)')
      : undefined;
  }
  if (typeof pq !== 'object' || pq === null || pq.alg !== 'ML-DSA-44') {
    return pqProblem(required, 'pqSignature is not an ML-DSA-44 signature');
  }
  const key = akpKey(pq.publicKey);
  if (!key) return pqProblem(required, 'pqSignature.publicKey is not an ML-DSA-44 AKP JWK');
  const thumbprint = akpThumbprint(key);
  if (pq.kid !== thumbprint || pq.publicKey?.kid !== thumbprint) {
    return pqProblem(required, 'the ML-DSA-44 kid is not the RFC 7638 thumbprint of its key');
  }
  const pinned = trust.pqKeys ?? [];
  if (!pinned.some((k) => equalBytes(k, key)) && trust.insecureIgnoreTrust !== true) {
    return pqProblem(required, `the ML-DSA-44 key ${thumbprint} is not a pinned key`);
  }
  const bytes = typeof pq.signature === 'string' ? fromBase64url(pq.signature) : undefined;
  if (!bytes || !mlDsa44Verify(bytes, utf8(bundle.canonicalReceipt), key)) {
    return pqProblem(
      required,
      'the ML-DSA-44 signature over the canonical receipt does not verify',
    );
  }
  return step(
    'pq-signature',
    'PASS',
    `ML-DSA-44 (FIPS 204) signature over the canonical receipt verifies under the pinned key ${thumbprint}`,
  );
}
