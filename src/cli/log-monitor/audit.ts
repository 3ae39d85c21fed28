import { TILE_WIDTH, type TileRef } from '../../anchoring/tile-path.js';
import { validCosignature, type Witness } from '../../anchoring/witness/cosignature.js';
import { base64, equalBytes } from '@verification-receipts/verify/log';
import { openNote, parseCheckpointBody, type VerifierKey } from '@verification-receipts/verify/log';
import { leafHash, nodeHash, sha256 } from '@verification-receipts/verify/log';
import type { LogSource } from './source.js';

/**
 * A monitor's full audit of a tlog-tiles log (c2sp.org/tlog-tiles), trusting nothing it serves:
 * the checkpoint must be signed by the pinned key; every entry bundle is read and hashed; every
 * hash tile of every level must equal what those entries give; the root must be the
 * checkpoint's; and the tree must extend the one seen last time (same root at the old size).
 */

/** What the monitor remembers between runs (the state file). */
export interface SeenCheckpoint {
  origin: string;
  treeSize: number;
  /** base64, as in the checkpoint. */
  rootHash: string;
}

export type AuditResult =
  | { ok: true; checkpoint: SeenCheckpoint; tiles: number; cosigners: string[] }
  | { ok: false; reason: string };

class Inconsistent extends Error {}

export async function auditLog(
  source: LogSource,
  key: VerifierKey,
  previous: SeenCheckpoint | undefined,
  witnesses: readonly Omit<Witness, 'url'>[] = [],
): Promise<AuditResult> {
  try {
    const { checkpoint, note, body } = await signedCheckpoint(source, key);
    for (const witness of witnesses) {
      if (!note.split('\n').some((line) => validCosignature(line, witness, body))) {
        throw new Inconsistent(
          `the checkpoint has no valid cosignature by witness ${witness.name}`,
        );
      }
    }
    const counter = { tiles: 0 };
    const leaves = await leafHashes(source, checkpoint.treeSize, counter);
    await checkHashTiles(source, leaves, counter);
    const root =
      leaves.length === 0 ? sha256(new Uint8Array(0)) : treeHash(leaves, 0, leaves.length);
    if (base64(root) !== checkpoint.rootHash) {
      throw new Inconsistent('the tiles do not give the root hash the checkpoint signs');
    }
    if (previous) extendsPrevious(previous, checkpoint, leaves);
    return { ok: true, checkpoint, tiles: counter.tiles, cosigners: witnesses.map((w) => w.name) };
  } catch (err) {
    if (err instanceof Inconsistent) return { ok: false, reason: err.message };
    throw err;
  }
}

async function signedCheckpoint(
  source: LogSource,
  key: VerifierKey,
): Promise<{ checkpoint: SeenCheckpoint; note: string; body: string }> {
  const note = await source.checkpoint();
  const opened = openNote(note, key);
  if (!opened.ok) throw new Inconsistent(`checkpoint signature: ${opened.reason}`);
  const body = parseCheckpointBody(opened.text);
  if (!body) throw new Inconsistent('the signed note is not a checkpoint');
  if (body.origin !== key.name) {
    throw new Inconsistent(`checkpoint origin ${body.origin} is not the key's name ${key.name}`);
  }
  return {
    checkpoint: { origin: body.origin, treeSize: body.treeSize, rootHash: base64(body.rootHash) },
    note,
    body: opened.text,
  };
}

/** Tiles of a level in a tree of `count` hashes at that level: full ones, then the partial. */
function tileRefs(count: number, make: (index: number, width: number) => TileRef): TileRef[] {
  const refs: TileRef[] = [];
  for (let index = 0; index * TILE_WIDTH < count; index++) {
    refs.push(make(index, Math.min(TILE_WIDTH, count - index * TILE_WIDTH)));
  }
  return refs;
}

/** Every entry, read from the entry bundles, as its RFC 9162 leaf hash. */
async function leafHashes(
  source: LogSource,
  treeSize: number,
  counter: { tiles: number },
): Promise<Uint8Array[]> {
  const leaves: Uint8Array[] = [];
  const refs = tileRefs(treeSize, (index, width) => ({ kind: 'entries', index, width }));
  for (const ref of refs) {
    const entries = parseEntryBundle(await source.tile(ref));
    counter.tiles++;
    if (entries?.length !== ref.width) {
      throw new Inconsistent(`entry bundle ${ref.index} does not hold ${ref.width} entries`);
    }
    for (const entry of entries) leaves.push(leafHash(entry));
  }
  return leaves;
}

/** The entries of a bundle (big-endian uint16 length, then the bytes); undefined if malformed. */
export function parseEntryBundle(bytes: Uint8Array): Uint8Array[] | undefined {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) return undefined;
    const length = ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
    if (at + 2 + length > bytes.length) return undefined;
    entries.push(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}

/** Level by level: the served tile must be the hashes the level below gives. */
async function checkHashTiles(
  source: LogSource,
  leaves: Uint8Array[],
  counter: { tiles: number },
): Promise<void> {
  let hashes = leaves;
  for (let level = 0; hashes.length > 0; level++) {
    const refs = tileRefs(hashes.length, (index, width) => ({
      kind: 'hashes',
      level,
      index,
      width,
    }));
    for (const ref of refs) {
      const served = await source.tile(ref);
      counter.tiles++;
      const start = ref.index * TILE_WIDTH;
      const expected = hashes.slice(start, start + ref.width);
      if (served.length !== 32 * ref.width || !expected.every((h, i) => sameAt(served, i, h))) {
        throw new Inconsistent(`hash tile ${level}/${ref.index} differs from the entries`);
      }
    }
    hashes = fullSubtrees(hashes);
  }
}

const sameAt = (tile: Uint8Array, i: number, hash: Uint8Array): boolean =>
  equalBytes(tile.subarray(i * 32, i * 32 + 32), hash);

/** The hashes one tile level up: each full run of 256 hashes reduced to its subtree hash. */
function fullSubtrees(hashes: Uint8Array[]): Uint8Array[] {
  const up: Uint8Array[] = [];
  for (let start = 0; start + TILE_WIDTH <= hashes.length; start += TILE_WIDTH) {
    up.push(treeHash(hashes, start, start + TILE_WIDTH));
  }
  return up;
}

/** RFC 9162 §2.1.1 MTH over `hashes[start:end]`, the hashes being already leaf/subtree hashes. */
export function treeHash(hashes: Uint8Array[], start: number, end: number): Uint8Array {
  const n = end - start;
  if (n === 1) return hashes[start] as Uint8Array;
  if (n < 1) throw new RangeError('empty range');
  let split = 1;
  while (split * 2 < n) split *= 2;
  return nodeHash(treeHash(hashes, start, start + split), treeHash(hashes, start + split, end));
}

function extendsPrevious(
  previous: SeenCheckpoint,
  current: SeenCheckpoint,
  leaves: Uint8Array[],
): void {
  if (previous.origin !== current.origin) {
    throw new Inconsistent(`the state file is for ${previous.origin}, not ${current.origin}`);
  }
  if (previous.treeSize > current.treeSize) {
    throw new Inconsistent(
      `the log shrank: size ${current.treeSize} after ${previous.treeSize} was seen`,
    );
  }
  if (previous.treeSize === 0) return;
  if (base64(treeHash(leaves, 0, previous.treeSize)) !== previous.rootHash) {
    throw new Inconsistent(
      `the log was rewritten: its first ${previous.treeSize} entries no longer give the root seen before`,
    );
  }
}
