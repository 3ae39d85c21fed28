import type { CheckOutcome } from '../types.js';
import type { RonCheckContext } from './context.js';
import { fail, judged, pass } from './outcome.js';

const CHECK_ID = 'doc.hash';
const PDF_HEADER = /^%PDF-\d\.\d/;
/** ISO 32000 readers look for the end-of-file marker within the last 1024 bytes. */
const EOF_WINDOW_BYTES = 1024;
const EOF_MARKER = '%%EOF';

/**
 * `doc.hash`: recomputes sha256 over the supplied document bytes, compares it with the declared
 * `doc.docHash`, and confirms the bytes are a PDF (`%PDF-x.y` header at byte 0, `%%EOF` within
 * the last 1024 bytes). Without bytes the declared hash cannot be confirmed.
 */
export function checkDocumentHash(ctx: RonCheckContext): CheckOutcome {
  const { document, docHash, profile } = ctx;
  if (document === undefined) {
    return judged(
      CHECK_ID,
      profile.requireDocument ? 'FAIL' : 'WARN',
      'document_not_provided',
      `no document bytes (doc.pdfBase64) supplied; declared ${docHash} could not be recomputed`,
    );
  }
  const actual = document.digest;
  const size = `${document.bytes.length} supplied bytes`;
  if (actual !== docHash) {
    return fail(
      CHECK_ID,
      'doc_hash_mismatch',
      `sha256 of the ${size} is ${actual}; declared ${docHash}`,
    );
  }
  const problem = pdfProblem(document.bytes);
  if (problem !== undefined) {
    const text = `hash matches ${docHash} but the ${size} are not a PDF: no ${problem}`;
    return fail(CHECK_ID, 'document_not_pdf', text);
  }
  return pass(
    CHECK_ID,
    `sha256 of the ${size} matches declared ${docHash}; %PDF- header and %%EOF marker present`,
  );
}

/** What is missing for `bytes` to look like a PDF file, or undefined when nothing is. */
function pdfProblem(bytes: Buffer): string | undefined {
  if (!PDF_HEADER.test(bytes.subarray(0, 8).toString('latin1'))) return '%PDF-x.y header at byte 0';
  const tail = bytes.subarray(Math.max(0, bytes.length - EOF_WINDOW_BYTES)).toString('latin1');
  return tail.includes(EOF_MARKER) ? undefined : '%%EOF in the last 1024 bytes';
}
