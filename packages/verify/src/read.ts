import { isPdf, readPdfReceipt } from './pdf/attachment.js';
import { checkPdfRevisions } from './pdf/revision-check.js';
import type { PdfSignature } from './pdf/signature.js';
import { MAX_JSON_DEPTH, parseJsonBounded } from './json.js';

/**
 * A verifier's input: a bundle (JSON) or a PDF receipt carrying one. For a PDF, `printed` is the
 * text on its pages, one line per text line: the verifier checks that the receipt printed there
 * is the attached one, and `signature` its PAdES signature, checked (pdf/signature.ts).
 */
export type EvidenceRead =
  | {
      ok: true;
      bundle: unknown;
      from: 'bundle' | 'pdf';
      printed?: { text: string };
      signature?: PdfSignature;
    }
  | { ok: false; reason: string };

/** Largest bundle read (bytes, decoded): a real one is a few KiB. */
export const MAX_BUNDLE_BYTES = 5 * 1024 * 1024;

export async function readBundle(bytes: Uint8Array): Promise<EvidenceRead> {
  if (!isPdf(bytes)) {
    return parseJson(bytes, 'bundle', 'neither a PDF receipt nor a JSON bundle');
  }
  const pdf = await readPdfReceipt(bytes, MAX_BUNDLE_BYTES);
  if (!pdf.ok) return pdf;
  const read = parseJson(pdf.bundle, 'pdf', 'the attached receipt-bundle.json is not JSON');
  if (!read.ok) return read;
  const signature = await checkPdfRevisions(bytes);
  return { ...read, printed: pdf.printed, signature };
}

function parseJson(json: Uint8Array, from: 'bundle' | 'pdf', notJson: string): EvidenceRead {
  if (json.length > MAX_BUNDLE_BYTES) return { ok: false, reason: 'bundle larger than 5 MiB' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(json);
  } catch {
    return { ok: false, reason: notJson };
  }
  const parsed = parseJsonBounded(text);
  if (parsed.ok) return { ok: true, bundle: parsed.value, from };
  return parsed.reason === 'not JSON'
    ? { ok: false, reason: notJson }
    : { ok: false, reason: `the bundle nests deeper than ${MAX_JSON_DEPTH} levels` };
}
