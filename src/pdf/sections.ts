import type { ReceiptView } from '../receipts/types.js';
import {
  addressBlock,
  COLOR,
  contentWidth,
  type Doc,
  ensureSpace,
  FONT,
  heading,
  keyValue,
  left,
  localAndUtc,
  monoBlock,
  paragraph,
} from './layout.js';
import { printable } from './text.js';

const STATUS_COLOR: Record<ReceiptView['status'], string> = {
  clean: COLOR.green,
  compliance_gap: COLOR.amber,
  failure: COLOR.red,
  revoked: COLOR.red,
};

/** What each external status (spec §2.2) means, in words for people: a title and a sentence. */
const STATUS_TEXT: Record<ReceiptView['status'], [title: string, meaning: string]> = {
  clean: ['Verification passed', 'Every check passed (decision ALLOW) and it was not revoked.'],
  compliance_gap: [
    'Needs review',
    'The checks passed with gaps a person should look at (decision FLAG).',
  ],
  failure: ['Verification failed', 'At least one check failed (decision BLOCK).'],
  revoked: ['Revoked', 'Revoked after it was issued: do not rely on it.'],
};

/** How the PDF speaks of people's times and who issued it. */
export interface Presentation {
  /** ISSUER_NAME: printed first; without it, the service's address stands in. */
  issuerName?: string | undefined;
  /** The IANA zone local times are shown in; the UTC time is printed beside. */
  timeZone: string;
}

/** Who issued it, the title, the receipt id and when it was issued. */
export function drawHeader(
  doc: Doc,
  view: ReceiptView,
  generatedAt: Date,
  show: Presentation,
): void {
  const x = left(doc);
  const width = contentWidth(doc);
  const y = doc.y;
  const issuer = show.issuerName ?? `Verification receipt service at ${view.serviceUrl}`;
  doc.font(FONT.bold).fontSize(10.5).fillColor(COLOR.muted);
  doc.text(printable(issuer), x, y, { width: width - 170, lineBreak: false, ellipsis: true });
  doc.font(FONT.regular).fontSize(8).fillColor(COLOR.muted);
  doc.text(`PDF made ${localAndUtc(generatedAt.toISOString(), show.timeZone)}`, x, y + 2, {
    width,
    align: 'right',
  });
  doc.font(FONT.bold).fontSize(20).fillColor(COLOR.text);
  doc.text('Verification Receipt', x, y + 18, { lineBreak: false });
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.muted);
  doc.text('Receipt ID', x, y + 48);
  doc.font(FONT.mono).fontSize(10).fillColor(COLOR.text);
  doc.text(printable(view.receipt.receiptId), x + 56, y + 48.2, { width: width - 56 });
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.muted);
  doc.text('Issued', x, y + 62);
  doc.fillColor(COLOR.text);
  doc.text(printable(localAndUtc(view.receipt.createdAt, show.timeZone)), x + 56, y + 62, {
    width: width - 56,
  });
  doc.y = Math.max(doc.y, y + 74) + 8;
}

/** The coloured banner: what the receipt says, in plain words, with the decision beside. */
export function drawStatusBanner(doc: Doc, view: ReceiptView): void {
  const x = left(doc);
  const width = contentWidth(doc);
  const height = 54;
  ensureSpace(doc, height);
  const y = doc.y;
  const [title, meaning] = STATUS_TEXT[view.status];
  doc.roundedRect(x, y, width, height, 4).fill(STATUS_COLOR[view.status]);
  doc.font(FONT.bold).fontSize(18).fillColor(COLOR.white);
  doc.text(title, x + 16, y + 12, { lineBreak: false });
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.white);
  doc.text(`Decision ${view.receipt.decision}`, x + 16, y + 35, { lineBreak: false });
  doc.text(meaning, x + 250, y + 14, { width: width - 266 });
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

/** The receipt in plain words: under which policy, when, and whether it still stands. */
export function drawReceiptFacts(doc: Doc, view: ReceiptView, show: Presentation): void {
  heading(doc, 'This receipt');
  const { receipt, revocation } = view;
  keyValue(doc, 'Checked under', `the ${receipt.policyProfile} policy`, { bold: true });
  const revoked = revocation.status === 'REVOKED';
  const standing = revoked
    ? `Revoked${revocation.revokedAt ? ` on ${localAndUtc(revocation.revokedAt, show.timeZone)}` : ''}${revocation.issuerId ? ` by ${revocation.issuerId}` : ''}`
    : 'Not revoked when this PDF was made (the verify page shows the current status)';
  keyValue(doc, 'Still in force', standing, { color: revoked ? COLOR.red : COLOR.text });
}

/** `deed-transfer` as `Deed transfer`. */
const plainWords = (id: string): string =>
  id.charAt(0).toUpperCase() + id.slice(1).replaceAll('-', ' ').replaceAll('_', ' ');

/** What the receipt is about: a notarised document and its property, or a CI workflow run. */
export function drawSubject(doc: Doc, view: ReceiptView): void {
  heading(doc, 'What was checked');
  const subject = view.receipt.subject;
  if (subject.kind === 'ron-document') {
    const kind = plainWords(subject.transactionType);
    keyValue(doc, 'Document', `${kind}, notarised online (bundle ${subject.bundleId})`);
    keyValue(doc, 'Notary', `Commission ${subject.notaryId}`);
    const { parcelId, county, state } = subject.property;
    addressBlock(doc, 'Property', [`Parcel ${parcelId}`, `${county} County`, state]);
  } else {
    keyValue(doc, 'Workflow run', subject.summary);
    keyValue(doc, 'Repository', subject.repository);
    keyValue(doc, 'Run', subject.externalId);
    keyValue(doc, 'Triggered by', `the ${subject.eventName} event`);
  }
}

/**
 * The machine identifiers, on a page of their own: what a program or an auditor compares (the
 * subject's identifiers, hashes, signature, the log's formats), never needed to read the receipt.
 */
export function drawTechnicalIntro(doc: Doc, view: ReceiptView): void {
  doc.addPage();
  doc.font(FONT.bold).fontSize(16).fillColor(COLOR.text);
  doc.text('Technical details', left(doc), doc.y);
  doc.y += 4;
  paragraph(
    doc,
    'For software and auditors: the identifiers, hashes and signature the verifier checks, and ' +
      'where this receipt is in the transparency log.',
  );
  heading(doc, 'Identifiers');
  keyValue(doc, 'Receipt format', `version ${view.receipt.receiptVersion}`);
  keyValue(doc, 'Policy profile', view.receipt.policyProfile);
  const subject = view.receipt.subject;
  if (subject.kind === 'ron-document') {
    keyValue(doc, 'Transaction type', subject.transactionType);
    keyValue(doc, 'Document hash', subject.docHash, { mono: true });
  } else {
    keyValue(doc, 'Head commit', subject.headSha, { mono: true });
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
  ['subjectDigest', 'Leaf hash', true],
  ['subjectVersion', 'Leaf format', false],
  ['logIndex', 'Log index', false],
  ['treeSize', 'Tree size', false],
  ['rootHash', 'Root hash', true],
  ['note', 'Note', false],
];

/** Provenance (transparency log) state. */
export function drawAnchor(doc: Doc, view: ReceiptView): void {
  const anchor: Record<string, unknown> = view.anchor;
  const rows = ANCHOR_FIELDS.filter(([key]) => anchorValue(anchor[key]) !== undefined).length;
  heading(doc, 'Transparency log (anchor)', 17 * (rows + 1)); // one block when it fits a page
  keyValue(doc, 'Status', view.anchor.status, { bold: true });
  for (const [key, label, mono] of ANCHOR_FIELDS) {
    const value = anchorValue(anchor[key]);
    if (value !== undefined) keyValue(doc, label, value, { mono });
  }
}
