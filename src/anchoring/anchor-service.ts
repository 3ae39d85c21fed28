import type { Knex } from 'knex';
import type { Signer } from '../receipts/signer.js';
import type { CheckpointRecord, LogRepository } from '../storage/log.js';
import type { ReceiptRecord } from '../storage/receipts.js';
import { signCheckpoint, verifyCheckpoint } from './checkpoint.js';
import { appendLeaves } from './compact-range.js';
import { equalHashes, leafHash, verifyInclusion } from './merkle.js';
import { consistencyProof, inclusionProof } from './proofs.js';
import type { NoteSigner } from './signed-note.js';
import { hashToWire, proofToWire } from './wire.js';

/** Default number of pending entries sealed into one checkpoint. */
export const SEAL_BATCH = 100_000;

export interface InclusionEvidence {
  logIndex: number;
  treeSize: number;
  rootHash: string;
  inclusionProof: string[];
  checkpoint: string;
}

/**
 * The log as the service runs it: seal pending receipts into signed checkpoints, and produce the
 * evidence (inclusion and consistency proofs) that lets anyone check the log offline.
 */
export class AnchorService {
  constructor(
    private readonly log: LogRepository,
    private readonly signer: Signer | undefined,
    private readonly origin: string,
    private readonly publicKeys: () => Promise<Uint8Array[]>,
  ) {}

  get enabled(): boolean {
    return this.signer !== undefined;
  }

  /** Seals up to `limit` pending entries into one new checkpoint; returns how many. */
  async sealOnce(limit = SEAL_BATCH): Promise<{ sealed: number; treeSize: number }> {
    const noteSigner = this.noteSigner();
    return this.log.withSealLock(async (trx) => {
      const size = (await this.log.latestCheckpoint(trx))?.treeSize ?? 0;
      const entries = await this.log.pending(trx, limit);
      if (entries.length === 0) return { sealed: 0, treeSize: size };
      const leaves = entries.map((e) => new Uint8Array(e.leafHash));
      const appended = await appendLeaves(size, leaves, this.log.nodeStore(trx));
      const checkpoint = {
        origin: this.origin,
        treeSize: appended.treeSize,
        rootHash: appended.rootHash,
      };
      const note = await signCheckpoint(checkpoint, noteSigner);
      await this.log.recordAppend(trx, {
        firstIndex: size,
        entries,
        nodes: appended.nodes,
        checkpoint: { treeSize: appended.treeSize, rootHash: Buffer.from(appended.rootHash), note },
      });
      return { sealed: entries.length, treeSize: appended.treeSize };
    });
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

  /** Inclusion of an anchored receipt in the latest checkpoint, as wire strings. */
  async inclusion(record: ReceiptRecord, db?: Knex): Promise<InclusionEvidence | undefined> {
    const { leafIndex } = record.anchor;
    if (leafIndex === null) return undefined;
    const latest = await this.log.latestCheckpoint(db);
    if (!latest || latest.treeSize <= leafIndex) return undefined;
    const proof = await inclusionProof(leafIndex, latest.treeSize, this.log.nodeStore(db));
    return {
      logIndex: leafIndex,
      treeSize: latest.treeSize,
      rootHash: hashToWire(latest.rootHash),
      inclusionProof: proofToWire(proof),
      checkpoint: latest.note,
    };
  }

  /**
   * proofVerified: the receipt's current hash is the leaf in the log, the inclusion proof leads
   * to the root of the latest checkpoint, and that checkpoint's signature verifies with a key of
   * the service's key ring.
   */
  async proofVerified(record: ReceiptRecord): Promise<boolean> {
    const { leafIndex, leafHash: storedLeaf } = record.anchor;
    if (leafIndex === null || !storedLeaf) return false;
    const latest = await this.log.latestCheckpoint();
    if (!latest || latest.treeSize <= leafIndex) return false;
    const expectedLeaf = leafHash(
      Buffer.from(record.receipt.receiptHash.replace(/^sha256:/, ''), 'hex'),
    );
    if (!equalHashes(expectedLeaf, storedLeaf)) return false;
    if (!(await this.checkpointSigned(latest))) return false;
    const proof = await inclusionProof(leafIndex, latest.treeSize, this.log.nodeStore());
    return verifyInclusion(expectedLeaf, leafIndex, latest.treeSize, proof, latest.rootHash);
  }

  async consistency(
    from: number,
    to: number,
  ): Promise<{ from: CheckpointRecord; to: CheckpointRecord; proof: string[] } | undefined> {
    const [a, b] = await Promise.all([this.log.checkpointAt(from), this.log.checkpointAt(to)]);
    if (!a || !b || from > to) return undefined;
    return {
      from: a,
      to: b,
      proof: proofToWire(await consistencyProof(from, to, this.log.nodeStore())),
    };
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
    const signer = this.signer;
    if (!signer) throw new Error('anchoring needs a signing key (SIGNING_DISABLED is set)');
    return {
      keyName: this.origin,
      publicKey: new Uint8Array(Buffer.from(signer.publicJwk.x, 'base64url')),
      sign: (message) => signer.sign(message),
    };
  }
}
