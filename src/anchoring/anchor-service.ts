import { verifyCheckpoint } from './checkpoint.js';
import { equalHashes, leafHash, verifyInclusion } from './merkle.js';
import { consistencyProof, inclusionProof } from './proofs.js';
import { AuditedEntries, type AuditedEntriesOptions } from './audited-entries.js';
import { verifierKey, type NoteSigner } from './signed-note.js';
import { parseTilePath } from './tile-path.js';
import { TileReader } from './tiles.js';
import { formatLogPolicy } from './tlog-policy.js';
import { formatTlogProof } from './tlog-proof.js';
import { hashToWire, proofFromWire, proofToWire } from './wire.js';
import type { CosignOutcome, Witnessing } from './witness/witnessing.js';
import type { CheckpointRecord, LogStore } from './log-store.js';
import { seal } from './sealing.js';
import type { SealListener, TimestampStore } from './timestamps.js';
import { ServiceError } from '../errors.js';

/** Default number of pending entries sealed into one checkpoint. */
export const SEAL_BATCH = 100_000;

export interface PublishedCheckpoint {
  origin: string;
  treeSize: number;
  rootHash: string;
  /** The C2SP signed note (tlog-checkpoint). */
  checkpoint: string;
  createdAt: string;
}

export interface ConsistencyEvidence {
  from: number;
  to: number;
  fromRoot: string;
  toRoot: string;
  proof: string[];
}

/** Where a receipt sits in the log (as its store row says) and the hash it must commit to. */
export interface LeafPosition {
  leafIndex: number | null;
  leafHash: Buffer | null;
  /** The receipt's `sha256:` hash: the log leaf is RFC 9162's leaf hash of its 32 bytes. */
  receiptHash: string;
}

export interface InclusionEvidence {
  logIndex: number;
  treeSize: number;
  rootHash: string;
  inclusionProof: string[];
  checkpoint: string;
  /** With witnesses configured: whether this checkpoint has a quorum of cosignatures. */
  witnessed?: boolean;
  /** Base64 DER RFC 3161 tokens over the checkpoint's note (the log's own signed part). */
  timestamps?: string[];
}

/** Independent time for checkpoints: where tokens are kept, and who asks for them after a seal. */
export interface Timekeeping {
  store: TimestampStore;
  onSealed?: SealListener;
}

/**
 * The log as the service runs it: seal pending receipts into signed checkpoints, and produce the
 * evidence (inclusion and consistency proofs) that lets anyone check the log offline.
 */
export class AnchorService {
  private readonly tiles: TileReader;
  /**
   * The newest checkpoint read so far that the witness quorum cosigned. A cosigned checkpoint
   * stays cosigned, so any receipt below its size has a witnessed proof in it without a read:
   * the answers one cosignature completes ask the store once between them, not once each.
   */
  private newestWitnessed: CheckpointRecord | undefined;

  constructor(
    private readonly log: LogStore,
    private readonly signer: NoteSigner | undefined,
    readonly origin: string,
    /** The raw Ed25519 keys a checkpoint may be signed with (the trusted key ring). */
    private readonly publicKeys: () => Promise<Uint8Array[]>,
    private readonly witnessing?: Witnessing,
    private readonly timekeeping?: Timekeeping,
  ) {
    this.tiles = new TileReader(log);
  }

  get enabled(): boolean {
    return this.signer !== undefined;
  }

  /** The note verifier key of this log's checkpoints (C2SP signed-note vkey), once signing. */
  get verifierKey(): string | undefined {
    return this.signer ? verifierKey(this.signer) : undefined;
  }

  /**
   * Seals up to `limit` pending entries into one new checkpoint; returns how many. Entries are
   * read and hashed SEAL_PAGE at a time (src/anchoring/sealing.ts), so that a large backlog never
   * holds this process (or, for the embedded store, its thread) in one piece.
   */
  async sealOnce(limit = SEAL_BATCH): Promise<{ sealed: number; treeSize: number }> {
    const sealed = await seal(this.log, this.origin, this.noteSigner(), limit);
    // committed: the listener (time-stamping) runs on its own and never delays the seal
    if (sealed.note !== undefined)
      this.timekeeping?.onSealed?.({ treeSize: sealed.treeSize, note: sealed.note });
    return { sealed: sealed.sealed, treeSize: sealed.treeSize };
  }

  /** How many entries wait for a seal (one indexed count; the sealer polls it). */
  pendingCount(): Promise<number> {
    return this.log.pendingCount();
  }

  /** Seals until nothing is pending. */
  async sealAll(limit = SEAL_BATCH): Promise<{ sealed: number; treeSize: number }> {
    let total = 0;
    for (;;) {
      const { sealed, treeSize } = await this.sealOnce(limit);
      total += sealed;
      if (sealed < limit) return { sealed: total, treeSize };
    }
  }

  /**
   * Asks the configured witnesses to cosign the latest checkpoint (those that have not yet).
   * Never throws for a witness: each outcome says how its attempt went.
   */
  async cosignLatest(signal?: AbortSignal): Promise<CosignOutcome[]> {
    const latest = await this.log.latestCheckpoint();
    if (!this.witnessing || !latest) return [];
    return this.witnessing.cosign(
      {
        treeSize: latest.treeSize,
        note: latest.note,
        cosigners: (latest.cosignatures ?? []).map((c) => c.witness),
      },
      signal,
    );
  }

  /** Inclusion of an anchored receipt in the latest checkpoint, as wire strings. */
  async inclusion(
    position: Pick<LeafPosition, 'leafIndex'>,
  ): Promise<InclusionEvidence | undefined> {
    const { leafIndex } = position;
    if (leafIndex === null) return undefined;
    return this.inclusionIn(leafIndex, await this.log.latestCheckpoint());
  }

  /**
   * The witness quorum of the log's policy (names of the configured witnesses and how many of
   * them must cosign); undefined when the policy requires none.
   */
  get witnessQuorum(): { witnesses: string[]; quorum: number } | undefined {
    const quorum = this.witnessing?.quorum ?? 0;
    if (!this.witnessing || quorum <= 0 || !this.enabled) return undefined;
    return { witnesses: this.witnessing.witnesses.map((w) => w.name), quorum };
  }

  /**
   * Inclusion in the newest checkpoint cosigned by the policy's witness quorum, when one covers
   * the entry; else in the latest signed checkpoint (its `witnessed` false), or undefined while
   * none covers it. Proving inclusion in a checkpoint older than the latest needs only the
   * stored perfect subtrees below its size, so a witnessed answer never waits for the witnesses
   * to catch up with seals made since.
   */
  async witnessedInclusion(
    position: Pick<LeafPosition, 'leafIndex'>,
  ): Promise<InclusionEvidence | undefined> {
    const { leafIndex } = position;
    const policy = this.witnessQuorum;
    if (leafIndex === null) return undefined;
    if (!policy) return this.inclusion(position);
    const known = this.newestWitnessed;
    if (known && known.treeSize > leafIndex) return this.inclusionIn(leafIndex, known);
    const witnessed = await this.log.latestWitnessedCheckpoint(policy.witnesses, policy.quorum);
    if (witnessed && witnessed.treeSize > (this.newestWitnessed?.treeSize ?? -1)) {
      this.newestWitnessed = witnessed;
    }
    if (witnessed && witnessed.treeSize > leafIndex) return this.inclusionIn(leafIndex, witnessed);
    return this.inclusion(position);
  }

  private async inclusionIn(
    leafIndex: number,
    checkpoint: CheckpointRecord | undefined,
  ): Promise<InclusionEvidence | undefined> {
    if (!checkpoint || checkpoint.treeSize <= leafIndex) return undefined;
    const proof = await inclusionProof(leafIndex, checkpoint.treeSize, this.log.nodeStore());
    return {
      logIndex: leafIndex,
      treeSize: checkpoint.treeSize,
      rootHash: hashToWire(checkpoint.rootHash),
      inclusionProof: proofToWire(proof),
      checkpoint: cosignedNote(checkpoint),
      ...(this.witnessing ? { witnessed: this.witnessed(checkpoint) } : {}),
      ...(await this.timestampsOf(checkpoint.treeSize)),
    };
  }

  /** The configured witnesses whose cosignatures `evidence`'s checkpoint carries. */
  cosignersOf(evidence: Pick<InclusionEvidence, 'checkpoint'>): string[] {
    const lines = new Set(evidence.checkpoint.split('\n'));
    return (this.witnessing?.witnesses ?? [])
      .map((w) => w.name)
      .filter((name) => [...lines].some((l) => l.startsWith(`\u2014 ${name} `)));
  }

  /** The checked RFC 3161 tokens over the checkpoint of `treeSize`, earliest first. */
  async timestamps(treeSize: number) {
    return (await this.timekeeping?.store.timestampsAt(treeSize)) ?? [];
  }

  private async timestampsOf(treeSize: number): Promise<{ timestamps?: string[] }> {
    const tokens = await this.timestamps(treeSize);
    return tokens.length > 0 ? { timestamps: tokens.map((t) => t.token.toString('base64')) } : {};
  }

  /** The entry's inclusion as a c2sp.org/tlog-proof file; undefined while in no checkpoint. */
  async tlogProof(position: Pick<LeafPosition, 'leafIndex'>): Promise<string | undefined> {
    const evidence = await this.inclusion(position);
    if (!evidence) return undefined;
    return formatTlogProof({
      index: evidence.logIndex,
      proof: proofFromWire(evidence.inclusionProof),
      checkpoint: evidence.checkpoint,
    });
  }

  /** The log's c2sp.org/tlog-policy (its key, its witnesses, their quorum), once signing. */
  get policy(): string | undefined {
    const logVkey = this.verifierKey;
    if (!logVkey) return undefined;
    const witnesses = this.witnessing?.witnesses ?? [];
    return formatLogPolicy({ logVkey, witnesses, quorum: this.witnessing?.quorum ?? 0 });
  }

  private witnessed(checkpoint: CheckpointRecord): boolean {
    const names = new Set(this.witnessing?.witnesses.map((w) => w.name));
    const cosigners = (checkpoint.cosignatures ?? []).filter((c) => names.has(c.witness));
    return cosigners.length >= (this.witnessing?.quorum ?? 0);
  }

  /**
   * proofVerified: the receipt's current hash is the leaf in the log, the inclusion proof leads
   * to the root of the latest checkpoint, and that checkpoint's signature verifies with a key of
   * the service's key ring.
   */
  async proofVerified(position: LeafPosition): Promise<boolean> {
    const { leafIndex, leafHash: storedLeaf } = position;
    if (leafIndex === null || !storedLeaf) return false;
    const latest = await this.log.latestCheckpoint();
    if (!latest || latest.treeSize <= leafIndex) return false;
    const expectedLeaf = receiptLeaf(position.receiptHash);
    if (!equalHashes(expectedLeaf, storedLeaf)) return false;
    if (!(await this.checkpointSigned(latest))) return false;
    const proof = await inclusionProof(leafIndex, latest.treeSize, this.log.nodeStore());
    return verifyInclusion(expectedLeaf, leafIndex, latest.treeSize, proof, latest.rootHash);
  }

  /** The latest signed checkpoint, in wire form; `checkpoint_not_found` before the first. */
  async checkpoint(): Promise<PublishedCheckpoint> {
    const latest = await this.log.latestCheckpoint();
    if (!latest) throw new ServiceError('checkpoint_not_found', 'the log has no checkpoint yet');
    return {
      origin: this.origin,
      treeSize: latest.treeSize,
      rootHash: hashToWire(latest.rootHash),
      checkpoint: cosignedNote(latest),
      createdAt: latest.createdAt.toISOString(),
    };
  }

  /**
   * A C2SP tlog-tiles resource, `path` being what follows `tile/` (`0/x001/234`,
   * `entries/005.p/17`). Malformed paths are `invalid_tile_path`, tiles the tree does not
   * hold `tile_not_found`.
   */
  async tile(path: string): Promise<Uint8Array> {
    return this.tiles.read(parseTilePath(path));
  }

  /** RFC 9162 consistency proof between two published tree sizes, in wire form. */
  async consistency(from: number, to: number): Promise<ConsistencyEvidence> {
    if (from > to) throw new ServiceError('invalid_log_range', '`from` must not exceed `to`');
    const [a, b] = await Promise.all([this.log.checkpointAt(from), this.log.checkpointAt(to)]);
    if (!a || !b) {
      throw new ServiceError('checkpoint_not_found', 'both sizes must be published checkpoints');
    }
    const proof = await consistencyProof(from, to, this.log.nodeStore());
    return {
      from,
      to,
      fromRoot: hashToWire(a.rootHash),
      toRoot: hashToWire(b.rootHash),
      proof: proofToWire(proof),
    };
  }

  /**
   * A walk over the sealed entries that checks them against the signed checkpoint before the
   * caller learns of them (audited-entries.ts); `select` picks what the caller keeps.
   */
  auditedEntries<T>(
    select: AuditedEntriesOptions<T>['select'],
    accept: AuditedEntriesOptions<T>['accept'],
  ): AuditedEntries<T> {
    return new AuditedEntries({
      log: this.log,
      checkpointSigned: (checkpoint) => this.checkpointSigned(checkpoint),
      select,
      accept,
    });
  }

  private async checkpointSigned(checkpoint: CheckpointRecord): Promise<boolean> {
    for (const publicKey of await this.publicKeys()) {
      try {
        const parsed = verifyCheckpoint(checkpoint.note, { keyName: this.origin, publicKey });
        return (
          parsed.treeSize === checkpoint.treeSize &&
          equalHashes(parsed.rootHash, checkpoint.rootHash)
        );
      } catch {
        // signed by another key of the ring (or not at all): try the next
      }
    }
    return false;
  }

  private noteSigner(): NoteSigner {
    if (!this.signer) {
      throw new ServiceError(
        'signing_disabled',
        'anchoring needs a signing key (SIGNING_DISABLED is set)',
      );
    }
    return this.signer;
  }
}

/** RFC 9162 leaf hash of a receipt: the leaf input is the 32 raw bytes of its `sha256:` hash. */
export function receiptLeaf(receiptHash: string): Uint8Array {
  return leafHash(Buffer.from(receiptHash.replace(/^sha256:/, ''), 'hex'));
}

/** The log's note followed by the witnesses' cosignature lines (one signed note). */
export function cosignedNote(checkpoint: CheckpointRecord): string {
  const lines = (checkpoint.cosignatures ?? []).map((c) => `${c.line}\n`).join('');
  return `${checkpoint.note}${lines}`;
}
