import { LEAF_VERSION, type BundleLogEntry } from '../bundle.js';
import { equalBytes, fromHex } from '../encoding.js';
import { leafHash } from '../primitives.js';
import { step, type Step } from '../steps.js';
import { signingKeysFor, type PinnedLog, type TrustRoot } from '../trust.js';
import { countCosignatures } from './cosignature.js';
import { verifyInclusion } from './merkle.js';
import {
  noteKeyId,
  openNote,
  parseCheckpointBody,
  parseVerifierKey,
  type VerifierKey,
} from './note.js';

/**
 * The log steps: the receipt's leaf is in a tree (RFC 9162 inclusion proof), that tree is a
 * checkpoint signed by the log the relying party trusts (C2SP signed-note), and the pinned
 * witnesses cosigned it (C2SP tlog-cosignature).
 */

const hashOf = (wire: string): Uint8Array | undefined =>
  wire.startsWith('sha256:') ? fromHex(wire.slice(7)) : undefined;

export function inclusion(entry: BundleLogEntry, receiptHash: unknown): Step {
  const root = hashOf(entry.rootHash);
  const proof = entry.inclusionProof.map(hashOf);
  const input = hashOf(String(receiptHash ?? ''));
  if (entry.leafVersion !== LEAF_VERSION) {
    const version = String(entry.leafVersion).slice(0, 60);
    return step('log-inclusion', 'FAIL', `unknown leaf version ${version}`);
  }
  if (root?.length !== 32 || input?.length !== 32 || proof.some((p) => p?.length !== 32)) {
    return step('log-inclusion', 'FAIL', 'malformed hash in the log entry');
  }
  const { logIndex, treeSize } = entry;
  return verifyInclusion(leafHash(input), logIndex, treeSize, proof as Uint8Array[], root)
    ? step(
        'log-inclusion',
        'PASS',
        `leaf ${logIndex} is in the tree of ${treeSize} (RFC 9162 proof)`,
      )
    : step('log-inclusion', 'FAIL', 'the inclusion proof does not lead to rootHash');
}

/** The note key the checkpoint must be signed with, or why there is none. */
function checkpointKey(
  entry: BundleLogEntry,
  bundleKey: Uint8Array | undefined,
  trust: TrustRoot,
): VerifierKey | string {
  const named = parseVerifierKey(entry.noteVerifierKey);
  if (!named || named.name !== entry.origin) {
    return 'noteVerifierKey is not a valid vkey named after the origin';
  }
  const pinnedLog = trust.log;
  if (pinnedLog) {
    if (entry.origin !== pinnedLog.origin) {
      return `the checkpoint is of the log ${entry.origin}, not of the pinned log ${pinnedLog.origin}`;
    }
    // the log key now, or a pinned service key: checkpoints made before a key rotation are signed
    // with a retired key, which the service's JWKS still lists
    const key = pinnedLog.publicKey;
    const retired = (trust.keys ?? []).some((k) => equalBytes(k, named.publicKey));
    if (key && !retired) {
      return { name: pinnedLog.origin, keyId: noteKeyId(pinnedLog.origin, key), publicKey: key };
    }
  }
  return signingKeysFor(trust, bundleKey).some((k) => equalBytes(k, named.publicKey))
    ? named
    : 'the checkpoint key is not a pinned key';
}

/** The checkpoint step; `underPinnedLog` is true when it verified under the pinned log key. */
export function checkpoint(
  entry: BundleLogEntry,
  bundleKey: Uint8Array | undefined,
  trust: TrustRoot,
): { step: Step; underPinnedLog: boolean; text?: string } {
  const fail = (why: string) => ({ step: step('checkpoint', 'FAIL', why), underPinnedLog: false });
  const key = checkpointKey(entry, bundleKey, trust);
  if (typeof key === 'string') return fail(key);
  const opened = openNote(entry.checkpoint, key);
  if (!opened.ok) return fail(opened.reason);
  const body = parseCheckpointBody(opened.text);
  if (!body) return fail('the note is not a checkpoint');
  if (body.origin !== entry.origin) return fail('the checkpoint is of another log');
  const root = hashOf(entry.rootHash);
  if (body.treeSize !== entry.treeSize || !root || !equalBytes(body.rootHash, root)) {
    return fail('the checkpoint commits to another tree size or root');
  }
  const logKey = trust.log?.publicKey;
  const pinned = logKey !== undefined && equalBytes(logKey, key.publicKey);
  const origin = trust.log ? 'pinned log' : 'log (origin not pinned)';
  return {
    step: step(
      'checkpoint',
      'PASS',
      `signed checkpoint of the ${origin} ${entry.origin} at size ${body.treeSize}`,
    ),
    underPinnedLog: pinned,
    text: opened.text,
  };
}

/** Cosignatures of the pinned witnesses on the checkpoint, against the policy's quorum. */
export function witnesses(
  entry: BundleLogEntry,
  log: PinnedLog | undefined,
  text: string | undefined,
): Step {
  if (!log || log.witnesses.length === 0 || log.quorum === 0) {
    return step('witnesses', 'SKIP', 'no witness quorum is pinned');
  }
  if (text === undefined)
    return step('witnesses', 'FAIL', 'no verified checkpoint to count cosignatures on');
  const { valid, invalid } = countCosignatures(entry.checkpoint, text, log.witnesses);
  if (invalid.length > 0) {
    return step('witnesses', 'FAIL', `invalid cosignature by ${invalid.join(', ')}`);
  }
  return valid.length >= log.quorum
    ? step(
        'witnesses',
        'PASS',
        `cosigned by ${valid.length} of ${log.witnesses.length} pinned witnesses (quorum ${log.quorum}): ${valid.join(', ')}`,
      )
    : step(
        'witnesses',
        'FAIL',
        `cosigned by ${valid.length} pinned witnesses, the policy needs ${log.quorum}`,
      );
}
