/**
 * Independent time for the log: RFC 3161 time-stamp tokens over checkpoints. The log declares
 * what it needs (a store of checked tokens, and a listener told of every new checkpoint once its
 * seal commits); src/timestamping asks the authorities, src/storage keeps the tokens.
 */

export interface CheckpointTimestamp {
  treeSize: number;
  /** The configured authority the token came from (not published). */
  tsaUrl: string;
  /** The authority as its certificate names it. */
  tsaName: string;
  /** DER TimeStampToken (RFC 3161 2.4.2), checked before it was stored. */
  token: Buffer;
  genTime: Date;
}

export interface TimestampStore {
  addTimestamp(timestamp: CheckpointTimestamp): Promise<void>;
  /** The tokens over the checkpoint of `treeSize`, earliest first. */
  timestampsAt(treeSize: number): Promise<CheckpointTimestamp[]>;
}

/** A checkpoint just sealed: its size and the note exactly as the log signed it. */
export interface SealedCheckpoint {
  treeSize: number;
  note: string;
}

/** Told after each seal commits; must not throw nor block (the seal is done either way). */
export type SealListener = (checkpoint: SealedCheckpoint) => void;
