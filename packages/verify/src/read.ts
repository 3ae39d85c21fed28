import { isPdf, readPdfReceipt } from './pdf/attachment.js';

/**
 * A verifier's input: a bundle (JSON) or a PDF receipt carrying one. For a PDF, `printed` is the
 * text on its pages, one line per text line: the verifier checks that the receipt printed there
 * is the attached one.
 */
export type EvidenceRead =
  | { ok: true; bundle: unknown; from: 'bundle' | 'pdf'; printed?: { text: string } }
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
  return read.ok ? { ...read, printed: pdf.printed } : read;
}

function parseJson(json: Uint8Array, from: 'bundle' | 'pdf', notJson: string): EvidenceRead {
  if (json.length > MAX_BUNDLE_BYTES) return { ok: false, reason: 'bundle larger than 5 MiB' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(json);
    return { ok: true, bundle: JSON.parse(text), from };
  } catch {
    return { ok: false, reason: notJson };
  }
}
