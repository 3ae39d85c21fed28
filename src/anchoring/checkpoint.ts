import { CheckpointError } from './errors.js';
import { HASH_SIZE } from './merkle.js';
import {
  base64Bytes,
  isNoteSafe,
  openNote,
  signNote,
  type NoteSigner,
  type NoteVerifierKey,
} from './signed-note.js';
import { isTreeSize } from './tree-math.js';

/**
 * C2SP transparency-log checkpoints (https://c2sp.org/tlog-checkpoint): the note text
 * `<origin>\n<tree size>\n<base64 root hash>\n`, signed as a C2SP signed note. This log writes
 * no extension lines, and its parser accepts none, so the signed text is always exactly
 * `formatCheckpoint` of what `verifyCheckpoint` returns.
 */

export interface Checkpoint {
  /** The log's identity, e.g. `example.com/log`; by convention also the signing key's name. */
  origin: string;
  treeSize: number;
  /** RFC 9162 MTH of the tree at `treeSize`, 32 bytes. */
  rootHash: Uint8Array;
}

const TREE_SIZE = /^(0|[1-9][0-9]*)$/;

/** tlog-checkpoint "Note text": the three mandatory lines, each ending in a newline. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, treeSize, rootHash } = checkpoint;
  if (origin.length === 0 || origin.includes('\n') || !isNoteSafe(origin)) {
    throw new CheckpointError('invalid_input', 'origin must be one non-empty line');
  }
  if (!isTreeSize(treeSize)) throw new CheckpointError('invalid_input', 'bad tree size');
  if (rootHash.length !== HASH_SIZE) throw new CheckpointError('invalid_input', 'bad root hash');
  return `${origin}\n${treeSize}\n${Buffer.from(rootHash).toString('base64')}\n`;
}

/**
 * Parses checkpoint note text (not a signed note: use {@link verifyCheckpoint} for those, since
 * an unverified note must be ignored). Requires exactly the form `formatCheckpoint` writes.
 */
export function parseCheckpoint(text: string): Checkpoint {
  const [origin, size, root, ...rest] = text.split('\n');
  const treeSize = Number(size);
  const rootHash = base64Bytes(root ?? '');
  const threeLines = rest.length === 1 && rest[0] === '' && isNoteSafe(text);
  if (!threeLines || !origin || !TREE_SIZE.test(size ?? '')) {
    throw new CheckpointError('malformed_checkpoint', 'expected origin, tree size and root lines');
  }
  if (!isTreeSize(treeSize) || rootHash?.length !== HASH_SIZE) {
    throw new CheckpointError('malformed_checkpoint', 'bad tree size or root hash');
  }
  return { origin, treeSize, rootHash };
}

/** The signed note of `checkpoint`, signed by `signer`. */
export async function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): Promise<string> {
  return signNote(formatCheckpoint(checkpoint), signer);
}

/**
 * The checkpoint in `note` once its signature by `key` verifies (see `openNote`); throws
 * `CheckpointError` otherwise. Callers must still check that `origin` is the log they expect.
 */
export function verifyCheckpoint(note: string, key: NoteVerifierKey): Checkpoint {
  return parseCheckpoint(openNote(note, key));
}
