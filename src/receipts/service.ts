import type { AnchorService, InclusionEvidence } from '../anchoring/anchor-service.js';
import type { AnchorState } from '../contract/common.js';
import type { CiVerificationRequest, CiVerificationResponse } from '../contract/ci.js';
import type { VerificationStatus } from '../contract/lifecycle.js';
import type { VerificationRequest } from '../contract/verification.js';
import { attestationOf, type SigstoreBundle } from './attestation.js';
import { buildBundle, type ReceiptBundleOf } from './bundle.js';
import { isServiceError, ServiceError } from '../errors.js';
import { ciResponseOf } from './ci-result.js';
import type { OidcVerifier } from './ci-identity/oidc.js';
import { pdfSignerEndorsement } from './pdf-signer.js';
import { signedStatus, statusStatementOf, type PublicStatus } from './public-status.js';
import type { Signer } from './signer.js';
import { ReceiptError, receiptHashNotFound, receiptNotFound } from './errors.js';
import type { ReceiptIssuer } from './issuance.js';
import type { KeyRingSource } from './keyring.js';
import type {
  DefaultBranchSource,
  ListFilters,
  ReceiptLinks,
  ReceiptPage,
  ReceiptRecord,
  ReceiptStores,
} from './ports.js';
import { refOfWorkflowRef, type CiRunFacts } from './checks/ci-run.js';
import type { CiIdentityClaims, RunName } from './ci-identity/identity.js';
import { anchorStateOf, revocationOf } from './record-state.js';
import { revokeReceipt, type RevokeInput, type RevokeResult } from './revoke.js';
import { verifyReceipt } from './verify.js';
import {
  integrityFailureOf,
  receiptIntegrityFailed,
  type IntegrityFailureReporter,
  type ReceiptUse,
} from './intact.js';

export interface ReceiptServiceDeps {
  stores: ReceiptStores;
  issuer: ReceiptIssuer;
  keyRing: KeyRingSource;
  anchoring: AnchorService;
  publicUrl: string | undefined;
  /** Where a receipt's JSON and PDF are served, quoted in CI answers. */
  links: ReceiptLinks;
  issuerClockSkewSeconds: number;
  /** Verifies the OIDC token a CI run sends (x-ci-oidc-token). */
  ciIdentity: Pick<OidcVerifier, 'verify'>;
  /** The GitHub App's answer to default-branch questions (ci-provenance-v2); none without it. */
  defaultBranches?: DefaultBranchSource | undefined;
  /** Signs public status statements; undefined when SIGNING_DISABLED. */
  signer?: Signer | undefined;
  /** Told of every stored receipt refused because it no longer verifies (log, metrics). */
  onIntegrityFailure?: IntegrityFailureReporter;
  now?: () => Date;
}

/**
 * Every receipt use case, one method each: the HTTP routes, the GitHub App and the CLI call
 * these and only render the result. Each method sequences named steps, no storage detail.
 */
export class ReceiptService {
  constructor(private readonly deps: ReceiptServiceDeps) {}

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

  /** CI receipts of the repository's commit, of every tenant (the caller decides which count). */
  ciReceiptsForCommit(repository: string, headSha: string): Promise<ReceiptRecord[]> {
    return this.deps.stores.receipts.findCiForCommit(repository, headSha, 50);
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

  /**
   * Refuses a stored receipt that later verification would not accept (hash, row, signature):
   * whatever the service signs or publishes about a receipt vouches for the stored row, so a
   * row edited behind the service's back gets nothing signed over it.
   */
  async assertIntact(record: ReceiptRecord, use: ReceiptUse): Promise<ReceiptRecord> {
    const ring = await this.deps.keyRing.current();
    const failure = integrityFailureOf(record, ring, this.deps.signer !== undefined);
    if (!failure) return record;
    this.deps.onIntegrityFailure?.({ ...failure, use });
    throw receiptIntegrityFailed({ ...failure, use });
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
    const record = await this.assertIntact(await this.get(tenant, receiptId), 'attestation');
    const base = this.deps.publicUrl ?? 'urn:verification-receipt-service';
    const { json, absolute } = this.deps.links.receipt(record.id);
    return attestationOf(record, signer, base, absolute ? json : `${base}${json}`);
  }

  /** The receipt bundle: receipt, canonical form, signing key and, once anchored, log evidence. */
  async bundle(tenant: string, receiptId: string): Promise<ReceiptBundleOf> {
    const record = await this.get(tenant, receiptId);
    return this.bundleOf(record);
  }

  /** The bundle of a stored receipt, refused when the receipt no longer verifies. */
  async bundleOf(record: ReceiptRecord, use: ReceiptUse = 'bundle'): Promise<ReceiptBundleOf> {
    await this.assertIntact(record, use);
    const kid = record.receipt.receiptSignature?.kid;
    const ring = await this.deps.keyRing.current();
    const key = ring.publicJwks.find((k) => k.kid === kid);
    const { anchoring } = this.deps;
    const inclusion = await anchoring.inclusion(record.anchor);
    const vkey = anchoring.verifierKey;
    const log =
      inclusion && vkey
        ? { origin: anchoring.origin, noteVerifierKey: vkey, inclusion }
        : undefined;
    return buildBundle(record, key, log);
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
    const record = await this.get(tenant, receiptId);
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
   * GET /status/{receiptHash}: the signed public status of any tenant's receipt with that hash,
   * with the latest checkpoint and, when `fromTreeSize` is a published size, a consistency proof
   * from it (so a holder of an older bundle can check the log only grew).
   */
  async publicStatus(receiptHash: string, fromTreeSize?: number): Promise<PublicStatus> {
    const record = await this.deps.stores.receipts.findByHash(receiptHash);
    if (!record) throw receiptHashNotFound();
    await this.assertIntact(record, 'status');
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

  revoke(input: RevokeInput): Promise<RevokeResult> {
    const { issuers, revocations } = this.deps.stores;
    return revokeReceipt(
      {
        issuers,
        revocations,
        skewSeconds: this.deps.issuerClockSkewSeconds,
        now: this.deps.now ?? (() => new Date()),
      },
      input,
    );
  }

  /** The anchor state with, once anchored, the inclusion proof; 409 without a proof artifact. */
  async anchor(
    tenant: string,
    receiptId: string,
  ): Promise<AnchorState & Partial<InclusionEvidence>> {
    const record = await this.get(tenant, receiptId);
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
