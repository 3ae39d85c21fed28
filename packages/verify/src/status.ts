import type { BundleLogEntry } from './bundle.js';
import { equalBytes, fromBase64url, fromHex, utf8 } from './encoding.js';
import { verifyConsistency } from './log/merkle.js';
import {
  noteKeyId,
  openNote,
  parseCheckpointBody,
  parseVerifierKey,
  type VerifierKey,
} from './log/note.js';
import { ed25519Verify, jcs, jwkThumbprint } from './primitives.js';
import { step, type Step } from './steps.js';
import type { PinnedLog } from './trust.js';

/**
 * Checks of the public status document (GET /status/{receiptHash}) for a receipt a verifier
 * holds: the statement is signed by a pinned key and is about this receipt; it says active or
 * revoked; it is recent enough to be current; and the log's latest checkpoint is consistent with
 * the one in the bundle (the log only grew).
 */
export const STATUS_MEDIA_TYPE = 'application/vnd.verification-receipt.status+json;version=1';

/** How old a status statement may be and still count as current, by default (seconds). */
export const DEFAULT_MAX_STATUS_AGE_SECONDS = 300;

/** The receipt's current status as far as the verifier could establish it. */
export interface CurrentStatus {
  state: 'active' | 'revoked' | 'not-checked';
  detail: string;
  revokedAt?: string;
  revokedBy?: string;
  /** When the service produced the statement, and its age when checked (seconds). */
  producedAt?: string;
  ageSeconds?: number;
}

interface Statement {
  type?: unknown;
  receiptHash?: unknown;
  status?: unknown;
  revokedAt?: unknown;
  revokedBy?: unknown;
  revocationLogIndex?: unknown;
  inconsistency?: unknown;
  producedAt?: unknown;
}

interface StatusDocument {
  mediaType?: unknown;
  statement?: Statement;
  canonicalStatement?: unknown;
  signature?: { alg?: unknown; kid?: unknown; signature?: unknown } | null;
  log?: {
    checkpoint?: { checkpoint?: unknown };
    consistency?: { from?: unknown; to?: unknown; proof?: unknown };
  };
}

export interface StatusCheck {
  receiptHash: string;
  /** Keys that may sign the statement and the log's checkpoints. */
  keys: readonly Uint8Array[];
  logEntry?: BundleLogEntry;
  log?: PinnedLog;
  now?: Date;
  maxAgeSeconds?: number;
}

export interface StatusResult {
  steps: Step[];
  current: CurrentStatus;
}

const NOT_CHECKED = (detail: string): CurrentStatus => ({ state: 'not-checked', detail });

export function verifyStatus(input: unknown, check: StatusCheck): StatusResult {
  const doc = (typeof input === 'object' && input !== null ? input : {}) as StatusDocument;
  const signed = statusSignature(doc, check);
  if (signed.status === 'FAIL') return { steps: [signed], current: NOT_CHECKED(signed.detail) };
  const s = doc.statement ?? {};
  const age = statusAge(s, check);
  const current = currentOf(s, age);
  return {
    steps: [signed, revocationStep(s, current), age.step, consistency(doc, check)],
    current,
  };
}

function currentOf(s: Statement, age: { seconds?: number; fresh: boolean }): CurrentStatus {
  const producedAt = String(s.producedAt);
  const timing = { producedAt, ...(age.seconds !== undefined ? { ageSeconds: age.seconds } : {}) };
  if (s.status === 'revoked') {
    const detail = `revoked at ${String(s.revokedAt)} by issuer ${String(s.revokedBy)}`;
    return {
      state: 'revoked',
      detail,
      revokedAt: String(s.revokedAt),
      revokedBy: String(s.revokedBy),
      ...timing,
    };
  }
  if (!age.fresh)
    return {
      ...NOT_CHECKED(`the status statement of ${producedAt} is too old to be current`),
      ...timing,
    };
  return { state: 'active', detail: `active: not revoked as of ${producedAt}`, ...timing };
}

/** Revoked is a FAIL (a revocation stands however old the statement); a reported inconsistency a WARN. */
function revocationStep(s: Statement, current: CurrentStatus): Step {
  const where =
    typeof s.revocationLogIndex === 'number' ? `, log entry ${s.revocationLogIndex}` : '';
  const warning =
    typeof s.inconsistency === 'string' ? `; the service reports: ${s.inconsistency}` : '';
  if (s.status === 'revoked') return step('status', 'FAIL', `${current.detail}${where}${warning}`);
  if (s.status !== 'active') return step('status', 'FAIL', 'the statement states no known status');
  return step(
    'status',
    warning ? 'WARN' : 'PASS',
    `active: not revoked as of ${String(s.producedAt)}${warning}`,
  );
}

function statusAge(
  s: Statement,
  check: StatusCheck,
): { step: Step; seconds?: number; fresh: boolean } {
  const produced = typeof s.producedAt === 'string' ? Date.parse(s.producedAt) : Number.NaN;
  const limit = check.maxAgeSeconds ?? DEFAULT_MAX_STATUS_AGE_SECONDS;
  if (Number.isNaN(produced)) {
    return {
      step: step('status-age', 'FAIL', 'the statement has no producedAt time'),
      fresh: false,
    };
  }
  const seconds = Math.round(((check.now ?? new Date()).getTime() - produced) / 1000);
  if (seconds < -300) {
    return {
      step: step('status-age', 'FAIL', `the statement is dated ${-seconds} s in the future`),
      seconds,
      fresh: false,
    };
  }
  return seconds <= limit
    ? {
        step: step(
          'status-age',
          'PASS',
          `produced ${Math.max(seconds, 0)} s ago (limit ${limit} s)`,
        ),
        seconds,
        fresh: true,
      }
    : {
        step: step(
          'status-age',
          'WARN',
          `produced ${seconds} s ago, older than the limit of ${limit} s: not current`,
        ),
        seconds,
        fresh: false,
      };
}

function statusSignature(doc: StatusDocument, check: StatusCheck): Step {
  const fail = (why: string) => step('status-signature', 'FAIL', why);
  if (doc.mediaType !== STATUS_MEDIA_TYPE) return fail('not a status document of version 1');
  if (typeof doc.canonicalStatement !== 'string' || jcs(doc.statement) !== doc.canonicalStatement) {
    return fail('canonicalStatement is not the RFC 8785 form of the statement');
  }
  if (doc.statement?.type !== 'verification-receipt-status/v1')
    return fail('not a status statement');
  if (doc.statement.receiptHash !== check.receiptHash)
    return fail('the statement is about another receipt');
  const sig = doc.signature;
  const bytes = typeof sig?.signature === 'string' ? fromBase64url(sig.signature) : undefined;
  if (!sig || sig.alg !== 'EdDSA' || !bytes) return fail('the statement is not signed');
  const key = check.keys.find((k) => jwkThumbprint(k) === sig.kid);
  if (!key) return fail(`signed by kid ${String(sig.kid)}, which is not a pinned key`);
  return ed25519Verify(bytes, utf8(doc.canonicalStatement), key)
    ? step('status-signature', 'PASS', `statement signed by pinned kid ${String(sig.kid)}`)
    : fail('the statement signature does not verify');
}

/** The key the latest checkpoint must be signed with: the pinned log's, else a pinned key. */
function logKey(entry: BundleLogEntry, check: StatusCheck): VerifierKey | undefined {
  const pinned = check.log?.publicKey;
  if (pinned)
    return { name: entry.origin, keyId: noteKeyId(entry.origin, pinned), publicKey: pinned };
  const named = parseVerifierKey(entry.noteVerifierKey);
  return named && check.keys.some((k) => equalBytes(k, named.publicKey)) ? named : undefined;
}

const hashes = (proof: unknown): (Uint8Array | undefined)[] =>
  Array.isArray(proof)
    ? proof
        .slice(0, 65)
        .map((h) => (typeof h === 'string' ? fromHex(h.replace(/^sha256:/, '')) : undefined))
    : [];

function consistency(doc: StatusDocument, check: StatusCheck): Step {
  const entry = check.logEntry;
  const latest = doc.log?.checkpoint;
  if (!entry) return step('log-consistency', 'SKIP', 'the bundle has no log entry to compare');
  if (!latest || typeof latest.checkpoint !== 'string') {
    return step('log-consistency', 'FAIL', 'the service sent no checkpoint');
  }
  const vkey = logKey(entry, check);
  if (!vkey) return step('log-consistency', 'FAIL', 'the log key is not pinned');
  const opened = openNote(latest.checkpoint, vkey);
  const body = opened.ok ? parseCheckpointBody(opened.text) : undefined;
  if (!body || body.origin !== entry.origin) {
    return step('log-consistency', 'FAIL', 'the latest checkpoint is not signed by this log');
  }
  const oldRoot = fromHex(entry.rootHash.replace(/^sha256:/, ''));
  const c = doc.log?.consistency;
  const proof = hashes(c?.proof);
  if (oldRoot?.length !== 32 || proof.length > 64 || proof.some((p) => p?.length !== 32)) {
    return step('log-consistency', 'FAIL', 'malformed consistency proof');
  }
  const same = body.treeSize === entry.treeSize && equalBytes(body.rootHash, oldRoot);
  const grew =
    c?.from === entry.treeSize &&
    c.to === body.treeSize &&
    verifyConsistency(entry.treeSize, body.treeSize, proof as Uint8Array[], oldRoot, body.rootHash);
  return same || grew
    ? step(
        'log-consistency',
        'PASS',
        `the log grew from ${entry.treeSize} to ${body.treeSize} consistently`,
      )
    : step('log-consistency', 'FAIL', 'the latest checkpoint is not consistent with the bundle');
}
