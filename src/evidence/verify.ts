import { readBundle, LEAF_VERSION, type ReceiptBundle } from './bundle.js';
import { equalBytes, fromBase64url, fromHex, utf8 } from './encoding.js';
import { verifyInclusion } from './merkle.js';
import { openNote, parseCheckpointBody, parseVerifierKey } from './note.js';
import { ed25519Verify, jcs, jwkKey, jwkThumbprint, leafHash, sha256Wire } from './primitives.js';

/**
 * Offline verification of a receipt bundle (docs/verification.md), step by step. Written from
 * the published formats, sharing no code with the service that issues receipts, so a bug there is
 * not hidden by the same bug here. Runs unchanged in Node (receipts verify) and the browser.
 */

export type StepId =
  | 'format'
  | 'canonical-form'
  | 'receipt-hash'
  | 'key-id'
  | 'key-trust'
  | 'signature'
  | 'log-inclusion'
  | 'checkpoint'
  | 'status-signature'
  | 'status'
  | 'log-consistency';

export type StepStatus = 'PASS' | 'FAIL' | 'WARN' | 'SKIP';

export interface Step {
  id: StepId;
  status: StepStatus;
  detail: string;
}

export interface Trust {
  /** Pinned raw Ed25519 keys (from a JWKS or a key file); empty or absent: not pinned. */
  keys?: readonly Uint8Array[];
  /** Where the pinned keys came from, for the report. */
  source?: string;
}

export interface Verdict {
  /** No step failed (WARN and SKIP allowed). */
  verified: boolean;
  /** The input was not a readable bundle of a supported version. */
  unreadable: boolean;
  failedStep?: StepId;
  steps: Step[];
  receipt?: Record<string, unknown>;
}

const step = (id: StepId, status: StepStatus, detail: string): Step => ({ id, status, detail });

/** Verifies a parsed bundle (any JSON value) under `trust`. */
export function verifyBundle(input: unknown, trust: Trust = {}): Verdict {
  const read = readBundle(input);
  if (!read.ok) {
    const steps = [step('format', 'FAIL', read.reason)];
    return { verified: false, unreadable: true, failedStep: 'format', steps };
  }
  const bundle = read.bundle;
  const key = jwkKey(bundle.verificationMaterial.publicKey);
  const steps = [
    step('format', 'PASS', `receipt bundle, ${bundle.mediaType}`),
    canonicalForm(bundle),
    receiptHash(bundle),
    keyId(bundle, key),
    keyTrust(key, trust),
    signature(bundle, key),
    ...logSteps(bundle, key, trust),
  ];
  const failed = steps.find((s) => s.status === 'FAIL');
  return {
    verified: failed === undefined,
    unreadable: false,
    ...(failed ? { failedStep: failed.id } : {}),
    steps,
    receipt: bundle.receipt,
  };
}

function canonicalForm(bundle: ReceiptBundle): Step {
  const unsigned = { ...bundle.receipt };
  delete unsigned.receiptHash;
  delete unsigned.receiptSignature;
  const expected = jcs(unsigned);
  return expected === bundle.canonicalReceipt
    ? step('canonical-form', 'PASS', 'canonicalReceipt is the RFC 8785 form of the receipt')
    : step('canonical-form', 'FAIL', 'canonicalReceipt is not the RFC 8785 form of the receipt');
}

function receiptHash(bundle: ReceiptBundle): Step {
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

function keyId(bundle: ReceiptBundle, key: Uint8Array | undefined): Step {
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

function keyTrust(key: Uint8Array | undefined, trust: Trust): Step {
  const pinned = trust.keys ?? [];
  if (pinned.length === 0) {
    return step('key-trust', 'WARN', 'the key came from the bundle itself and was not pinned');
  }
  const from = trust.source ? ` (${trust.source})` : '';
  return key && pinned.some((k) => equalBytes(k, key))
    ? step('key-trust', 'PASS', `the signing key is one of the pinned keys${from}`)
    : step('key-trust', 'FAIL', `the signing key is not one of the pinned keys${from}`);
}

function signature(bundle: ReceiptBundle, key: Uint8Array | undefined): Step {
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

function logSteps(bundle: ReceiptBundle, key: Uint8Array | undefined, trust: Trust): Step[] {
  const entry = bundle.logEntry;
  if (!entry) {
    return [
      step('log-inclusion', 'SKIP', 'not in the log yet (no logEntry): fetch a newer bundle later'),
      step('checkpoint', 'SKIP', 'no checkpoint without a log entry'),
    ];
  }
  const root = entry.rootHash.startsWith('sha256:') ? fromHex(entry.rootHash.slice(7)) : undefined;
  const proof = entry.inclusionProof.map((h) =>
    h.startsWith('sha256:') ? fromHex(h.slice(7)) : undefined,
  );
  const hash = String(bundle.receipt.receiptHash ?? '');
  const input = hash.startsWith('sha256:') ? fromHex(hash.slice(7)) : undefined;
  let inclusion: Step;
  if (entry.leafVersion !== LEAF_VERSION) {
    inclusion = step(
      'log-inclusion',
      'FAIL',
      `unknown leaf version ${String(entry.leafVersion).slice(0, 60)}`,
    );
  } else if (root?.length !== 32 || input?.length !== 32 || proof.some((p) => p?.length !== 32)) {
    inclusion = step('log-inclusion', 'FAIL', 'malformed hash in the log entry');
  } else {
    const ok = verifyInclusion(
      leafHash(input),
      entry.logIndex,
      entry.treeSize,
      proof as Uint8Array[],
      root,
    );
    inclusion = ok
      ? step(
          'log-inclusion',
          'PASS',
          `leaf ${entry.logIndex} is in the tree of ${entry.treeSize} (RFC 9162 proof)`,
        )
      : step('log-inclusion', 'FAIL', 'the inclusion proof does not lead to rootHash');
  }
  return [inclusion, checkpoint(entry, root, key, trust)];
}

function checkpoint(
  entry: NonNullable<ReceiptBundle['logEntry']>,
  root: Uint8Array | undefined,
  key: Uint8Array | undefined,
  trust: Trust,
): Step {
  const vkey = parseVerifierKey(entry.noteVerifierKey);
  if (!vkey || vkey.name !== entry.origin) {
    return step('checkpoint', 'FAIL', 'noteVerifierKey is not a valid vkey named after the origin');
  }
  const trusted = [...(trust.keys ?? []), ...(key ? [key] : [])];
  if (!trusted.some((k) => equalBytes(k, vkey.publicKey))) {
    return step('checkpoint', 'FAIL', 'the checkpoint key is neither the receipt key nor pinned');
  }
  const opened = openNote(entry.checkpoint, vkey);
  if (!opened.ok) return step('checkpoint', 'FAIL', opened.reason);
  const body = parseCheckpointBody(opened.text);
  if (!body) return step('checkpoint', 'FAIL', 'the note is not a checkpoint');
  if (body.origin !== entry.origin)
    return step('checkpoint', 'FAIL', 'the checkpoint is of another log');
  if (body.treeSize !== entry.treeSize || !root || !equalBytes(body.rootHash, root)) {
    return step('checkpoint', 'FAIL', 'the checkpoint commits to another tree size or root');
  }
  return step(
    'checkpoint',
    'PASS',
    `signed checkpoint of ${entry.origin} at size ${body.treeSize}`,
  );
}
