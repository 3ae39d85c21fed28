import { ServiceError } from '../errors.js';

/** Why a Merkle-log operation was refused. */
export type LogErrorCode =
  /** A tree size or leaf index is not a safe integer, or lies outside the tree. */
  | 'invalid_argument'
  /** A hash is not 32 bytes, or its `sha256:` wire form is malformed. */
  | 'malformed_hash'
  /** The node store lacks a perfect-subtree node the tree of that size must have. */
  | 'missing_node'
  /** A tlog-tiles path that is not in the spec's canonical form. */
  | 'invalid_tile_path'
  /** A well-formed tile the log does not (yet) hold: past the tree, or wider than it. */
  | 'tile_not_found';

/** Raised by proof generation, appends and wire decoding; never by the boolean verifiers. */
export class LogError extends ServiceError<LogErrorCode> {
  override name = 'LogError';
}

/** Why a checkpoint or signed note was refused. */
export type CheckpointErrorCode =
  /** The caller asked to format or sign something the formats cannot express. */
  | 'invalid_input'
  /** The text is not a signed note (c2sp.org/signed-note "Format"). */
  | 'malformed_note'
  /** The note text is not a checkpoint body (c2sp.org/tlog-checkpoint "Note text"). */
  | 'malformed_checkpoint'
  /** No signature line carries the trusted key's name and key ID. */
  | 'unknown_key'
  /** A signature line of the trusted key does not verify. */
  | 'invalid_signature';

export class CheckpointError extends ServiceError<CheckpointErrorCode> {
  override name = 'CheckpointError';
}
