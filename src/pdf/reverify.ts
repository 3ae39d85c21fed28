// How to check the receipt again: the verify page's QR code and the independent verifier's commands.
import { verifyCommand } from '../contract/links.js';
import type { ReceiptView } from '../receipts/types.js';
import {
  COLOR,
  contentWidth,
  FONT,
  heading,
  left,
  monoBlock,
  paragraph,
  type Doc,
} from './layout.js';
import { printable } from './text.js';
import { drawQr } from './qr.js';

const isAbsolute = (url: string): boolean => /^https?:\/\//i.test(url);

/** Shell command for later verification; a relative URL is prefixed with $BASE_URL. */
export function curlCommand(verifyUrl: string): string {
  const url = isAbsolute(verifyUrl) ? verifyUrl : `$BASE_URL${verifyUrl}`;
  return `curl -X POST -H "x-api-key: $KEY" "${url}"`;
}

const REVERIFY_INTRO =
  'Scan the code or open the verify page: drop this PDF on it and your browser checks the ' +
  'receipt (nothing is uploaded), then shows its current status. This PDF carries its evidence ' +
  'as the attached file receipt-bundle.json, so it can also be checked with the independent ' +
  "verifier (no account, no API key), pinned to this service's published keys: the commands " +
  'are on the technical page.';

const HASH_NOTE =
  'By hand: the canonical receipt (RFC 8785 JSON of the stored receipt without receiptHash and ' +
  'receiptSignature) hashes with SHA-256 to the receipt hash above.';

const KEYS_NOTE =
  ' The Ed25519 signature covers those same bytes; public keys are published as a JWK Set at ' +
  '/.well-known/jwks.json (no API key needed): use the key whose kid matches the one above.';

const UNSIGNED_NOTE = ' This receipt is unsigned (legacy), so only its hash can be checked.';

/** How anyone checks it: the QR code and the verify page, in words (first page). */
export function drawReverify(doc: Doc, view: ReceiptView): void {
  const qrSize = 96;
  heading(doc, 'How to check this receipt', qrSize + 20);
  const x = left(doc);
  const width = contentWidth(doc);
  const y = doc.y + 2;
  const qrX = x + width - qrSize;
  drawQr(doc, view.verifyUrl, qrX, y, qrSize);
  doc.font(FONT.regular).fontSize(7).fillColor(COLOR.muted);
  doc.text('Scan: verify page', qrX, y + qrSize + 2, { width: qrSize, align: 'center' });
  const column = { x, width: width - qrSize - 24 };
  doc.y = y;
  paragraph(doc, REVERIFY_INTRO, column);
  doc.font(FONT.bold).fontSize(7.5).fillColor(COLOR.muted);
  doc.text('VERIFY PAGE', x, doc.y, { width: column.width });
  doc.font(FONT.mono).fontSize(8.5).fillColor(COLOR.text);
  doc.text(printable(view.verifyUrl), x, doc.y + 1, { width: column.width });
  doc.y = Math.max(doc.y, y + qrSize + 14);
  doc.x = x;
}

/** The commands that check it, and how the hash and signature can be checked by hand. */
export function drawCommands(doc: Doc, view: ReceiptView): void {
  heading(doc, 'Check it with the command line', 90);
  const signed = view.receipt.receiptSignature !== undefined;
  paragraph(doc, HASH_NOTE + (signed ? KEYS_NOTE : UNSIGNED_NOTE), {}, 8.5);
  const file = `receipt-${view.receipt.receiptId}.pdf`;
  monoBlock(doc, 'Verify (keys, status, log)', verifyCommand(file, view.serviceUrl), {
    shell: true,
  });
  monoBlock(doc, 'Offline, keys saved earlier', verifyCommand(file, view.serviceUrl, 'jwks'), {
    shell: true,
  });
  monoBlock(doc, 'With an API key', curlCommand(view.apiVerifyUrl), { shell: true });
}
