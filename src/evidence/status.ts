import type { BundleLogEntry } from './bundle.js';
import { equalBytes, fromBase64url, fromHex, utf8 } from './encoding.js';
import { verifyConsistency } from './merkle.js';
import { openNote, parseCheckpointBody, parseVerifierKey } from './note.js';
import { ed25519Verify, jcs, jwkThumbprint } from './primitives.js';
import type { Step } from './verify.js';

/**
 * Checks of the public status document (GET /status/{receiptHash}) for a receipt a verifier
 * holds: the statement is signed by a trusted key and is about this receipt; revoked is a FAIL;
 * the log's latest checkpoint is consistent with the one in the bundle (the log only grew).
 */
export const STATUS_MEDIA_TYPE = 'application/vnd.verification-receipt.status+json;version=1';

interface StatusDocument {
  mediaType?: unknown;
  statement?: {
    type?: unknown;
    receiptHash?: unknown;
    status?: unknown;
    revokedAt?: unknown;
    revokedBy?: unknown;
    revocationLogIndex?: unknown;
    inconsistency?: unknown;
    anchor?: { status?: unknown; logIndex?: unknown };
    producedAt?: unknown;
  };
  canonicalStatement?: unknown;
  signature?: { alg?: unknown; kid?: unknown; signature?: unknown } | null;
  log?: {
    checkpoint?: { checkpoint?: unknown; treeSize?: unknown; rootHash?: unknown };
    consistency?: { from?: unknown; to?: unknown; proof?: unknown };
  };
}

const step = (id: Step['id'], status: Step['status'], detail: string): Step => ({
  id,
  status,
  detail,
});

export function verifyStatus(
  input: unknown,
  receiptHash: string,
  trustedKeys: readonly Uint8Array[],
  logEntry?: BundleLogEntry,
): Step[] {
  const doc = (typeof input === 'object' && input !== null ? input : {}) as StatusDocument;
  const signed = statusSignature(doc, receiptHash, trustedKeys);
  if (signed.status === 'FAIL') return [signed];
  return [signed, revocationStep(doc.statement ?? {}), consistency(doc, logEntry, trustedKeys)];
}

/** Revoked is a FAIL; a service that reports its store and log disagree is at least a WARN. */
function revocationStep(s: NonNullable<StatusDocument['statement']>): Step {
  const where =
    typeof s.revocationLogIndex === 'number' ? `, log entry ${s.revocationLogIndex}` : '';
  const warning =
    typeof s.inconsistency === 'string' ? `; the service reports: ${s.inconsistency}` : '';
  if (s.status === 'revoked') {
    const by = `revoked at ${String(s.revokedAt)} by issuer ${String(s.revokedBy)}`;
    return step('status', 'FAIL', `${by}${where}${warning}`);
  }
  return warning
    ? step('status', 'WARN', `active (as of ${String(s.producedAt)})${warning}`)
    : step('status', 'PASS', `active (as of ${String(s.producedAt)})`);
}

function statusSignature(
  doc: StatusDocument,
  receiptHash: string,
  trustedKeys: readonly Uint8Array[],
): Step {
  const fail = (why: string) => step('status-signature', 'FAIL', why);
  if (doc.mediaType !== STATUS_MEDIA_TYPE) return fail('not a status document of version 1');
  if (typeof doc.canonicalStatement !== 'string' || jcs(doc.statement) !== doc.canonicalStatement) {
    return fail('canonicalStatement is not the RFC 8785 form of the statement');
  }
  if (doc.statement?.type !== 'verification-receipt-status/v1')
    return fail('not a status statement');
  if (doc.statement.receiptHash !== receiptHash)
    return fail('the statement is about another receipt');
  const sig = doc.signature;
  const bytes = typeof sig?.signature === 'string' ? fromBase64url(sig.signature) : undefined;
  if (!sig || sig.alg !== 'EdDSA' || !bytes) return fail('the statement is not signed');
  const key = trustedKeys.find((k) => jwkThumbprint(k) === sig.kid);
  if (!key) return fail(`signed by kid ${String(sig.kid)}, which is not a trusted key`);
  return ed25519Verify(bytes, utf8(doc.canonicalStatement), key)
    ? step('status-signature', 'PASS', `statement signed by trusted kid ${String(sig.kid)}`)
    : fail('the statement signature does not verify');
}

function consistency(
  doc: StatusDocument,
  entry: BundleLogEntry | undefined,
  trustedKeys: readonly Uint8Array[],
): Step {
  const latest = doc.log?.checkpoint;
  if (!entry) return step('log-consistency', 'SKIP', 'the bundle has no log entry to compare');
  if (!latest || typeof latest.checkpoint !== 'string') {
    return step('log-consistency', 'FAIL', 'the service sent no checkpoint');
  }
  const vkey = parseVerifierKey(entry.noteVerifierKey);
  if (!vkey || !trustedKeys.some((k) => equalBytes(k, vkey.publicKey))) {
    return step('log-consistency', 'FAIL', 'the log key is not trusted');
  }
  const opened = openNote(latest.checkpoint, vkey);
  const body = opened.ok ? parseCheckpointBody(opened.text) : undefined;
  if (!body || body.origin !== entry.origin) {
    return step('log-consistency', 'FAIL', 'the latest checkpoint is not signed by this log');
  }
  const oldRoot = fromHex(entry.rootHash.replace(/^sha256:/, ''));
  const c = doc.log?.consistency;
  const proof = Array.isArray(c?.proof)
    ? c.proof.map((h) => (typeof h === 'string' ? fromHex(h.replace(/^sha256:/, '')) : undefined))
    : [];
  if (!oldRoot || proof.some((p) => p?.length !== 32)) {
    return step('log-consistency', 'FAIL', 'malformed consistency proof');
  }
  const ok =
    (body.treeSize === entry.treeSize && equalBytes(body.rootHash, oldRoot)) ||
    (c?.from === entry.treeSize &&
      c.to === body.treeSize &&
      verifyConsistency(
        entry.treeSize,
        body.treeSize,
        proof as Uint8Array[],
        oldRoot,
        body.rootHash,
      ));
  return ok
    ? step(
        'log-consistency',
        'PASS',
        `the log grew from ${entry.treeSize} to ${body.treeSize} consistently`,
      )
    : step('log-consistency', 'FAIL', 'the latest checkpoint is not consistent with the bundle');
}
