import type { DeploymentGates } from '../receipts/deployment-gates/gates.js';
import type { ReceiptService } from '../receipts/service.js';

/** What the Probot handlers need from the service, wired in plugin.ts. */
export interface ReceiptsAppDeps {
  appId: number;
  publicUrl: string | undefined;
  /** The service's trusted events (CI_TRUSTED_EVENTS or the documented default list). */
  defaultTrustedEvents: readonly string[];
  /** The receipt use cases: the same issuance path as POST /api/v1/verifications/ci. */
  receipts: Pick<ReceiptService, 'issueCi' | 'findByExternalId' | 'assertIntact'>;
  /** The deployment gate's use cases: the domain decides, the handlers answer GitHub. */
  gates: Pick<DeploymentGates, 'request' | 'sweep' | 'startSweeper'>;
}
