import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { CiVerificationRequest } from '../contract/ci.js';
import type { VerificationRequest } from '../contract/verification.js';
import type { ReceiptRecord, ReceiptRepository } from '../storage/receipts.js';
import type { NotaryRepository } from '../storage/notaries.js';
import { leafHash } from '../anchoring/merkle.js';
import { canonicalJson, sha256Digest } from './canonical.js';
import { runCiChecks } from './checks/ci.js';
import { runRonChecks } from './checks/index.js';
import { commitInputs, normaliseDocHash } from './commitment.js';
import { IssuanceError } from './errors.js';
import { resolveProfile, unknownProfileOutcome } from './policy.js';
import { buildReceipt, type ReceiptDraft } from './receipt.js';
import type { ScreeningLists } from './screening/index.js';
import type { Signer } from './signer.js';
import type { CheckOutcome } from './types.js';

export interface IssuanceDeps {
  knex: Knex;
  receipts: ReceiptRepository;
  notaries: NotaryRepository;
  screening: ScreeningLists;
  signer: Signer | undefined;
  trustedEvents: string[];
  now?: () => Date;
}

export const CI_POLICY_PROFILE = 'ci-provenance-v1';

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
    const pdfBytes = request.doc.pdfBase64
      ? Buffer.from(request.doc.pdfBase64, 'base64')
      : undefined;
    const docHash = normaliseDocHash(request.doc.docHash);
    const outcomes = await this.ronOutcomes(tenant, request, { docHash, pdfBytes, now });
    return this.store(tenant, {
      draft: {
        receiptId: randomUUID(),
        createdAt: now.toISOString(),
        policyProfile: request.policy.profile,
        inputsCommitment: commitInputs(request, pdfBytes),
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
      hasProofArtifact: pdfBytes !== undefined,
    });
  }

  /** Idempotent per (tenant, externalId): a repeat returns the receipt already issued. */
  async issueCi(
    tenant: string,
    request: CiVerificationRequest,
    options: { trustedEvents?: string[] } = {},
  ): Promise<{ record: ReceiptRecord; created: boolean }> {
    const existing = await this.deps.receipts.findByExternalId(tenant, request.externalId);
    if (existing) return { record: existing, created: false };
    const now = this.now();
    const outcomes = runCiChecks(request, {
      trustedEvents: options.trustedEvents ?? this.deps.trustedEvents,
    });
    const draft: ReceiptDraft = {
      receiptId: randomUUID(),
      createdAt: now.toISOString(),
      policyProfile: CI_POLICY_PROFILE,
      inputsCommitment: sha256Digest(canonicalJson(request)),
      subject: {
        kind: 'ci-workflow-run',
        externalId: request.externalId,
        headSha: request.headSha,
        repository: request.repository.fullName,
        eventName: request.provenance.eventName,
        subjectKind: request.subject.kind,
        summary: request.subject.summary,
      },
      outcomes,
    };
    try {
      const record = await this.store(tenant, {
        draft,
        hasProofArtifact: true,
        externalId: request.externalId,
      });
      return { record, created: true };
    } catch (err) {
      const raced = isUniqueViolation(err)
        ? await this.deps.receipts.findByExternalId(tenant, request.externalId)
        : undefined;
      if (raced) return { record: raced, created: false };
      throw err;
    }
  }

  private assertKnownSources(request: VerificationRequest): void {
    const unknown = this.deps.screening.unknownSources(request.registryScreening?.sourceIds ?? []);
    if (unknown.length > 0) {
      throw new IssuanceError(
        'unknown_screening_source',
        `unknown screening source: ${unknown.join(', ')}`,
        {
          unknownSourceIds: unknown,
          knownSourceIds: this.deps.screening.knownSourceIds(),
        },
      );
    }
  }

  private async ronOutcomes(
    tenant: string,
    request: VerificationRequest,
    input: { docHash: string; pdfBytes: Buffer | undefined; now: Date },
  ): Promise<CheckOutcome[]> {
    const profile = resolveProfile(request.policy.profile);
    if (!profile) return [unknownProfileOutcome(request.policy.profile)];
    const notary = await this.deps.notaries.find(tenant, request.ron.notaryId);
    return runRonChecks({ request, notary, screening: this.deps.screening, profile, ...input });
  }

  private async store(
    tenant: string,
    input: { draft: ReceiptDraft; hasProofArtifact: boolean; externalId?: string },
  ): Promise<ReceiptRecord> {
    const { receipt } = buildReceipt(input.draft, this.deps.signer);
    const leaf = input.hasProofArtifact
      ? Buffer.from(leafHash(Buffer.from(receipt.receiptHash.slice('sha256:'.length), 'hex')))
      : undefined;
    await this.deps.knex.transaction(async (trx) => {
      await this.deps.receipts.insert(trx, { tenant, receipt, ...input }, leaf);
    });
    return {
      id: receipt.receiptId,
      tenant,
      receipt,
      createdAt: new Date(receipt.createdAt),
      hasProofArtifact: input.hasProofArtifact,
      externalId: input.externalId ?? null,
      revokedAt: null,
      revokedBy: null,
      anchor: { leafIndex: null, anchoredAt: null, leafHash: leaf ?? null },
    };
  }
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
