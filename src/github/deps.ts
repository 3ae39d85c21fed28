import type { DeploymentGateStore } from '../receipts/ports.js';
import type { ReceiptService } from '../receipts/service.js';
import type { Signer } from '../receipts/signer.js';

/** What the Probot handlers need from the service, wired in plugin.ts. */
export interface ReceiptsAppDeps {
  appId: number;
  publicUrl: string | undefined;
  /** The service's trusted events (CI_TRUSTED_EVENTS or the documented default list). */
  defaultTrustedEvents: readonly string[];
  /** The receipt use cases: the same issuance path as POST /api/v1/verifications/ci. */
  receipts: Pick<ReceiptService, 'issueCi' | 'findByExternalId' | 'assertIntact' | 'gateReceipts'>;
  /** Gated deployments, pending and decided. */
  gates: DeploymentGateStore;
  /** Signs deployment decision records; undefined when SIGNING_DISABLED. */
  signer: Signer | undefined;
}
