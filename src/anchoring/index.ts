/** Public API of the Merkle log and its checkpoints; each module cites its RFC / C2SP text. */
export { appendLeaves, storedRootHash, type AppendResult } from './compact-range.js';
export {
  formatCheckpoint,
  parseCheckpoint,
  signCheckpoint,
  verifyCheckpoint,
  type Checkpoint,
} from './checkpoint.js';
export {
  CheckpointError,
  LogError,
  type CheckpointErrorCode,
  type LogErrorCode,
} from './errors.js';
export {
  EMPTY_ROOT,
  equalHashes,
  HASH_SIZE,
  leafHash,
  nodeHash,
  rootHash,
  verifyConsistency,
  verifyInclusion,
} from './merkle.js';
export {
  MemoryNodeStore,
  nodeId,
  type NodeKey,
  type NodeStore,
  type StoredNode,
} from './node-store.js';
export { consistencyProof, inclusionProof } from './proofs.js';
export { keyId, openNote, signNote, type NoteSigner, type NoteVerifierKey } from './signed-note.js';
export { hashFromWire, hashToWire, proofFromWire, proofToWire } from './wire.js';
