import { step, type Step } from '../steps.js';

/**
 * A PDF receipt's printed page and its attached bundle must be about the same receipt: the page
 * text must show the bundle's receipt id and receipt hash. A bundle of another receipt attached
 * to a PDF is refused, although that bundle alone would verify.
 */
export function pdfBinding(
  printed: { text: string } | undefined,
  receipt: Record<string, unknown>,
): Step {
  if (!printed) return step('pdf-binding', 'FAIL', 'the PDF page text could not be read');
  const id = String(receipt.receiptId ?? '');
  const hash = String(receipt.receiptHash ?? '');
  const missing = [
    ...(id && printed.text.includes(id) ? [] : [`receipt id ${id || '(none)'}`]),
    ...(hash && printed.text.includes(hash) ? [] : [`receipt hash ${hash || '(none)'}`]),
  ];
  return missing.length === 0
    ? step('pdf-binding', 'PASS', 'the printed page names the attached receipt (its id and hash)')
    : step(
        'pdf-binding',
        'FAIL',
        `the printed page does not show the attached bundle's ${missing.join(' and ')}: the attachment belongs to another receipt`,
      );
}
