import type { ReceiptView } from '../receipts/types.js';
import {
  COLOR,
  contentWidth,
  type Doc,
  ensureSpace,
  FONT,
  heading,
  keyValue,
  left,
  monoBlock,
  paragraph,
  printable,
} from './layout.js';
import { drawQr } from './qr.js';

const STATUS_COLOR: Record<ReceiptView['status'], string> = {
  clean: COLOR.green,
  compliance_gap: COLOR.amber,
  failure: COLOR.red,
  revoked: COLOR.red,
};

/** Spec §2.2 meanings of the external status. */
const STATUS_MEANING: Record<ReceiptView['status'], string> = {
  clean: 'Verification passed (decision ALLOW, not revoked).',
  compliance_gap: 'Verification needs review (decision FLAG).',
  failure: 'Verification failed (decision BLOCK).',
  revoked: 'Receipt revoked after issuance.',
};

/** Title, rendering time and receipt id. */
export function drawHeader(doc: Doc, view: ReceiptView, generatedAt: Date): void {
  const x = left(doc);
  const width = contentWidth(doc);
  const y = doc.y;
  doc.font(FONT.bold).fontSize(20).fillColor(COLOR.text);
  doc.text('Verification Receipt', x, y, { lineBreak: false });
  doc.font(FONT.regular).fontSize(8).fillColor(COLOR.muted);
  const meta = `Receipt format ${printable(view.receipt.receiptVersion)}\nRendered ${generatedAt.toISOString()}`;
  doc.text(meta, x, y + 2, { width, align: 'right' });
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.muted);
  doc.text('Receipt ID', x, y + 30);
  doc.font(FONT.mono).fontSize(10).fillColor(COLOR.text);
  doc.text(printable(view.receipt.receiptId), x + 56, y + 30.2, { width: width - 56 });
  doc.y = Math.max(doc.y, y + 42) + 8;
}

/** The coloured status / decision banner. */
export function drawStatusBanner(doc: Doc, view: ReceiptView): void {
  const x = left(doc);
  const width = contentWidth(doc);
  const height = 54;
  ensureSpace(doc, height);
  const y = doc.y;
  doc.roundedRect(x, y, width, height, 4).fill(STATUS_COLOR[view.status]);
  const block = (bx: number, caption: string, value: string): void => {
    doc.font(FONT.bold).fontSize(7.5).fillColor(COLOR.white);
    doc.text(caption, bx, y + 10, { lineBreak: false });
    doc.fontSize(18).text(value, bx, y + 22, { lineBreak: false });
  };
  block(x + 16, 'STATUS', view.status);
  block(x + 190, 'DECISION', view.receipt.decision);
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.white);
  doc.text(STATUS_MEANING[view.status], x + 310, y + 14, { width: width - 326 });
  doc.y = y + height + 8;
}

/** The red REVOKED warning; drawn only for a revoked receipt. */
export function drawRevokedBanner(doc: Doc, view: ReceiptView): void {
  const x = left(doc);
  const width = contentWidth(doc);
  const { revokedAt, issuerId } = view.revocation;
  const facts = [
    revokedAt === undefined ? undefined : `Revoked at ${revokedAt}`,
    issuerId === undefined ? undefined : `by issuer ${issuerId}`,
  ].filter((part) => part !== undefined);
  const when = printable(
    facts.length > 0 ? `${facts.join(' ')}.` : 'Revocation time not recorded.',
  );
  const warning =
    'This receipt was revoked after issuance and must not be relied on. ' +
    'Its signals below are shown for the record only.';
  const textWidth = width - 32;
  doc.font(FONT.regular).fontSize(9.5);
  const height = 38 + doc.heightOfString(`${when}\n${warning}`, { width: textWidth, lineGap: 1 });
  ensureSpace(doc, height);
  const y = doc.y;
  doc.rect(x, y, width, height).fill(COLOR.redFill);
  doc.rect(x, y, 6, height).fill(COLOR.red);
  doc.rect(x, y, width, height).lineWidth(1.2).strokeColor(COLOR.red).stroke();
  doc
    .font(FONT.bold)
    .fontSize(16)
    .fillColor(COLOR.red)
    .text('REVOKED', x + 20, y + 10);
  doc.font(FONT.regular).fontSize(9.5).fillColor(COLOR.text);
  doc.text(when, x + 20, y + 30, { width: textWidth, lineGap: 1 });
  doc.font(FONT.bold).fillColor(COLOR.red).text(warning, { width: textWidth, lineGap: 1 });
  doc.y = y + height + 8;
  doc.x = x;
}

/** Receipt-level facts: policy, times, revocation. */
export function drawReceiptFacts(doc: Doc, view: ReceiptView): void {
  heading(doc, 'Receipt');
  const { receipt } = view;
  keyValue(doc, 'Policy profile', receipt.policyProfile, { bold: true });
  keyValue(doc, 'Created at', receipt.createdAt);
  keyValue(doc, 'Receipt version', receipt.receiptVersion);
  const revoked = view.revocation.status === 'REVOKED';
  keyValue(doc, 'Revocation', view.revocation.status, { color: revoked ? COLOR.red : COLOR.text });
}

/** What the receipt is about: a RON document or a CI workflow run. */
export function drawSubject(doc: Doc, view: ReceiptView): void {
  heading(doc, 'Subject');
  const subject = view.receipt.subject;
  if (subject.kind === 'ron-document') {
    keyValue(doc, 'Kind', 'Remote online notarization document');
    keyValue(doc, 'Bundle ID', subject.bundleId);
    keyValue(doc, 'Transaction type', subject.transactionType);
    keyValue(doc, 'Document hash', subject.docHash, { mono: true });
    keyValue(doc, 'Notary ID', subject.notaryId);
    const { parcelId, county, state } = subject.property;
    keyValue(doc, 'Property', `Parcel ${parcelId}, ${county} County, ${state}`);
  } else {
    keyValue(doc, 'Kind', 'CI workflow run');
    keyValue(doc, 'Summary', subject.summary);
    keyValue(doc, 'Repository', subject.repository);
    keyValue(doc, 'Run (external ID)', subject.externalId);
    keyValue(doc, 'Head commit', subject.headSha, { mono: true });
    keyValue(doc, 'Event', subject.eventName);
    keyValue(doc, 'Subject kind', subject.subjectKind);
  }
}

/** Hashes and signature, in full, in a monospace font. */
export function drawIntegrity(doc: Doc, view: ReceiptView): void {
  const { receipt } = view;
  // Keep the hashes and the signature on one page: about 30 pt per value.
  heading(doc, 'Integrity and signature', receipt.receiptSignature ? 150 : 90);
  monoBlock(doc, 'Inputs commitment (sha256 of the canonical request)', receipt.inputsCommitment);
  monoBlock(doc, 'Receipt hash (sha256 of the canonical receipt)', receipt.receiptHash);
  const signature = receipt.receiptSignature;
  if (signature === undefined) {
    monoBlock(doc, 'Signature', 'unsigned (legacy)');
    return;
  }
  monoBlock(doc, 'Signature algorithm', `${signature.alg} (Ed25519)`);
  monoBlock(doc, 'Signing key ID (kid, RFC 7638 JWK thumbprint)', signature.kid);
  monoBlock(doc, 'Signature (base64url)', signature.signature);
}

function anchorValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

const ANCHOR_FIELDS: ReadonlyArray<[key: string, label: string, mono: boolean]> = [
  ['anchoredAt', 'Anchored at', false],
  ['subjectDigest', 'Subject digest', true],
  ['subjectVersion', 'Subject version', false],
  ['logIndex', 'Log index', false],
  ['treeSize', 'Tree size', false],
  ['rootHash', 'Root hash', true],
  ['note', 'Note', false],
];

/** Provenance (transparency log) state. */
export function drawAnchor(doc: Doc, view: ReceiptView): void {
  const anchor: Record<string, unknown> = view.anchor;
  const rows = ANCHOR_FIELDS.filter(([key]) => anchorValue(anchor[key]) !== undefined).length;
  heading(doc, 'Anchor (provenance)', 17 * (rows + 1)); // one block when it fits a page
  keyValue(doc, 'Status', view.anchor.status, { bold: true });
  for (const [key, label, mono] of ANCHOR_FIELDS) {
    const value = anchorValue(anchor[key]);
    if (value !== undefined) keyValue(doc, label, value, { mono });
  }
}

const isAbsolute = (url: string): boolean => /^https?:\/\//i.test(url);

/** The relying party's verifier, pinned to the service: online, or to a saved copy of its keys. */
export function verifyCommand(
  file: string,
  serviceUrl: string,
  pin: 'online' | 'jwks' = 'online',
): string {
  const root = pin === 'online' ? `--online ${serviceUrl}` : '--jwks jwks.json';
  const saved =
    pin === 'jwks' ? `  # jwks.json: a saved copy of ${serviceUrl}/.well-known/jwks.json` : '';
  return `npx @verification-receipts/verify ${file} ${root}${saved}`;
}

/** Shell command for later verification; a relative URL is prefixed with $BASE_URL. */
export function curlCommand(verifyUrl: string): string {
  const url = isAbsolute(verifyUrl) ? verifyUrl : `$BASE_URL${verifyUrl}`;
  return `curl -X POST -H "x-api-key: $KEY" "${url}"`;
}

const REVERIFY_INTRO =
  'Scan the code or open the verify page: drop this PDF on it and your browser checks the ' +
  'receipt (nothing is uploaded), then shows its current status. This PDF carries its evidence ' +
  'as the attached file receipt-bundle.json, so it can also be checked with the independent ' +
  "verifier below (no account, no API key), pinned to this service's published keys.";

const HASH_NOTE =
  'By hand: the canonical receipt (RFC 8785 JSON of the stored receipt without receiptHash and ' +
  'receiptSignature) hashes with SHA-256 to the receipt hash above.';

const KEYS_NOTE =
  ' The Ed25519 signature covers those same bytes; public keys are published as a JWK Set at ' +
  '/.well-known/jwks.json (no API key needed): use the key whose kid matches the one above.';

const UNSIGNED_NOTE = ' This receipt is unsigned (legacy), so only its hash can be checked.';

/** Verify URL, curl example, QR code and where the public keys are. */
export function drawReverify(doc: Doc, view: ReceiptView): void {
  const qrSize = 96;
  heading(doc, 'How to re-verify', qrSize + 60);
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
  const signed = view.receipt.receiptSignature !== undefined;
  paragraph(doc, HASH_NOTE + (signed ? KEYS_NOTE : UNSIGNED_NOTE), column, 8.5);
  doc.y = Math.max(doc.y, y + qrSize + 14);
  monoBlock(doc, 'Verify page', view.verifyUrl);
  const file = `receipt-${view.receipt.receiptId}.pdf`;
  monoBlock(doc, 'Verify (keys, status, log)', verifyCommand(file, view.serviceUrl), {
    shell: true,
  });
  monoBlock(doc, 'Offline, keys saved earlier', verifyCommand(file, view.serviceUrl, 'jwks'), {
    shell: true,
  });
  monoBlock(doc, 'With an API key', curlCommand(view.apiVerifyUrl), { shell: true });
}
