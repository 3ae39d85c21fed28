import type { CiVerificationRequest } from '../contract/ci.js';
import type { ReceiptRecord } from '../storage/receipts.js';

/** What the Probot handlers need from the service, wired in plugin.ts. */
export interface ReceiptsAppDeps {
  appId: number;
  publicUrl: string | undefined;
  /** The service's trusted events (CI_TRUSTED_EVENTS or the documented default list). */
  defaultTrustedEvents: readonly string[];
  /** `app.issuer.issueCi`: the same issuance path as POST /api/v1/verifications/ci. */
  issueCi(
    tenant: string,
    request: CiVerificationRequest,
    options: { trustedEvents?: string[] },
  ): Promise<{ record: ReceiptRecord; created: boolean }>;
  findReceipt(tenant: string, externalId: string): Promise<ReceiptRecord | undefined>;
}
