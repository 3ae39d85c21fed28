import type { MadeReceiptPdf, ReceiptPdfMaker, ReceiptPdfState } from '../receipts/pdf-store.js';
import type { ReceiptRecord } from '../receipts/ports.js';
import { renderReceiptPdf } from './receipt-pdf.js';
import { receiptViewOf } from './receipt-view.js';
import type { PdfSigner } from './sign/index.js';
import { storedPdfMismatch } from './stored-pdf.js';

export interface SignedReceiptOptions {
  /** The service's absolute URL, printed in the PDF's links. */
  serviceUrl: string;
  issuerName: string | undefined;
  timeZone: string | undefined;
}

/**
 * The PDF signer's side of the signed PDF use case (`src/receipts/signed-pdf.ts`): the receipt
 * rendered with pdfkit, then PAdES-signed; kept bytes read back with the verifier package.
 */
export class SignedReceiptPdfMaker implements ReceiptPdfMaker {
  constructor(
    private readonly signer: PdfSigner,
    private readonly options: SignedReceiptOptions,
  ) {}

  get certificateFingerprint(): string {
    return this.signer.certificateFingerprint;
  }

  get timestamping(): boolean {
    return this.signer.timestamper !== undefined;
  }

  async make(record: ReceiptRecord, bundle: unknown): Promise<MadeReceiptPdf> {
    const { serviceUrl, issuerName, timeZone } = this.options;
    const rendered = await renderReceiptPdf(receiptViewOf(record, serviceUrl, bundle), {
      issuerName,
      timeZone,
    });
    const signed = await this.signer.sign(rendered);
    const stamped =
      !this.timestamping ||
      (signed.timestamped &&
        (this.signer.longTerm === undefined || (signed.archived === true && !signed.incomplete)));
    return { bytes: signed.pdf, stamped };
  }

  mismatch(
    pdf: Buffer,
    expected: { record: ReceiptRecord; state: ReceiptPdfState },
  ): Promise<string | undefined> {
    return storedPdfMismatch(pdf, { ...expected, certificate: this.certificateFingerprint });
  }

  archiveExpiry(pdf: Buffer): Promise<Date | undefined> {
    return this.signer.archiveExpiry(pdf);
  }
}
