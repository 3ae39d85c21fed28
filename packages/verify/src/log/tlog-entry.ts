import { LEAF_VERSION, type BundleLogEntry } from '../bundle.js';
import { hex } from '../encoding.js';
import { jwkKey } from '../primitives.js';
import type { TrustRoot } from '../trust.js';
import { formatVerifierKey, parseCheckpointBody } from './note.js';
import { parseTlogProof } from './tlog-proof.js';

/**
 * A C2SP tlog-proof of a receipt turned into the bundle's log entry, so a bundle saved before it
 * was anchored verifies with a proof fetched later. Nothing here is trusted: the entry goes
 * through the same inclusion and checkpoint steps as one the bundle carried.
 */
export function logEntryFromTlogProof(
  text: string,
  bundleKey: Uint8Array | undefined,
  trust: TrustRoot,
): { ok: true; entry: BundleLogEntry } | { ok: false; reason: string } {
  const parsed = parseTlogProof(text);
  if (!parsed.ok) return parsed;
  const { index, hashes, checkpoint } = parsed.proof;
  const blank = checkpoint.lastIndexOf('\n\n');
  const body = blank > 0 ? parseCheckpointBody(checkpoint.slice(0, blank + 1)) : undefined;
  if (!body) return { ok: false, reason: 'the tlog-proof does not hold a checkpoint' };
  const key = trust.log?.publicKey ?? bundleKey;
  if (!key) return { ok: false, reason: 'no log key to check the tlog-proof checkpoint with' };
  const entry: BundleLogEntry = {
    origin: body.origin,
    noteVerifierKey: formatVerifierKey(body.origin, key),
    leafVersion: LEAF_VERSION,
    logIndex: index,
    treeSize: body.treeSize,
    rootHash: `sha256:${hex(body.rootHash)}`,
    inclusionProof: hashes.map((h) => `sha256:${hex(h)}`),
    checkpoint,
  };
  return { ok: true, entry };
}

/** `bundle` with its log entry taken from `text` (a tlog-proof); throws when it is not one. */
export function withTlogProof(bundle: unknown, text: string, trust: TrustRoot): unknown {
  const b = bundle as { verificationMaterial?: { publicKey?: unknown } } | null;
  const made = logEntryFromTlogProof(text, jwkKey(b?.verificationMaterial?.publicKey), trust);
  if (!made.ok) throw new TlogProofError(made.reason);
  return { ...(bundle as object), logEntry: made.entry };
}

export class TlogProofError extends Error {
  override name = 'TlogProofError';
}
