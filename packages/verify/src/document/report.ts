import {
  readDocumentSignatures,
  type DocumentSignatures,
  type DocumentSignature,
} from '../pdf/document-signatures.js';
import { nameText } from '../timestamp/names.js';

/**
 * The signatures of the document a receipt is about (a notarised deed), for the person who relies
 * on the receipt: who signed, when (and what says so), whether each signature verifies and covers
 * the whole document or what was added after it. Shown under the receipt's verdict; it does not
 * change that verdict or the exit code. No trust anchor is applied here: the service's
 * `doc.signatures` check judged the signers against the tenant's notary anchors, and the
 * receipt's reasons say how that went.
 */
export interface SignatureLine {
  index: number;
  kind: DocumentSignature['kind'];
  /** The signer's certificate subject, when the signature verified. */
  signer: string | undefined;
  issuer: string | undefined;
  /** ISO time and its source, when the signature carries one. */
  time: string | undefined;
  /** `whole` when it covers the whole file; else what follows it, or why it is not valid. */
  covers: 'whole' | 'part' | 'none';
  verifies: boolean;
  detail: string;
}

export function documentSignatureReport(read: DocumentSignatures): SignatureLine[] {
  if (!read.ok) return [];
  return read.signatures.map((s) => {
    const cms = s.cms;
    const problem = s.invalid ?? s.modified;
    const time = cms?.signingTime
      ? `${cms.signingTime.toISOString()} (signed signingTime, the signer's claim)`
      : s.claimedTime
        ? `${s.claimedTime.toISOString()} (/M, only claimed)`
        : undefined;
    const c = s.coverage;
    const covers = c === undefined ? 'none' : c.wholeFile ? 'whole' : 'part';
    const coverage =
      c === undefined
        ? 'covers no whole revision'
        : c.wholeFile
          ? `covers the whole document (revision ${c.revision} of ${read.revisions})`
          : `covers revision ${c.revision} of ${read.revisions}; after it ${s.additions.join(', ') || 'nothing'}`;
    return {
      index: s.index,
      kind: s.kind,
      signer: cms ? nameText(cms.signer.subject) : undefined,
      issuer: cms ? nameText(cms.signer.issuer) : undefined,
      time,
      covers,
      verifies: problem === undefined && (cms !== undefined || s.kind === 'document time-stamp'),
      detail: problem ? `${coverage}; NOT VALID: ${problem}` : coverage,
    };
  });
}

/** The report as lines of text (the command line's, under the verdict). */
export function documentSignatureText(read: DocumentSignatures, name: string): string[] {
  if (!read.ok) return [`document ${name}: its signatures cannot be read (${read.reason})`];
  const lines = documentSignatureReport(read);
  if (lines.length === 0) return [`document ${name}: no digital signature`];
  const out = [`document ${name}: ${lines.length} signature(s), not judged here against any CA`];
  for (const l of lines) {
    const who =
      l.kind === 'document time-stamp'
        ? 'document time-stamp'
        : `signed by "${l.signer ?? 'unverified signer'}"`;
    const issuer = l.issuer ? ` issued by "${l.issuer}"` : '';
    const when = l.time ? `, at ${l.time}` : '';
    out.push(`  ${l.index}. ${who}${issuer}${when}`);
    out.push(`     ${l.verifies ? 'verifies' : 'does not verify'}; ${l.detail}`);
  }
  return out;
}

/**
 * The largest document whose signatures are read. One bound for the service's `doc.signatures`,
 * `receipt-verify --artifact` and the /verify page, so all three read the same deeds; above the
 * decoded size of the service's default request body limit (15 MiB of base64).
 */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/**
 * The report of a document's signatures, as the command line prints it under the verdict and
 * the /verify page lists it: nothing for a file that is not a PDF, one line saying so for one
 * larger than MAX_DOCUMENT_BYTES (of which `bytes` may hold only the start, `size` saying how
 * large it is) or one whose reading fails, whatever its bytes.
 */
export async function documentSignatureLines(
  bytes: Uint8Array,
  name: string,
  size = bytes.length,
): Promise<string[]> {
  if (String.fromCharCode(...bytes.subarray(0, 5)) !== '%PDF-') return [];
  if (size > MAX_DOCUMENT_BYTES || bytes.length > MAX_DOCUMENT_BYTES) {
    const mib = MAX_DOCUMENT_BYTES / (1024 * 1024);
    return [`document ${name}: its signatures are not read: it is larger than ${mib} MiB`];
  }
  try {
    return documentSignatureText(await readDocumentSignatures(bytes), name);
  } catch {
    return [`document ${name}: its signatures cannot be read`];
  }
}
