import { bundleFromPdf, isPdf } from './pdf-attachment.js';

/** A verifier's input: a bundle (JSON) or a PDF receipt carrying one. */
export type EvidenceRead =
  { ok: true; bundle: unknown; from: 'bundle' | 'pdf' } | { ok: false; reason: string };

/** Largest bundle read (bytes): a real one is a few KiB. */
export const MAX_BUNDLE_BYTES = 5 * 1024 * 1024;

export async function readEvidence(bytes: Uint8Array): Promise<EvidenceRead> {
  let json = bytes;
  let from: 'bundle' | 'pdf' = 'bundle';
  if (isPdf(bytes)) {
    const attachment = await bundleFromPdf(bytes);
    if (!attachment.ok) return attachment;
    json = attachment.bytes;
    from = 'pdf';
  }
  if (json.length > MAX_BUNDLE_BYTES) return { ok: false, reason: 'bundle larger than 5 MiB' };
  try {
    return {
      ok: true,
      bundle: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json)),
      from,
    };
  } catch {
    return { ok: false, reason: 'neither a PDF receipt nor a JSON bundle' };
  }
}
