import { certificateFingerprint } from '@verification-receipts/verify/internals';
import type { PdfCredentials } from './credentials.js';
import { archive, archiveExpiry, certificatesOfCms } from './long-term.js';
import type { RevocationSource } from './revocation.js';
import { signPdf, type SignatureTimestamper, type SignedPdf } from './pades.js';

export {
  loadPdfCredentials,
  pemOf,
  type PdfCredentials,
  type PdfSigningFiles,
} from './credentials.js';
export type { SignatureTimestamper, SignedPdf } from './pades.js';
export type { CrlFetcher, RevocationFinding, RevocationSource } from './revocation.js';

/** Signs rendered PDF receipts with the service's PDF credentials (PAdES B-B, or B-T with a TSA). */
export class PdfSigner {
  private loaded: PdfCredentials | undefined;

  constructor(
    /** Loads (or makes, at first start) the key and certificate; called once, when first needed. */
    private readonly load: () => PdfCredentials,
    /** Set when time-stamp authorities are configured: signatures are then B-T. */
    readonly timestamper?: SignatureTimestamper,
    /**
     * Set for PAdES B-LTA (PDF_LONG_TERM): the authorities' certificates (TSA_CERT_FILES) go into
     * the DSS beside the signature's with their issuers' CRLs (`revocation`), then a document
     * time-stamp covers it.
     */
    readonly longTerm?: { tsaCertificates: readonly Uint8Array[]; revocation?: RevocationSource },
  ) {}

  private get credentials(): PdfCredentials {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /** The certificate chain, PEM, as published at /.well-known/pdf-signing-cert.pem. */
  get certificatePem(): string {
    return this.credentials.certificatePem;
  }

  /** `sha256:<hex>` of the signing certificate's DER, as the receipt key endorses it. */
  get certificateFingerprint(): string {
    const [certificate] = this.credentials.chain;
    if (!certificate) throw new Error('a PDF signature needs its signing certificate');
    return certificateFingerprint(certificate);
  }

  /** Whether this start made the key and self-issued certificate. */
  get generated(): boolean {
    return this.credentials.generated;
  }

  /** When a B-LTA PDF's newest archive time-stamp stops being relied on (undefined: not B-LTA). */
  async archiveExpiry(pdf: Buffer): Promise<Date | undefined> {
    return this.longTerm ? archiveExpiry(pdf, this.longTerm.tsaCertificates) : undefined;
  }

  async sign(pdf: Buffer, signingTime?: Date): Promise<SignedPdf> {
    const signed = await signPdf(pdf, this.credentials, {
      ...(signingTime ? { signingTime } : {}),
      timestamper: this.timestamper,
    });
    if (!this.longTerm || !this.timestamper || !signed.timestampToken) return signed;
    const material = {
      certificates: [
        ...this.credentials.chain,
        ...certificatesOfCms(signed.timestampToken),
        ...this.longTerm.tsaCertificates,
      ],
    };
    const archived = await archive(
      signed.pdf,
      material,
      this.timestamper,
      this.longTerm.revocation,
    );
    if (!archived.pdf) return signed;
    const gaps = archived.revocation.some((f) => f.outcome === 'unavailable');
    return { ...signed, pdf: archived.pdf, archived: true, ...(gaps ? { incomplete: true } : {}) };
  }
}
