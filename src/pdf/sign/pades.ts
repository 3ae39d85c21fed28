import { createHash } from 'node:crypto';
import { parseCertificate } from '@verification-receipts/verify/internals';
import { signAttributes, signedAttributes, signedData, type SigningCredentials } from './cms.js';
import { appendSignatureField, type Prepared } from './incremental.js';

/**
 * Signs a finished PDF as PAdES baseline B-B (ETSI EN 319 142-1), or B-T when a time-stamp
 * authority answers: the CMS detached signature covers every byte of the file but its own
 * /Contents, so the pages and the attached receipt bundle are both covered.
 */

/** A time-stamp authority for the signature value (RFC 3161; PAdES B-T). */
export interface SignatureTimestamper {
  /** A checked token over `data` (its SHA-256 is the message imprint), or undefined. */
  stamp(data: Buffer): Promise<Buffer | undefined>;
}

export interface PdfSignOptions {
  /** The claimed signing time, written as the signature dictionary's /M (default: now). */
  signingTime?: Date;
  timestamper?: SignatureTimestamper | undefined;
}

export interface SignedPdf {
  pdf: Buffer;
  /** The signature carries a signature time-stamp token (B-T). */
  timestamped: boolean;
  /** That token (DER), for the validation material of B-LT. */
  timestampToken?: Buffer;
  /** A DSS and a document time-stamp follow the signature (B-LTA). */
  archived?: boolean;
  /**
   * A CRL an authority publishes for one of the file's certificates could not be had: the DSS
   * lacks it, so the file is served but not kept (the next request makes it again).
   */
  incomplete?: boolean;
}

/** Room for the SignedData besides its certificates: attributes, signature, structure. */
const BASE_RESERVE = 2048;
/** First guess of a token's size (a TSA's token with its certificate is 2 to 6 KiB). */
const TOKEN_RESERVE = 8192;

export async function signPdf(
  pdf: Buffer,
  credentials: SigningCredentials,
  options: PdfSignOptions = {},
): Promise<SignedPdf> {
  const [certificate] = credentials.chain;
  if (!certificate) throw new Error('a PDF signature needs its signing certificate');
  const signerName = parseCertificate(certificate).commonName ?? 'PDF receipts';
  const chainBytes = credentials.chain.reduce((n, c) => n + c.length, 0);
  let capacity = BASE_RESERVE + chainBytes + (options.timestamper ? TOKEN_RESERVE : 0);
  // a token larger than guessed: sign again once with room for what it needed
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const prepared = await appendSignatureField(pdf, {
      capacity,
      signingTime: options.signingTime ?? new Date(),
      signerName,
    });
    const attributes = signedAttributes(digestOf(prepared), certificate);
    const signature = signAttributes(credentials, attributes);
    const timestampToken = await options.timestamper?.stamp(signature);
    const cms = signedData({ credentials, attributes, signature, timestampToken });
    if (cms.length <= capacity) {
      prepared.pdf.write(cms.toString('hex'), prepared.contentsOffset + 1, 'latin1');
      return {
        pdf: prepared.pdf,
        timestamped: timestampToken !== undefined,
        ...(timestampToken ? { timestampToken } : {}),
      };
    }
    capacity = cms.length + 1024;
  }
  throw new Error('the PDF signature did not fit its placeholder');
}

function digestOf(prepared: Prepared): Buffer {
  const [a, b, c, d] = prepared.byteRange;
  return createHash('sha256')
    .update(prepared.pdf.subarray(a, a + b))
    .update(prepared.pdf.subarray(c, c + d))
    .digest();
}
