import type {
  AnchorState,
  CheckResult,
  Decision,
  ExternalReceiptStatus,
  ReceiptSignature,
} from '../contract/common.js';

/** The StoredReceipt of spec §2.5 as this service writes it (the signed document). */
export type StoredReceipt = {
  receiptVersion: string;
  receiptId: string;
  createdAt: string;
  policyProfile: string;
  inputsCommitment: string;
  /** What the receipt is about (extra field, committed by the hash like every other). */
  subject: ReceiptSubject;
  checks: CheckResult[];
  decision: Decision;
  reasons: string[];
  receiptHash: string;
  receiptSignature?: ReceiptSignature;
};

export type ReceiptSubject =
  | {
      kind: 'ron-document';
      bundleId: string;
      transactionType: string;
      docHash: string;
      notaryId: string;
      property: { parcelId: string; county: string; state: string };
    }
  | {
      kind: 'ci-workflow-run';
      externalId: string;
      headSha: string;
      repository: string;
      eventName: string;
      subjectKind: string;
      summary: string;
    };

/** A check's verdict. `reason` is the stable snake_case label, required unless status is PASS. */
export interface CheckOutcome {
  checkId: string;
  status: CheckResult['status'];
  details?: string;
  reason?: string;
}

/** A notary registered for a tenant with `receipts notaries add`. */
export interface NotaryRecord {
  tenant: string;
  notaryId: string;
  displayName: string;
  commissionState: string;
  /** Last day the commission is valid, YYYY-MM-DD (inclusive). */
  commissionExpires: string;
  /** SPKI PEM of the notary's P-256 public key (SIM-ECDSA-v1 seals). */
  publicKeyPem: string;
  /**
   * The notary's X.509 signing certificate (DER, base64), registered with `--certificate`: the
   * certificate `doc.signatures` pins by its SHA-256 when the tenant's policy says so.
   */
  certificateDer?: string | undefined;
}

export type RevocationStatus = 'ACTIVE' | 'REVOKED';

/** Everything a reader (API view, PDF) shows about one receipt. */
export interface ReceiptView {
  receipt: StoredReceipt;
  canonicalReceipt: string;
  status: ExternalReceiptStatus;
  revocation: { status: RevocationStatus; revokedAt?: string; issuerId?: string };
  anchor: AnchorState;
  /** The service's absolute base URL (PUBLIC_URL, else http://localhost:<PORT>). */
  serviceUrl: string;
  /** The public verify page for this receipt (`/verify?hash=`), absolute. */
  verifyUrl: string;
  /** POST .../verify of the API (needs a key with read scope), absolute. */
  apiVerifyUrl: string;
  /** The receipt bundle, attached to the PDF as receipt-bundle.json when present. */
  bundle?: unknown;
}
