import type { VerificationRequest } from '../../contract/verification.js';
import type { SuppliedDocument } from '../commitment.js';
import type { DocumentEvidence } from '../notarial/evidence.js';
import type { PolicyProfile } from '../policy.js';
import type { ScreeningLists } from '../../screening/lists.js';
import type { CheckOutcome, NotaryRecord } from '../types.js';

/** Everything a RON check may look at. The caller assembles it; checks never do I/O beyond it. */
export interface RonCheckContext {
  request: VerificationRequest;
  /** `doc.docHash` normalised to `sha256:<64 lowercase hex>`. */
  docHash: string;
  /** Decoded `doc.pdfBase64` and its digest, or undefined when the caller sent no document. */
  document: SuppliedDocument | undefined;
  /** The tenant's registry record for `request.ron.notaryId`, undefined when not registered. */
  notary: NotaryRecord | undefined;
  screening: ScreeningLists;
  /** The service clock at issuance; checks never read the clock themselves. */
  now: Date;
  profile: PolicyProfile;
  /**
   * The document's own signatures, read and judged once, for a profile that runs
   * `doc.signatures` and a request that sent the document; undefined otherwise.
   */
  documentEvidence?: DocumentEvidence | undefined;
}

/** One RON check. */
export type RonCheck = (ctx: RonCheckContext) => CheckOutcome | Promise<CheckOutcome>;
