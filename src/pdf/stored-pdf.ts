import { readBundle } from '@verification-receipts/verify';
import { canonicalJson } from '../receipts/canonical.js';
import type { ReceiptPdfState } from '../receipts/pdf-store.js';
import type { ReceiptRecord } from '../receipts/ports.js';

/**
 * Stored PDF bytes are served only when they are the PDF the service signed for this receipt in
 * this state, read the way any holder reads them (the verifier package): a PAdES signature over
 * the whole file with the service's PDF certificate, whose key is outside the store; the
 * attached bundle's receipt exactly the stored receipt; and the state it shows the state asked
 * for (the receipt's log position once anchored, the REVOKED banner exactly when revoked). The bytes of another
 * receipt's PDF, of an earlier state, or edited in SQL are named here, never served.
 */
export async function storedPdfMismatch(
  pdf: Buffer,
  expected: { record: ReceiptRecord; state: ReceiptPdfState; certificate: string },
): Promise<string | undefined> {
  const read = await readBundle(pdf);
  if (!read.ok) return `not a PDF receipt (${read.reason})`;
  if (read.from !== 'pdf') return 'not a PDF receipt';
  const signature = read.signature;
  if (!signature?.present) return 'the PDF is not signed';
  if (!signature.ok) return `its signature does not verify (${signature.reason})`;
  if (signature.certificate !== expected.certificate) {
    return `signed with certificate ${signature.certificate}, not the service's PDF certificate`;
  }
  return bundleMismatch(read.bundle, expected) ?? stateMismatch(read.printed?.text ?? '', expected);
}

function bundleMismatch(
  bundle: unknown,
  expected: { record: ReceiptRecord; state: ReceiptPdfState },
): string | undefined {
  const attached = bundle as { receipt?: unknown; logEntry?: { logIndex?: unknown } } | null;
  if (typeof attached !== 'object' || attached === null) return 'its attached bundle is not one';
  if (!sameJson(attached.receipt, expected.record.receipt)) {
    return 'its attached receipt is not the stored receipt';
  }
  if (expected.state === 'anchored') {
    const { leafIndex } = expected.record.anchor;
    if (attached.logEntry?.logIndex !== leafIndex) {
      return `its bundle does not place the receipt at log index ${String(leafIndex)}`;
    }
  }
  return undefined;
}

/** The REVOKED banner is printed exactly on the PDF of a revoked receipt (src/pdf/sections.ts). */
function stateMismatch(printed: string, expected: { state: ReceiptPdfState }): string | undefined {
  const banner = /\bREVOKED\b/.test(printed);
  if (expected.state === 'revoked' && !banner) return 'it does not show the receipt as revoked';
  if (expected.state !== 'revoked' && banner) return 'it shows the receipt as revoked';
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    // a value with no JSON form (absent, too deep) is not the stored receipt
    return false;
  }
}
