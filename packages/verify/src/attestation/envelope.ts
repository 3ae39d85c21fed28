import { concat, fromBase64, utf8 } from '../encoding.js';
import { ed25519Verify, jwkThumbprint } from '../primitives.js';
import { NO_TRUST_ROOT } from '../receipt-steps.js';
import { step, type Step } from '../steps.js';
import type { TrustRoot } from '../trust.js';

/**
 * The Sigstore bundle v0.3 of a receipt's attestation (GET /api/v1/receipt/{id}/attestation):
 * its DSSE envelope and the checks on the envelope itself (payload type, signing key, DSSE
 * signature). The key is named by `verificationMaterial.publicKey.hint`, the RFC 7638 kid of a
 * service key: the bundle carries no key, so only a pinned one can verify it.
 */
export const SIGSTORE_BUNDLE_MEDIA_TYPE = 'application/vnd.dev.sigstore.bundle.v0.3+json';
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

/** More signatures than this in one envelope is not an attestation of this service. */
const MAX_SIGNATURES = 16;

export interface Envelope {
  hint: string;
  payload: Uint8Array;
  payloadType: string;
  signatures: { sig: string; keyid?: string }[];
}

/** Whether a parsed JSON file says it is a Sigstore bundle v0.3 (then it is checked as one). */
export function isAttestation(input: unknown): boolean {
  return (
    typeof input === 'object' &&
    input !== null &&
    (input as { mediaType?: unknown }).mediaType === SIGSTORE_BUNDLE_MEDIA_TYPE
  );
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/** The envelope, or what makes it unusable. */
export function envelopeOf(
  input: unknown,
): { ok: true; envelope: Envelope } | { ok: false; reason: string } {
  const bundle = record(input) ?? {};
  const hint = record(record(bundle.verificationMaterial)?.publicKey)?.hint;
  const dsse = record(bundle.dsseEnvelope);
  if (!dsse) return { ok: false, reason: 'the Sigstore bundle has no dsseEnvelope' };
  if (typeof hint !== 'string' || hint.length === 0)
    return { ok: false, reason: 'verificationMaterial.publicKey.hint names no key' };
  const payload = typeof dsse.payload === 'string' ? fromBase64(dsse.payload) : undefined;
  if (!payload) return { ok: false, reason: 'the DSSE payload is not base64' };
  const list = Array.isArray(dsse.signatures) ? dsse.signatures : [];
  const signatures = list
    .map(record)
    .filter((s): s is Record<string, unknown> => s !== undefined && typeof s.sig === 'string')
    .map((s) => ({
      sig: s.sig as string,
      ...(typeof s.keyid === 'string' ? { keyid: s.keyid } : {}),
    }));
  if (signatures.length === 0 || signatures.length !== list.length)
    return { ok: false, reason: 'the DSSE envelope carries no well-formed signature' };
  if (signatures.length > MAX_SIGNATURES)
    return {
      ok: false,
      reason: `the DSSE envelope carries more than ${MAX_SIGNATURES} signatures`,
    };
  const payloadType = typeof dsse.payloadType === 'string' ? dsse.payloadType : '';
  return { ok: true, envelope: { hint, payload, payloadType, signatures } };
}

/** DSSE v1 pre-authentication encoding: `DSSEv1 <len type> <type> <len body> <body>`. */
export function preAuthEncoding(payloadType: string, payload: Uint8Array): Uint8Array {
  const type = utf8(payloadType);
  return concat(utf8(`DSSEv1 ${type.length} `), type, utf8(` ${payload.length} `), payload);
}

export function payloadTypeStep(envelope: Envelope): Step {
  return envelope.payloadType === IN_TOTO_PAYLOAD_TYPE
    ? step(
        'dsse-payload-type',
        'PASS',
        `the payload is an in-toto statement (${IN_TOTO_PAYLOAD_TYPE})`,
      )
    : step(
        'dsse-payload-type',
        'FAIL',
        `payloadType is ${JSON.stringify(envelope.payloadType)}, not ${IN_TOTO_PAYLOAD_TYPE}`,
      );
}

/** The pinned key whose RFC 7638 kid is the hint, with the key-trust step. */
export function hintedKey(envelope: Envelope, trust: TrustRoot): { step: Step; key?: Uint8Array } {
  const pinned = trust.keys ?? [];
  const from = trust.source ? ` (${trust.source})` : '';
  if (pinned.length === 0) {
    const why = trust.insecureIgnoreTrust
      ? 'an attestation carries no key of its own, so --insecure-ignore-trust cannot check it: ' +
        'pin the service keys (--jwks, --key or --online)'
      : NO_TRUST_ROOT;
    return { step: step('key-trust', 'FAIL', why) };
  }
  const key = pinned.find((k) => jwkThumbprint(k) === envelope.hint);
  return key
    ? {
        step: step(
          'key-trust',
          'PASS',
          `the hint ${envelope.hint} is the kid of a pinned key${from}`,
        ),
        key,
      }
    : {
        step: step(
          'key-trust',
          'FAIL',
          `the hint ${envelope.hint} is the kid of none of the pinned keys${from}`,
        ),
      };
}

/** At least one signature verifies over the PAE of the exact payload bytes with the hinted key. */
export function dsseSignatureStep(envelope: Envelope, key: Uint8Array | undefined): Step {
  if (!key) return step('dsse-signature', 'FAIL', 'no pinned key to check the signature with');
  const message = preAuthEncoding(envelope.payloadType, envelope.payload);
  const valid = envelope.signatures.some((s) => {
    const sig = fromBase64(s.sig);
    return sig !== undefined && ed25519Verify(sig, message, key);
  });
  const count = envelope.signatures.length;
  return valid
    ? step(
        'dsse-signature',
        'PASS',
        'Ed25519 signature over the DSSE pre-authentication encoding verifies',
      )
    : step(
        'dsse-signature',
        'FAIL',
        `${count === 1 ? 'the signature' : `none of the ${count} signatures`} over the DSSE ` +
          'pre-authentication encoding verifies with the hinted key',
      );
}
