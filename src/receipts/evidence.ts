import type { AnchorService, InclusionEvidence } from '../anchoring/anchor-service.js';
import { LogEntriesTampered } from '../anchoring/audited-entries.js';
import type { AnchorState } from '../contract/common.js';
import { isServiceError, ServiceError } from '../errors.js';
import { attestationOf, type SigstoreBundle } from './attestation.js';
import { buildBundle, withPqSignature, type ReceiptBundleOf } from './bundle.js';
import { ReceiptError, receiptHashNotFound } from './errors.js';
import {
  integrityFailureOf,
  receiptIntegrityFailed,
  type IntegrityFailure,
  type IntegrityFailureReporter,
  type ReceiptUse,
} from './intact.js';
import { LoggedRevocations } from './logged-revocations.js';
import { revocationEvidenceFailure } from './revocation-evidence.js';
import type { KeyRingSource } from './keyring.js';
import { pdfSignerEndorsement } from './pdf-signer.js';
import type { ReceiptLinks, ReceiptRecord, ReceiptStores } from './ports.js';
import { signedStatus, statusStatementOf, type PublicStatus } from './public-status.js';
import { anchorStateOf } from './record-state.js';
import type { PqSigner } from './pq-signer.js';
import type { Signer } from './signer.js';

/** What the evidence about a stored receipt is made from. */
export interface EvidenceDeps {
  stores: ReceiptStores;
  keyRing: KeyRingSource;
  anchoring: AnchorService;
  publicUrl: string | undefined;
  /** Where a receipt's JSON and PDF are served, quoted in CI answers. */
  links: ReceiptLinks;
  /** Signs public status statements; undefined when SIGNING_DISABLED. */
  signer?: Signer | undefined;
  /** Adds an ML-DSA-44 signature to bundles of signed receipts (PQ_SIGNATURES). */
  pqSigner?: PqSigner | undefined;
  /** Told of every stored receipt refused because it no longer verifies (log, metrics). */
  onIntegrityFailure?: IntegrityFailureReporter;
  now?: () => Date;
}

/** A bundle whose log evidence is from the newest witnessed checkpoint holding the receipt. */
export interface WitnessedBundle {
  bundle: ReceiptBundleOf;
  /** Its checkpoint carries the cosignatures of the witness quorum. */
  witnessed: boolean;
  /** The configured witnesses whose cosignatures its checkpoint carries. */
  cosigners: string[];
}

/** The tenant's receipt; another tenant's is a 404 like a missing one. */
export type FindReceipt = (tenant: string, receiptId: string) => Promise<ReceiptRecord>;

/**
 * What the service signs or publishes about a stored receipt: its bundle, attestation, public
 * status, anchor state and tlog proof. Each vouches for the stored row, so each refuses a row
 * that no longer verifies.
 */
export class ReceiptEvidence {
  /** The log's revocations, checked against its signed checkpoints (kept in this process). */
  private readonly revocations: LoggedRevocations;

  constructor(
    private readonly deps: EvidenceDeps,
    private readonly find: FindReceipt,
  ) {
    this.revocations = new LoggedRevocations(deps.anchoring);
  }

  /**
   * Refuses a stored receipt that later verification would not accept (hash, row, signature):
   * whatever the service signs or publishes about a receipt vouches for the stored row, so a
   * row edited behind the service's back gets nothing signed over it.
   */
  assertIntact(record: ReceiptRecord, use: ReceiptUse): Promise<ReceiptRecord> {
    return this.intact(record, use, true);
  }

  /** assertIntact; `again`: a revocation disagreement may be a seal's race, read the row again. */
  private async intact(
    record: ReceiptRecord,
    use: ReceiptUse,
    again: boolean,
  ): Promise<ReceiptRecord> {
    const ring = await this.deps.keyRing.current();
    const failure = integrityFailureOf(record, ring, this.deps.signer !== undefined);
    if (failure) this.refuse({ ...failure, use });
    const revocation = await this.revocationDisagreement(record);
    if (revocation === undefined) return record;
    // a revocation sealed between reading the row and the log: the row read again decides
    const fresh = again
      ? await this.deps.stores.receipts.findByHash(record.receipt.receiptHash)
      : undefined;
    if (fresh?.id === record.id) return this.intact(fresh, use, false);
    return this.refuse({ receiptId: record.id, use, revocation });
  }

  /**
   * Why the store's revocation state of the receipt is not the log's: the log's revocation
   * entries, checked against its signed checkpoint, against the rows (revocation-evidence.ts).
   */
  private async revocationDisagreement(record: ReceiptRecord): Promise<string | undefined> {
    try {
      const logged = await this.revocations.of(record.receipt.receiptHash);
      return revocationEvidenceFailure(record, logged);
    } catch (err) {
      if (err instanceof LogEntriesTampered) return err.message;
      throw err;
    }
  }

  private refuse(failure: IntegrityFailure): never {
    this.deps.onIntegrityFailure?.(failure);
    throw receiptIntegrityFailed(failure);
  }

  /** The receipt as a Sigstore bundle with a DSSE-signed in-toto SLSA VSA (signed now). */
  async attestation(tenant: string, receiptId: string): Promise<SigstoreBundle> {
    const { signer } = this.deps;
    if (!signer) {
      throw new ServiceError(
        'signing_disabled',
        'attestations need a signing key (SIGNING_DISABLED)',
      );
    }
    const record = await this.assertIntact(await this.find(tenant, receiptId), 'attestation');
    const base = this.deps.publicUrl ?? 'urn:verification-receipt-service';
    const { json, absolute } = this.deps.links.receipt(record.id);
    return attestationOf(record, signer, base, absolute ? json : `${base}${json}`);
  }

  /** The bundle of a stored receipt, refused when the receipt no longer verifies. */
  async bundleOf(stored: ReceiptRecord, use: ReceiptUse = 'bundle'): Promise<ReceiptBundleOf> {
    const record = await this.assertIntact(stored, use);
    return this.bundleWith(record, await this.deps.anchoring.inclusion(record.anchor));
  }

  /**
   * The bundle with the log evidence of the newest checkpoint cosigned by the witness quorum
   * that holds the receipt (else the latest signed one): whether that checkpoint is witnessed,
   * and which configured witnesses cosigned it.
   */
  async witnessedBundleOf(stored: ReceiptRecord): Promise<WitnessedBundle> {
    const record = await this.assertIntact(stored, 'bundle');
    const { anchoring } = this.deps;
    const inclusion = await anchoring.witnessedInclusion(record.anchor);
    return {
      bundle: await this.bundleWith(record, inclusion),
      witnessed: inclusion?.witnessed === true,
      cosigners: inclusion ? anchoring.cosignersOf(inclusion) : [],
    };
  }

  private async bundleWith(
    record: ReceiptRecord,
    inclusion: InclusionEvidence | undefined,
  ): Promise<ReceiptBundleOf> {
    const kid = record.receipt.receiptSignature?.kid;
    const ring = await this.deps.keyRing.current();
    const key = ring.publicJwks.find((k) => k.kid === kid);
    const { anchoring } = this.deps;
    const vkey = anchoring.verifierKey;
    const log =
      inclusion && vkey
        ? { origin: anchoring.origin, noteVerifierKey: vkey, inclusion }
        : undefined;
    return withPqSignature(buildBundle(record, key, log), this.deps.pqSigner);
  }

  /**
   * The bundle a PDF receipt carries: its bundle with the receipt key's endorsement of the
   * certificate (`sha256:<hex>`) the PDF is signed with.
   */
  async pdfBundleOf(record: ReceiptRecord, certificate: string): Promise<ReceiptBundleOf> {
    const bundle = await this.bundleOf(record, 'pdf');
    const { signer } = this.deps;
    return signer ? { ...bundle, pdfSigner: pdfSignerEndorsement(certificate, signer) } : bundle;
  }

  /**
   * The receipt's inclusion as a c2sp.org/tlog-proof file. A receipt outside every signed
   * checkpoint has no proof yet: 409, as for anchoring it.
   */
  async tlogProof(tenant: string, receiptId: string): Promise<string> {
    const record = await this.find(tenant, receiptId);
    if (!record.hasProofArtifact) throw proofArtifactRequired();
    const proof = await this.deps.anchoring.tlogProof(record.anchor);
    if (proof === undefined) {
      throw new ReceiptError(
        'proof_artifact_required_for_anchor',
        'the receipt is not in a signed checkpoint yet (anchor status PENDING): retry after the next seal',
        { details: { anchorStatus: 'PENDING' } },
      );
    }
    return proof;
  }

  /**
   * The signed public status of any tenant's receipt with that hash, with the latest checkpoint
   * and, when `fromTreeSize` is a published size, a consistency proof from it (so a holder of
   * an older bundle can check the log only grew).
   */
  async publicStatus(receiptHash: string, fromTreeSize?: number): Promise<PublicStatus> {
    const stored = await this.deps.stores.receipts.findByHash(receiptHash);
    if (!stored) throw receiptHashNotFound();
    const record = await this.assertIntact(stored, 'status');
    const now = (this.deps.now ?? (() => new Date()))();
    const status = signedStatus(statusStatementOf(record, now), this.deps.signer);
    const checkpoint = await this.deps.anchoring
      .checkpoint()
      .catch(unlessCode('checkpoint_not_found'));
    if (!checkpoint) return status;
    const consistency =
      fromTreeSize !== undefined && fromTreeSize >= 1 && fromTreeSize <= checkpoint.treeSize
        ? await this.deps.anchoring
            .consistency(fromTreeSize, checkpoint.treeSize)
            .catch(unlessCode('checkpoint_not_found'))
        : undefined;
    return { ...status, log: { checkpoint, ...(consistency ? { consistency } : {}) } };
  }

  /** The anchor state with, once anchored, the inclusion proof; 409 without a proof artifact. */
  async anchor(
    tenant: string,
    receiptId: string,
  ): Promise<AnchorState & Partial<InclusionEvidence>> {
    const record = await this.find(tenant, receiptId);
    if (!record.hasProofArtifact) throw proofArtifactRequired();
    return { ...anchorStateOf(record), ...(await this.deps.anchoring.inclusion(record.anchor)) };
  }
}

const proofArtifactRequired = (): ReceiptError =>
  new ReceiptError(
    'proof_artifact_required_for_anchor',
    'this receipt has no proof artifact (the request sent no doc.pdfBase64), so it cannot be anchored',
  );

/** A catch handler: undefined for a ServiceError with `code`, anything else rethrown. */
function unlessCode(code: string) {
  return (err: unknown): undefined => {
    if (isServiceError(err) && err.code === code) return undefined;
    throw err;
  };
}
