import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { reasonText } from '@verification-receipts/verify/internals';
import { PDF_TEXT_MAX_CHARS, PDF_TEXT_MAX_LINES } from '../../src/pdf/text.js';
import { renderReceiptPdf } from '../../src/pdf/receipt-pdf.js';
import type { ReceiptView } from '../../src/receipts/types.js';
import {
  blockedView,
  cleanView,
  COMMITMENT,
  DIGEST,
  HASH,
  KID,
  LONG_DETAILS,
  manyChecksView,
  revokedView,
  SIGNATURE,
} from './fixtures.js';

interface Line {
  str: string;
  /** Baseline height above the bottom edge of the page, in points. */
  y: number;
}

interface Extracted {
  pages: Line[][];
  text: string;
  /** All text with every whitespace removed: long values that wrapped are still findable. */
  compact: string;
  title: unknown;
}

const GENERATED_AT = new Date('2025-03-14T15:12:00.000Z');
const DISCLAIMER_START = 'This receipt records verification signals';
/** Footer baselines sit below this height; body text never does (bottom margin is 72 pt). */
const FOOTER_BAND = 66;

const strip = (s: string): string => s.replace(/\s+/g, '');

async function extract(pdf: Buffer): Promise<Extracted> {
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const pages: Line[][] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const content = await (await doc.getPage(n)).getTextContent();
    const lines: Line[] = [];
    for (const item of content.items) {
      if ('str' in item && item.str.trim() !== '')
        lines.push({ str: item.str, y: item.transform[5] });
    }
    pages.push(lines);
  }
  const meta = await doc.getMetadata();
  await doc.destroy();
  const text = pages.flatMap((lines) => lines.map((l) => l.str)).join('\n');
  const title = (meta.info as Record<string, unknown>)['Title'];
  return { pages, text, compact: strip(text), title };
}

async function render(view: ReceiptView): Promise<{ pdf: Buffer; out: Extracted }> {
  const pdf = await renderReceiptPdf(view, { generatedAt: GENERATED_AT });
  return { pdf, out: await extract(pdf) };
}

const TABLE_HEADER = new Set(['CHECK', 'STATUS', 'DETAILS (CHECKS CONTINUED)']);

/** Compact body text (no footers, no repeated table headers, no `skip` strings). */
function bodyText(out: Extracted, skip: string[]): string {
  const lines = out.pages.flatMap((page) => page.filter((l) => l.y >= FOOTER_BAND));
  const kept = lines.filter((l) => !TABLE_HEADER.has(l.str) && !skip.includes(l.str));
  return strip(kept.map((l) => l.str).join(''));
}

function expectFooters(out: Extracted, receiptId: string): void {
  const count = out.pages.length;
  out.pages.forEach((lines, i) => {
    const footer = lines.filter((l) => l.y < FOOTER_BAND).map((l) => l.str);
    expect(footer).toContain(`Page ${i + 1} of ${count}`);
    expect(footer).toContain(`Receipt ${receiptId}`);
    expect(footer.some((s) => s.startsWith(DISCLAIMER_START))).toBe(true);
    // Nothing from the body runs into the footer band.
    expect(footer).toHaveLength(3);
  });
}

describe('renderReceiptPdf', () => {
  it('renders an ALLOW / clean receipt with integrity, anchor and re-verify sections', async () => {
    const view = cleanView();
    const { pdf, out } = await render(view);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(out.title).toBe(`Verification Receipt ${view.receipt.receiptId}`);
    expect(out.text).toContain('Verification Receipt');
    expect(out.text).toContain(view.receipt.receiptId);
    // plain words on the first page, the machine identifiers on the technical page after it
    const first = out.pages[0]?.map((l) => l.str).join('\n') ?? '';
    expect(first).toContain('Verification passed');
    expect(first).toContain(`Verification receipt service at ${view.serviceUrl}`);
    expect(first).not.toContain('clean');
    expect(strip(first)).not.toContain(HASH);
    expect(first).not.toContain(KID);
    expect(out.pages[1]?.[0]?.str).toBe('Technical details');
    expect(out.text).toContain('ALLOW');
    expect(out.text).not.toContain('REVOKED');
    expect(out.text).toContain('ron-standard-v2');
    for (const check of view.receipt.checks) expect(out.text).toContain(check.checkId);
    expect(out.text).toContain('PASS');
    for (const value of [HASH, COMMITMENT, KID, SIGNATURE, DIGEST, view.verifyUrl]) {
      expect(out.compact).toContain(strip(value));
    }
    expect(out.text).toContain('ANCHORED');
    expect(out.text).toContain('41872');
    expect(out.text).toContain('41900');
    expect(out.compact).toContain(strip(`curl -X POST -H "x-api-key: $KEY"`));
    expect(out.text).toContain('/.well-known/jwks.json');
    expect(out.text).toContain('RFC 8785');
    expect(out.text).toContain('BND-2025-000417');
    expect(out.text).toContain('Travis');
    expectFooters(out, view.receipt.receiptId);
  });

  it('renders a BLOCK / failure receipt with FAIL checks, reasons and no signature', async () => {
    const view = blockedView();
    const { out } = await render(view);
    expect(out.text).toContain('Verification failed');
    expect(out.text).toContain('BLOCK');
    // each reason in words on the first page, its label on the technical page
    const first = strip(out.pages[0]?.map((l) => l.str).join('') ?? '');
    for (const reason of view.receipt.reasons) expect(first).toContain(strip(reasonText(reason)));
    expect(out.text).not.toContain('REVOKED');
    expect(out.text).toContain('ci-release-gate');
    for (const status of ['FAIL', 'WARN', 'PASS']) expect(out.text).toContain(status);
    for (const check of view.receipt.checks) expect(out.text).toContain(check.checkId);
    for (const reason of view.receipt.reasons) expect(out.text).toContain(reason);
    expect(out.text).toContain('unsigned (legacy)');
    expect(out.text).toContain('acme/payments-service');
    expect(out.text).toContain('9fceb02d0ae598e95dc970b74767f19372d61af8');
    expect(out.text).toContain('PENDING');
    expect(out.compact).toContain(strip(`"${view.apiVerifyUrl}"`));
    expect(out.compact).toContain(strip(view.verifyUrl));
    // the printed verifier command pins the issuing service
    const file = `receipt-${view.receipt.receiptId}.pdf`;
    const online = `npx @verification-receipts/verify ${file} --online http://localhost:3000`;
    const unwrapped = out.compact.replaceAll('\\', '');
    expect(unwrapped).toContain(strip(online));
    expect(unwrapped).toContain(strip(`${file} --jwks jwks.json --offline`));
    expect(out.compact).toContain(HASH);
    expectFooters(out, view.receipt.receiptId);
  });

  it('marks a revoked receipt REVOKED, with when, by whom and not to rely on it', async () => {
    const view = revokedView();
    const { out } = await render(view);
    expect(out.text).toContain('REVOKED');
    expect(out.text).toContain('revoked');
    expect(out.text).toContain('2025-04-01T09:30:00.000Z');
    expect(out.text).toContain('issuer-acme-legal');
    expect(out.compact).toContain(strip('must not be relied on'));
    expect(out.compact).toContain(KID);
    expectFooters(out, view.receipt.receiptId);
  });

  it('breaks 60 checks and a 2,000-character detail over pages without hitting the footer', async () => {
    const view = manyChecksView();
    const { out } = await render(view);
    expect(out.pages.length).toBeGreaterThan(1);
    expect(out.text).toContain('Needs review');
    expect(out.text).toContain('FLAG');
    for (const check of view.receipt.checks) expect(out.text).toContain(check.checkId);
    const lastCheckPage = out.pages.findIndex((lines) => lines.some((l) => l.str === 'check_60'));
    expect(lastCheckPage).toBeGreaterThan(0);
    expect(out.pages.at(-1)?.map((l) => l.str)).toContain('WITH AN API KEY');
    // Details over the drawing limit are cut with a visible marker.
    const shown = LONG_DETAILS.slice(0, PDF_TEXT_MAX_CHARS);
    const hidden = LONG_DETAILS.length - PDF_TEXT_MAX_CHARS;
    const body = bodyText(out, ['check_11 (continued)']);
    expect(body).toContain(strip(`${shown} [... ${hidden} more characters not shown]`));
    expectFooters(out, view.receipt.receiptId);
  });

  it('cuts a value over the drawing limit (characters or lines) with a visible marker', async () => {
    const spaced = Array.from({ length: 800 }, (_, i) => `w${i}`).join(' ');
    const unbroken = 'A'.repeat(6_000);
    const lines = 'a\n'.repeat(1_000);
    const view = manyChecksView();
    view.receipt.checks = [
      { checkId: 'huge.spaced', status: 'WARN', details: spaced },
      { checkId: 'huge.unbroken', status: 'FAIL', details: unbroken },
      { checkId: 'huge.lines', status: 'FAIL', details: lines },
      { checkId: 'after', status: 'PASS' },
    ];
    const { out } = await render(view);
    const marker = (n: number) => strip(`[... ${n} more characters not shown]`);
    const body = bodyText(out, ['huge.spaced (continued)', 'huge.unbroken (continued)']);
    expect(body).toContain(
      strip(spaced.slice(0, PDF_TEXT_MAX_CHARS)) + marker(spaced.length - PDF_TEXT_MAX_CHARS),
    );
    expect(body).toContain(
      unbroken.slice(0, PDF_TEXT_MAX_CHARS) + marker(unbroken.length - PDF_TEXT_MAX_CHARS),
    );
    const keptLines = 2 * PDF_TEXT_MAX_LINES - 1;
    expect(body).toContain('a'.repeat(PDF_TEXT_MAX_LINES) + marker(lines.length - keptLines));
    expect(out.text).toContain('after');
    expectFooters(out, view.receipt.receiptId);
  });

  it('renders megabyte values (one long token, millions of lines) in bounded time', async () => {
    const view = blockedView();
    if (view.receipt.subject.kind !== 'ci-workflow-run') throw new Error('fixture changed');
    view.receipt.subject.summary = 'x'.repeat(14 * 1024 * 1024);
    view.receipt.subject.headSha = 'a\n'.repeat(4 * 1024 * 1024);
    const { out } = await render(view);
    expect(out.text).toContain('more characters not shown');
    expect(out.pages.length).toBeLessThan(4);
    expectFooters(out, view.receipt.receiptId);
  });

  it('lets a subject value at the drawing limit flow without overlapping the footer', async () => {
    const view = blockedView();
    const summary = Array.from({ length: 900 }, (_, i) => `part${i}`).join(' ');
    if (view.receipt.subject.kind === 'ci-workflow-run') view.receipt.subject.summary = summary;
    const { out } = await render(view);
    expect(bodyText(out, [])).toContain(strip(summary.slice(0, PDF_TEXT_MAX_CHARS)));
    expect(out.text).toContain('How to check this receipt');
    expectFooters(out, view.receipt.receiptId);
  });

  it('names the issuer and shows times in the local zone with UTC beside', async () => {
    const view = cleanView();
    const pdf = await renderReceiptPdf(view, {
      generatedAt: GENERATED_AT,
      issuerName: 'Lone Star Title & Escrow',
      timeZone: 'America/Chicago',
    });
    const out = await extract(pdf);
    expect(out.pages[0]?.[0]?.str).toBe('Lone Star Title & Escrow');
    expect(out.text).toContain(
      `PDF made 14 March 2025 at 10:12 (America/Chicago); 2025-03-14 15:12:00 UTC`,
    );
    const created = new Date(view.receipt.createdAt).toISOString().slice(0, 19).replace('T', ' ');
    expect(out.text).toMatch(new RegExp(`\\(America/Chicago\\); ${created} UTC`));
  });

  it('is reproducible for the same view and generatedAt', async () => {
    const view = cleanView();
    const a = await renderReceiptPdf(view, { generatedAt: GENERATED_AT });
    const b = await renderReceiptPdf(view, { generatedAt: GENERATED_AT });
    expect(a.equals(b)).toBe(true);
  });
});
