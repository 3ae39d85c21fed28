import type { InclusionEvidence } from '../anchoring/anchor-service.js';
import type { AnchorState } from '../contract/common.js';
import type { CiVerificationRequest, CiVerificationResponse } from '../contract/ci.js';
import type { VerificationStatus } from '../contract/lifecycle.js';
import type { VerificationRequest } from '../contract/verification.js';
import type { SigstoreBundle } from './attestation.js';
import type { ReceiptBundleOf } from './bundle.js';
import { ServiceError } from '../errors.js';
import { countsForGate, type GateScope } from './ci-proof.js';
import { ciResponseOf } from './ci-result.js';
import type { OidcVerifier } from './ci-identity/oidc.js';
import type { PublicStatus } from './public-status.js';
import { receiptNotFound } from './errors.js';
import { ReceiptEvidence, type EvidenceDeps, type WitnessedBundle } from './evidence.js';
import type { ReceiptIssuer } from './issuance.js';
import type { DefaultBranchSource, ListFilters, ReceiptPage, ReceiptRecord } from './ports.js';
import { refOfWorkflowRef, type CiRunFacts } from './checks/ci-run.js';
import type { CiIdentityClaims, RunName } from './ci-identity/identity.js';
import { revocationOf } from './record-state.js';
import { revokeReceipt, type RevokeInput, type RevokeResult } from './revoke.js';
import { SignedPdfs, type SignedPdfDeps } from './signed-pdf.js';
import { verifyReceipt } from './verify.js';
import type { ReceiptUse } from './intact.js';

/** The newest proven receipts a deployment gate weighs. */
const GATE_RECEIPTS_MAX = 50;

/** The stores, keys and log of the receipt evidence (`EvidenceDeps`), and what issuance needs. */
export interface ReceiptServiceDeps extends EvidenceDeps {
  issuer: ReceiptIssuer;
  revocationClockSkewSeconds: number;
  /** Verifies the OIDC token a CI run sends (x-ci-oidc-token). */
  ciIdentity: Pick<OidcVerifier, 'verify'>;
  /** The GitHub App's answer to default-branch questions (ci-provenance-v2); none without it. */
  defaultBranches?: DefaultBranchSource | undefined;
  /** Where signed PDFs are kept and who makes them; without it, no PDF is served. */
  pdfs?: SignedPdfDeps | undefined;
}

/**
 * Every receipt use case, one method each: the HTTP routes, the GitHub App and the CLI call
 * these and only render the result. Each method sequences named steps, no storage detail.
 */
export class ReceiptService {
  /** Bundles, attestations, public status, anchor state and tlog proofs of stored receipts. */
  private readonly evidence: ReceiptEvidence;
  /** The signed PDF of a stored receipt, kept per state. */
  private readonly pdfs: SignedPdfs | undefined;

  constructor(private readonly deps: ReceiptServiceDeps) {
    this.evidence = new ReceiptEvidence(deps, (tenant, receiptId) => this.get(tenant, receiptId));
    this.pdfs = deps.pdfs && new SignedPdfs(deps.pdfs, this.evidence);
  }

  issueRon(tenant: string, request: VerificationRequest): Promise<ReceiptRecord> {
    return this.deps.issuer.issueRon(tenant, request);
  }

  issueCi(
    tenant: string,
    request: CiVerificationRequest,
    options: Parameters<ReceiptIssuer['issueCi']>[2] = {},
  ): Promise<{ record: ReceiptRecord; created: boolean }> {
    return this.deps.issuer.issueCi(tenant, request, options);
  }

  /**
   * POST /verifications/ci: issue (or find) the run's receipt, answered check-run style. The
   * run's OIDC token, when sent, is verified first; its verdict is the `ci.identity` check.
   */
  async ciResult(
    tenant: string,
    request: CiVerificationRequest,
    extra: {
      oidcToken?: string | undefined;
      /** `sha256:<64 lowercase hex>`, checked by the caller (the HTTP layer answers 400). */
      subjectDigest?: string | undefined;
      run?: RunName | undefined;
    } = {},
  ): Promise<CiVerificationResponse> {
    const { subjectDigest } = extra;
    const identity = extra.oidcToken
      ? await this.deps.ciIdentity.verify(extra.oidcToken)
      : { kind: 'none' as const };
    const runFacts =
      identity.kind === 'oidc-valid' ? () => this.oidcRunFacts(identity.claims) : undefined;
    const { run } = extra;
    const { record } = await this.issueCi(tenant, request, {
      identity,
      subjectDigest,
      runFacts,
      run,
    });
    return ciResponseOf(record, this.deps.links, request.detailsUrl);
  }

  /** Runner and workflow ref from the verified token; the default branch from the GitHub App. */
  private async oidcRunFacts(claims: CiIdentityClaims): Promise<CiRunFacts> {
    const facts = {
      source: 'oidc',
      runnerEnvironment: claims.runner_environment,
      workflowRef: refOfWorkflowRef(claims.workflow_ref),
      unknown: { runner: 'the token has no runner_environment claim' },
    };
    const { defaultBranches } = this.deps;
    if (!defaultBranches) {
      return {
        ...facts,
        unknown: { ...facts.unknown, branch: 'no GitHub App is configured to ask GitHub for it' },
      };
    }
    let defaultBranch: string | undefined;
    try {
      defaultBranch = await defaultBranches.defaultBranch(claims.repository);
    } catch (cause) {
      throw new ServiceError(
        'ci_facts_unavailable',
        `GitHub could not be asked for the default branch of ${claims.repository}`,
        { cause },
      );
    }
    return defaultBranch
      ? { ...facts, defaultBranch }
      : {
          ...facts,
          unknown: {
            ...facts.unknown,
            branch: `the GitHub App is not installed on ${claims.repository}`,
          },
        };
  }

  /** The tenant's receipt; another tenant's is a 404 like a missing one. */
  async get(tenant: string, receiptId: string): Promise<ReceiptRecord> {
    const record = await this.deps.stores.receipts.find(tenant, receiptId);
    if (!record) throw receiptNotFound();
    return record;
  }

  findByExternalId(tenant: string, externalId: string): Promise<ReceiptRecord | undefined> {
    return this.deps.stores.receipts.findByExternalId(tenant, externalId);
  }

  /**
   * The receipts that count for a deployment gate (`countsForGate`), newest first, at most 50:
   * the store selects the proven ones, and each is judged again from its signed body.
   */
  async gateReceipts(gate: GateScope): Promise<ReceiptRecord[]> {
    const records = await this.deps.stores.receipts.findProvenCiForCommit(
      { repository: gate.repository, headSha: gate.sha, tenant: gate.tenant },
      GATE_RECEIPTS_MAX,
    );
    return records.filter((record) => countsForGate(record, gate));
  }

  list(
    tenant: string,
    limit: number,
    cursor: string | undefined,
    filters: ListFilters = {},
  ): Promise<ReceiptPage> {
    return this.deps.stores.receipts.list(tenant, limit, cursor, filters);
  }

  /**
   * Later verification: integrity, row consistency, signature, revocation (the log's entry
   * first), anchor proof. A store that disagrees with the log about the revocation fails
   * integrity: the §2.8 answer has no other field for it.
   */
  async verifyLater(tenant: string, receiptId: string): Promise<VerificationStatus> {
    const record = await this.get(tenant, receiptId);
    const revocation = revocationOf(record);
    return verifyReceipt({
      receipt: record.receipt,
      row: { id: record.id, createdAt: record.createdAt },
      consistent: revocation.inconsistency === undefined,
      keyRing: await this.deps.keyRing.current(),
      revoked: revocation.revoked,
      proofVerified: await this.deps.anchoring.proofVerified({
        ...record.anchor,
        receiptHash: record.receipt.receiptHash,
      }),
    });
  }

  /** Refuses a stored receipt that later verification would not accept (see ReceiptEvidence). */
  assertIntact(record: ReceiptRecord, use: ReceiptUse): Promise<ReceiptRecord> {
    return this.evidence.assertIntact(record, use);
  }

  attestation(tenant: string, receiptId: string): Promise<SigstoreBundle> {
    return this.evidence.attestation(tenant, receiptId);
  }

  /** The receipt bundle: receipt, canonical form, signing key and, once anchored, log evidence. */
  async bundle(tenant: string, receiptId: string): Promise<ReceiptBundleOf> {
    return this.evidence.bundleOf(await this.get(tenant, receiptId));
  }

  bundleOf(record: ReceiptRecord, use: ReceiptUse = 'bundle'): Promise<ReceiptBundleOf> {
    return this.evidence.bundleOf(record, use);
  }

  /** The bundle with the newest witnessed checkpoint's evidence (evidence.ts). */
  witnessedBundleOf(record: ReceiptRecord): Promise<WitnessedBundle> {
    return this.evidence.witnessedBundleOf(record);
  }

  /** The log policy's witness quorum; undefined when it requires none. */
  get witnessQuorum(): { witnesses: string[]; quorum: number } | undefined {
    return this.deps.anchoring.witnessQuorum;
  }

  /** GET /receipt/{id}/pdf: the tenant's receipt as a signed PDF in its current state. */
  async signedPdf(tenant: string, receiptId: string): Promise<{ id: string; pdf: Buffer }> {
    if (!this.pdfs) throw new Error('no PDF signer is configured');
    const record = await this.get(tenant, receiptId);
    return { id: record.id, pdf: await this.pdfs.of(record) };
  }

  tlogProof(tenant: string, receiptId: string): Promise<string> {
    return this.evidence.tlogProof(tenant, receiptId);
  }

  /** GET /status/{receiptHash}: the signed public status of any tenant's receipt with that hash. */
  publicStatus(receiptHash: string, fromTreeSize?: number): Promise<PublicStatus> {
    return this.evidence.publicStatus(receiptHash, fromTreeSize);
  }

  revoke(input: RevokeInput): Promise<RevokeResult> {
    const { issuers, revocations } = this.deps.stores;
    return revokeReceipt(
      {
        revokers: issuers,
        revocations,
        skewSeconds: this.deps.revocationClockSkewSeconds,
        now: this.deps.now ?? (() => new Date()),
      },
      input,
    );
  }

  anchor(tenant: string, receiptId: string): Promise<AnchorState & Partial<InclusionEvidence>> {
    return this.evidence.anchor(tenant, receiptId);
  }
}
