import type { ReceiptBundle } from './bundle.js';
import { equalBytes, fromBase64url, utf8 } from './encoding.js';
import { ed25519Verify, jcs, jwkThumbprint, sha256Wire } from './primitives.js';
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
