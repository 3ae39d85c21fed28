import { randomUUID } from 'node:crypto';
import type { CiVerificationRequest } from '../contract/ci.js';
import type { Decision } from '../contract/common.js';
import type { VerificationRequest } from '../contract/verification.js';
import { canonicalJson, sha256Digest } from './canonical.js';
import { runCiChecks, type CiCheckContext } from './checks/ci.js';
import type { CiRunFacts } from './checks/ci-run.js';
import { CI_PROFILE_V1, CI_PROFILE_IDS, resolveCiProfile } from './ci-profiles.js';
import { runRonChecks } from './checks/index.js';
import {
  commitInputs,
  normaliseDocHash,
  suppliedDocument,
  type SuppliedDocument,
} from './commitment.js';
import { receiptEntry } from './log-entries.js';
import { ReceiptError } from './errors.js';
import { resolveProfile, unknownProfileOutcome } from './policy.js';
import type {
  NotaryStore,
  ReceiptRecord,
  ReceiptStore,
  TenantPolicyStore,
  TokenUseStore,
} from './ports.js';
import { buildReceipt, type ReceiptDraft } from './receipt.js';
import { UnknownScreeningSourceError, type ScreeningLists } from '../screening/index.js';
import type { Signer } from './signer.js';
import type { CheckOutcome, NotaryRecord } from './types.js';
import { documentEvidence, type DocumentEvidence } from './notarial/evidence.js';
import type { CertificateRevocation } from './certificate-revocation.js';
import { identitySubject, type CiIdentityEvidence, type RunName } from './ci-identity/identity.js';

export interface IssuanceDeps {
  receipts: ReceiptStore;
  notaries: NotaryStore;
  tenantPolicies: TenantPolicyStore;
  /** Single use of OIDC tokens across every replica. */
  tokenUses: TokenUseStore;
  /**
   * The clock skew the OIDC verifier allows past a token's `exp` (CI_OIDC_CLOCK_SKEW_SECONDS):
   * a use is kept as long as the token is accepted, so it cannot be replayed inside that skew.
   */
  oidcClockSkewSeconds: number;
  screening: ScreeningLists;
  /** Revocation of the certificates that sign a deed (`doc.signatures`); unset: not checked. */
  certificateRevocation?: CertificateRevocation;
  signer: Signer | undefined;
  trustedEvents: string[];
  now?: () => Date;
  /** Told the decision of each receipt stored (not of an idempotent repeat). */
  onIssued?: (decision: Decision) => void;
}

/** Proves the facts the hardened CI profile judges, asked only when that profile applies. */
export type CiRunFactsSource = () => Promise<CiRunFacts>;

/** What the caller of `issueCi` knows beyond the request. */
export interface CiIssueOptions {
  trustedEvents?: string[];
  identity?: CiIdentityEvidence;
  /** `sha256:<hex>` of the artifact the run produced (x-ci-subject-digest). */
  subjectDigest?: string | undefined;
  /** The profile to judge under (a repository's receipts.yml); else the tenant's, else v1. */
  profile?: string | undefined;
  /** Where the run ran, for the hardened profile; absent: unproven. */
  runFacts?: CiRunFactsSource | undefined;
  /** The run the request names in x-ci-run, for the token to be compared with. */
  run?: RunName | undefined;
}

/**
 * The one issuance path: run the checks, build and sign the receipt, and store it together
 * with its log entry in one transaction (a failure anywhere leaves no row behind).
 */
export class ReceiptIssuer {
  constructor(private readonly deps: IssuanceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async issueRon(tenant: string, request: VerificationRequest): Promise<ReceiptRecord> {
    this.assertKnownSources(request);
    const now = this.now();
    const document = suppliedDocument(request.doc.pdfBase64);
    const docHash = normaliseDocHash(request.doc.docHash);
    const outcomes = await this.ronOutcomes(tenant, request, { docHash, document, now });
    const record = await this.store(tenant, {
      draft: {
        receiptId: randomUUID(),
        createdAt: now.toISOString(),
        policyProfile: request.policy.profile,
        inputsCommitment: commitInputs(request, document),
        subject: {
          kind: 'ron-document',
          bundleId: request.bundleId,
          transactionType: request.transactionType,
          docHash,
          notaryId: request.ron.notaryId,
          property: { ...request.property },
        },
        outcomes,
      },
      hasProofArtifact: document !== undefined,
    });
    if (!record) throw new Error('a RON receipt has no externalId to collide on');
    return record;
  }

  /**
   * Idempotent per (tenant, externalId): an identical repeat returns the receipt already issued;
   * the same externalId with different content is refused, like a reused idempotency key.
   */
  async issueCi(
    tenant: string,
    request: CiVerificationRequest,
    options: CiIssueOptions = {},
  ): Promise<{ record: ReceiptRecord; created: boolean }> {
    // the artifact digest is part of what the receipt commits to (and of the idempotency key)
    const committed = options.subjectDigest
      ? { ...request, subjectDigest: options.subjectDigest }
      : request;
    const inputsCommitment = sha256Digest(canonicalJson(committed));
    const existing = await this.deps.receipts.findByExternalId(tenant, request.externalId);
    if (existing) return { record: sameInputs(existing, inputsCommitment), created: false };
    const draft = await this.ciDraft(tenant, request, options, inputsCommitment);
    const stored = await this.store(tenant, {
      draft,
      hasProofArtifact: true,
      externalId: request.externalId,
    });
    if (stored) return { record: stored, created: true };
    // a concurrent request with the same externalId won the insert: answer with its receipt
    const raced = await this.deps.receipts.findByExternalId(tenant, request.externalId);
    if (!raced) throw new Error('externalId reported taken but no receipt holds it');
    return { record: sameInputs(raced, inputsCommitment), created: false };
  }

  /** A new CI receipt's content: the token's single use, the profile, the checks' outcomes. */
  private async ciDraft(
    tenant: string,
    request: CiVerificationRequest,
    options: CiIssueOptions,
    inputsCommitment: string,
  ): Promise<ReceiptDraft> {
    const now = this.now();
    const identity = await this.singleUse(tenant, request, options.identity ?? { kind: 'none' });
    const policy = await this.deps.tenantPolicies.ciPolicy(tenant);
    const profileId = options.profile ?? policy.profile ?? CI_PROFILE_V1;
    const outcomes = await this.ciOutcomes(profileId, request, {
      trustedEvents: options.trustedEvents ?? this.deps.trustedEvents,
      identity,
      allowedRepositories: policy.repositories,
      runFacts: options.runFacts,
      run: options.run,
    });
    return {
      receiptId: randomUUID(),
      createdAt: now.toISOString(),
      policyProfile: profileId,
      inputsCommitment,
      subject: ciSubject(
        request,
        identity,
        options.subjectDigest,
        outcomes.find((o) => o.checkId === 'ci.identity'),
      ),
      outcomes,
    };
  }

  /**
   * A valid token is accepted once: its first use (or the same tenant retrying the same
   * externalId) keeps it, any other use is a replay. Asked only for a new receipt, since an
   * idempotent repeat answers with the receipt already issued. The use is kept until the
   * verifier stops accepting the token, `exp` plus its clock skew, never less.
   */
  private async singleUse(
    tenant: string,
    request: CiVerificationRequest,
    identity: CiIdentityEvidence,
  ): Promise<CiIdentityEvidence> {
    if (identity.kind !== 'oidc-valid') return identity;
    const { issuer, jti, exp } = identity.claims;
    // the verifier requires both; without them single use cannot be held, so it is refused
    if (jti === undefined || exp === undefined) return { ...identity, kind: 'oidc-replayed' };
    const use = await this.deps.tokenUses.claim({
      issuer,
      jti,
      tenant,
      externalId: request.externalId,
      expiresAt: new Date((exp + this.deps.oidcClockSkewSeconds) * 1000),
    });
    return use === 'replayed' ? { kind: 'oidc-replayed', claims: identity.claims } : identity;
  }

  private async ciOutcomes(
    profileId: string,
    request: CiVerificationRequest,
    ctx: Omit<CiCheckContext, 'runFacts'> & { runFacts?: CiRunFactsSource | undefined },
  ): Promise<CheckOutcome[]> {
    const profile = resolveCiProfile(profileId);
    if (!profile) return [unknownProfileOutcome(profileId, CI_PROFILE_IDS)];
    const why = 'no OIDC token of the run and no GitHub App event proves it';
    const unproven: CiRunFacts = { source: 'none', unknown: { runner: why, branch: why } };
    const runFacts = profile.hardened ? ((await ctx.runFacts?.()) ?? unproven) : undefined;
    return runCiChecks(request, { ...ctx, runFacts });
  }

  private assertKnownSources(request: VerificationRequest): void {
    const unknown = this.deps.screening.unknownSources(request.registryScreening?.sourceIds ?? []);
    if (unknown.length > 0) {
      throw new UnknownScreeningSourceError(unknown, this.deps.screening.knownSourceIds());
    }
  }

  private async ronOutcomes(
    tenant: string,
    request: VerificationRequest,
    input: { docHash: string; document: SuppliedDocument | undefined; now: Date },
  ): Promise<CheckOutcome[]> {
    const profile = resolveProfile(request.policy.profile);
    if (!profile) return [unknownProfileOutcome(request.policy.profile)];
    const notary = await this.deps.notaries.find(tenant, request.ron.notaryId);
    const documentEvidence =
      profile.checks.includes('doc.signatures') && input.document
        ? await this.readDocument(tenant, input.document.bytes, notary, input.now)
        : undefined;
    const screening = this.deps.screening;
    return runRonChecks({ request, notary, screening, profile, documentEvidence, ...input });
  }

  /** The document's own signatures judged against the tenant's notary trust (doc.signatures). */
  private async readDocument(
    tenant: string,
    bytes: Uint8Array,
    notary: NotaryRecord | undefined,
    now: Date,
  ): Promise<DocumentEvidence> {
    const trust = await this.deps.tenantPolicies.notaryTrust(tenant);
    const revocation = this.deps.certificateRevocation;
    return documentEvidence({ bytes, trust, notary, now, revocation });
  }

  /** The stored record, or undefined when the externalId was taken meanwhile. */
  private async store(
    tenant: string,
    input: { draft: ReceiptDraft; hasProofArtifact: boolean; externalId?: string },
  ): Promise<ReceiptRecord | undefined> {
    const { receipt } = buildReceipt(input.draft, this.deps.signer);
    const logEntry = input.hasProofArtifact ? receiptEntry(receipt.receiptHash) : undefined;
    const result = await this.deps.receipts.insert({
      tenant,
      receipt,
      hasProofArtifact: input.hasProofArtifact,
      externalId: input.externalId,
      logEntry,
    });
    if (result === 'duplicate_external_id') return undefined;
    this.deps.onIssued?.(receipt.decision);
    return {
      id: receipt.receiptId,
      tenant,
      receipt,
      createdAt: new Date(receipt.createdAt),
      hasProofArtifact: input.hasProofArtifact,
      externalId: input.externalId ?? null,
      revokedAt: null,
      revokedBy: null,
      revocationAudit: null,
      revocationEntry: null,
      anchor: { leafIndex: null, anchoredAt: null, leafHash: logEntry?.leafHash ?? null },
    };
  }
}

/** The receipt already issued for an externalId, if it was issued for these same inputs. */
function sameInputs(record: ReceiptRecord, inputsCommitment: string): ReceiptRecord {
  if (record.receipt.inputsCommitment === inputsCommitment) return record;
  throw new ReceiptError(
    'external_id_conflict',
    'externalId was already used for a different request; use a new externalId',
    { details: { externalId: record.externalId, receiptId: record.id } },
  );
}

/** What a CI receipt says it is about: the run, the artifact, and the identity sent with it. */
function ciSubject(
  request: CiVerificationRequest,
  identity: CiIdentityEvidence,
  subjectDigest: string | undefined,
  identityOutcome: CheckOutcome | undefined,
): ReceiptDraft['subject'] {
  const recorded = identitySubject(identity, identityOutcome);
  return {
    kind: 'ci-workflow-run',
    externalId: request.externalId,
    headSha: request.headSha,
    repository: request.repository.fullName,
    eventName: request.provenance.eventName,
    subjectKind: request.subject.kind,
    summary: request.subject.summary,
    ...(subjectDigest ? { artifactDigest: subjectDigest } : {}),
    ...(recorded ? { identity: recorded } : {}),
  };
}
