import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { EvidenceHorizon } from '@verification-receipts/verify';
import { main } from '@verification-receipts/verify/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage } from '../../scripts/build-verify-page.mjs';
import {
  createTestContext,
  ed25519Pem,
  listenLocally,
  tempDir,
  type TestContext,
} from '../helpers/context.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { samplePdf } from '../helpers/requests.js';
import { notarialFixtures } from '../helpers/notarial-deeds.js';
import { issueSealed, registerNotary, type Decision, type Notary } from '../helpers/ron.js';
import { startTsa, type TestTsa } from '../helpers/tsa.js';
import {
  appendRevision,
  lastTrailer,
  objectBody,
  withEntry,
} from '../../packages/verify/test/pdf/incremental.js';
import { hostileFiles } from '../../packages/verify/test/bounds/hostile-files.js';

/**
 * The /verify page in real headless Chromium (Debian's chromium, driven by playwright-core): the
 * banner's verdict for each kind of receipt (ALLOW, FLAG, BLOCK, revoked, tampered), the status
 * checked without a click, a file that is not the receipt of the QR code, the document compared
 * with the receipt, the PDF's signature and the log's RFC 3161 time-stamps checked against the
 * authority the service pins, and the page's strict CSP (no violation reported). With
 * VERIFY_PAGE_SCREENSHOTS=docs the screenshots of the three verdicts land in docs/.
 */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = process.env.VERIFY_PAGE_SCREENSHOTS
  ? path.resolve(process.env.VERIFY_PAGE_SCREENSHOTS)
  : tempDir('verify-page-');
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it`);

let ctx: TestContext;
let key: string;
let notary: Notary;
let base: string;
let browser: Browser;
let tsa: TestTsa;
const dir = tempDir('verify-page-files-');
const issuerPem = ed25519Pem();
const deed = path.join(dir, 'deed.pdf');
const otherDocument = path.join(dir, 'other-deed.pdf');

beforeAll(async () => {
  if (!available) return;
  await buildVerifyPage();
  tsa = await startTsa(path.join(dir, 'tsa'));
  ctx = await createTestContext({ TSA_URLS: tsa.url, TSA_CERT_FILES: tsa.caFile });
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  notary = await registerNotary(ctx.repos);
  await registerIssuer(ctx.repos, issuerPem);
  base = await listenLocally(ctx.app);
  fs.writeFileSync(deed, samplePdf());
  fs.writeFileSync(otherDocument, samplePdf('another deed'));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
  await tsa?.close();
});

type Kind = Decision;

/** A sealed receipt whose checkpoint the authority has stamped. */
async function issue(kind: Kind = 'ALLOW') {
  const issued = await issueSealed(ctx, key, notary, kind);
  await ctx.app.services.timestamping?.checkpoints.idle();
  return issued;
}

/** The receipt's PDF, written to a file the page can be given. */
async function pdfOf(receiptId: string): Promise<string> {
  const pdf = await ctx.app.inject({
    url: `/api/v1/receipt/${receiptId}/pdf`,
    headers: { 'x-api-key': key },
  });
  const file = path.join(dir, `${receiptId}.pdf`);
  fs.writeFileSync(file, pdf.rawPayload);
  return file;
}

async function openPage(query = ''): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 480, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${base}/verify${query}`);
  return { page, problems };
}

/** Chooses the receipt file and waits for the verdict (the status is checked first). */
async function verdictFor(page: Page, file: string): Promise<string | null> {
  await page.setInputFiles('#file', file);
  await page.waitForSelector('#verdict[data-verdict]');
  return page.getAttribute('#verdict', 'data-verdict');
}

const stepsOf = (page: Page) =>
  page.$$eval('#steps li', (items) => items.map((i) => `${i.dataset.step}:${i.dataset.status}`));

/** A sentence of the banner's detail that starts lower-case after a full stop, if any. */
const lowerAfterStop = async (page: Page) =>
  ((await page.textContent('#verdict .verdict-detail')) ?? '').match(/[.!?]\s+[a-z]\S*/)?.[0];

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, name), fullPage: true });

describe.runIf(available)('the /verify page in Chromium', () => {
  it('accepts a clean, active ALLOW receipt, status checked without a click', async () => {
    const { receiptId } = await issue();
    const { page, problems } = await openPage();
    expect(await verdictFor(page, await pdfOf(receiptId))).toBe('accepted');
    expect(await page.textContent('#verdict')).toContain(
      'Genuine receipt: the checks passed and it is in force',
    );
    expect(await stepsOf(page)).toEqual([
      'format:PASS',
      'pdf-binding:PASS',
      'canonical-form:PASS',
      'receipt-hash:PASS',
      'key-id:PASS',
      'key-trust:PASS',
      'signature:PASS',
      'pdf-signature:PASS',
      'log-inclusion:PASS',
      'checkpoint:PASS',
      'witnesses:SKIP',
      'timestamps:PASS',
      'status-signature:PASS',
      'status:PASS',
      'status-age:PASS',
      'log-consistency:PASS',
    ]);
    expect(await page.textContent('#steps li[data-step="checkpoint"]')).toContain('pinned log');
    const time = await page.textContent('#steps li[data-step="timestamps"]');
    expect(time).toMatch(/the receipt existed by \d{4}-\d\d-\d\dT[\d:.]+Z \(Test TSA;/);
    expect(await page.getAttribute('#current-status', 'data-state')).toBe('active');
    // one plain sentence, the state said once
    expect(await page.textContent('#current-status')).toMatch(
      /^This receipt is active: not revoked as of \d{4}-\d\d-\d\dT\S+Z \(statement \d+ s old\)\.$/,
    );
    const facts = await page.textContent('#facts');
    expect(facts).toContain(receiptId);
    // the property in words, as the request gave it, never as JSON
    expect(facts).toContain('Subject property');
    expect(facts).toContain('parcel ID: R-100-200, county: Travis, state: TX');
    expect(facts).not.toMatch(/[{}"]/);
    // the re-check asks again and comes to the same verdict
    await page.click('#recheck');
    await page.waitForSelector('#verdict[data-verdict="accepted"]');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows until when the evidence holds and the algorithms it relies on, as receipt-verify --json does', async () => {
    const { receiptId } = await issue();
    const file = await pdfOf(receiptId);
    const { page, problems } = await openPage();
    expect(await verdictFor(page, file)).toBe('accepted');
    const jwks = path.join(dir, 'horizon-jwks.json');
    fs.writeFileSync(jwks, (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
    const out: string[] = [];
    const args = [file, '--jwks', jwks, '--tsa-cert', tsa.caFile, '--offline', '--json'];
    const code = await main(args, { out: (l) => out.push(l), err: (l) => out.push(l) });
    expect(code, out.join('\n')).toBe(0);
    const cli = (JSON.parse(out.join('\n')) as { evidence: EvidenceHorizon }).evidence;
    // the PDF signature (ECDSA P-256), the receipt and the checkpoint (Ed25519), the time-stamps
    // (the test authority's RSA key): the earliest end is the algorithms' published one
    expect(cli.until).toBe('2035-12-31T23:59:59.000Z');
    expect(await page.getAttribute('#evidence-until', 'data-until')).toBe(cli.until);
    expect(await page.textContent('#evidence-until')).toBe(
      `2035-12-31, the end of ${cli.limitedBy ?? ''}.`,
    );
    const shown = await page.$$eval('#evidence-algorithms li', (items) =>
      items.map((i) => ({ name: i.dataset.algorithm, text: i.textContent })),
    );
    expect(shown.map((a) => a.name).sort()).toEqual(cli.algorithms.map((a) => a.name).sort());
    expect(shown.map((a) => a.name)).toEqual(
      expect.arrayContaining(['Ed25519', 'ECDSA P-256', 'RSA']),
    );
    const rsa = shown.find((a) => a.name === 'RSA')?.text ?? '';
    expect(rsa).toMatch(
      /^RSA \(time-stamps\): until a cryptographically relevant quantum computer/,
    );
    expect(await page.textContent('#summary')).toContain('Evidence holds until');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('compares the document: the right one keeps the verdict, another rejects it', async () => {
    const { receiptId } = await issue();
    const { page, problems } = await openPage();
    expect(await verdictFor(page, await pdfOf(receiptId))).toBe('accepted');
    await page.setInputFiles('#artifact', deed);
    await page.waitForSelector('#steps li[data-step="artifact"][data-status="PASS"]');
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('accepted');
    expect(await page.textContent('#summary')).toContain('deed.pdf is the document');
    // the document's own signatures are listed under the verdict, without changing it: this
    // test deed has no cross-reference section, so they cannot be read
    expect(await page.textContent('#artifact-signatures')).toContain(
      "document deed.pdf: its signatures cannot be read (the PDF's revisions cannot be read",
    );
    await shoot(page, 'verify-page-accepted.png');
    await shoot(page, 'verify-page.png');
    await page.setInputFiles('#artifact', otherDocument);
    await page.waitForSelector('#steps li[data-step="artifact"][data-status="FAIL"]');
    expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('rejected');
    const banner = await page.textContent('#verdict');
    expect(banner).toContain('The document you gave is not the one this receipt is about');
    expect(banner).toContain('Failed step: artifact. The ');
    expect(await lowerAfterStop(page)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("lists a signed deed's own signatures under the verdict and never changes the verdict", async () => {
    const deeds = notarialFixtures();
    const hostile = hostileFiles()['deep-object.pdf'] as Uint8Array;
    const file = (name: string, bytes: Uint8Array) => {
      const written = path.join(dir, name);
      fs.writeFileSync(written, bytes);
      return written;
    };
    /** The page's verdict and signature list for a receipt about `deed` and that deed dropped. */
    const dropped = async (decision: Decision, deed: Uint8Array, name: string) => {
      const issued = await issueSealed(ctx, key, notary, decision, Buffer.from(deed));
      await ctx.app.services.timestamping?.checkpoints.idle();
      const { page, problems } = await openPage();
      const before = await verdictFor(page, await pdfOf(issued.receiptId));
      await page.setInputFiles('#artifact', file(name, deed));
      await page.waitForSelector('#steps li[data-step="artifact"][data-status="PASS"]');
      const listed = (await page.textContent('#artifact-signatures')) ?? '';
      const after = await page.getAttribute('#verdict', 'data-verdict');
      expect(problems).toEqual([]);
      await page.close();
      return { before, after, listed };
    };

    const signed = await dropped('ALLOW', deeds.signed, 'signed-deed.pdf');
    expect(signed).toMatchObject({ before: 'accepted', after: 'accepted' });
    expect(signed.listed).toContain(
      'document signed-deed.pdf: 1 signature(s), not judged here against any CA',
    );
    expect(signed.listed).toContain(
      'signed by "CN=Jane Q Public" issued by "CN=Test Notary Issuing CA", at ',
    );
    expect(signed.listed).toMatch(/at \d{4}-\d\d-\d\dT[\d:.]+Z \(\/M, only claimed\)/);
    expect(signed.listed).toContain('verifies; covers the whole document (revision 2 of 2)');

    // a deed whose signature is broken: said so, the receipt's verdict unchanged
    const broken = await dropped('ALLOW', deeds.tampered, 'tampered-deed.pdf');
    expect(broken).toMatchObject({ before: 'accepted', after: 'accepted' });
    expect(broken.listed).toContain('does not verify; covers the whole document (revision 2 of 2)');

    // a hostile deed: read within the verifier's bounds, said unreadable, the verdict unchanged
    const unreadable = await dropped('ALLOW', hostile, 'hostile-deed.pdf');
    expect(unreadable).toMatchObject({ before: 'accepted', after: 'accepted' });
    expect(unreadable.listed).toMatch(/^document hostile-deed\.pdf: its signatures cannot be read/);

    // a valid signature in the deed cannot turn a rejected receipt green
    const blocked = await dropped('BLOCK', deeds.signed, 'signed-deed-2.pdf');
    expect(blocked).toMatchObject({ before: 'rejected', after: 'rejected' });
    expect(blocked.listed).toContain('verifies; covers the whole document (revision 2 of 2)');
  });

  it('says caution for a FLAG receipt, with its reason in words', async () => {
    const { receiptId } = await issue('FLAG');
    const { page, problems } = await openPage();
    expect(await verdictFor(page, await pdfOf(receiptId))).toBe('caution');
    expect(await page.textContent('#verdict')).toContain('the checks found gaps (FLAG)');
    const summary = await page.textContent('#summary');
    expect(summary).toContain("The notary's seal is in a form that cannot be checked");
    expect(summary).toContain('seal_unverifiable');
    await shoot(page, 'verify-page-caution.png');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('rejects a BLOCK receipt, though genuine', async () => {
    const { receiptId } = await issue('BLOCK');
    const { page, problems } = await openPage();
    expect(await verdictFor(page, await pdfOf(receiptId))).toBe('rejected');
    expect(await page.textContent('#verdict')).toContain('the checks failed (BLOCK)');
    expect(await page.textContent('#summary')).toContain('seal_claim_mismatch');
    expect(await page.getAttribute('#current-status', 'data-state')).toBe('active');
    await shoot(page, 'verify-page-rejected.png');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opened from the QR code of a revoked receipt, shows it revoked, then rejects its file', async () => {
    const { receiptId, receiptHash } = await issue();
    const file = await pdfOf(receiptId);
    await revokeVia(ctx.app, key, receiptId, issuerPem);
    const { page, problems } = await openPage(`?hash=${encodeURIComponent(receiptHash)}`);
    await page.waitForSelector('#status-summary[data-status]');
    expect(await page.getAttribute('#status-summary', 'data-status')).toBe('revoked');
    expect(await page.textContent('#status-summary')).toContain('by escrow-co');
    expect(await page.isVisible('#status-request-hint')).toBe(true);
    expect(await verdictFor(page, file)).toBe('rejected');
    // the file is chosen: the page no longer asks for it
    expect(await page.isVisible('#status-request-hint')).toBe(false);
    expect(await page.isVisible('#status-summary')).toBe(true);
    expect(await page.textContent('#verdict')).toContain('This receipt was revoked');
    expect(await page.textContent('#verdict')).toContain('by escrow-co');
    expect(await page.getAttribute('#current-status', 'data-state')).toBe('revoked');
    expect(await page.getAttribute('#steps li[data-step="status"]', 'data-status')).toBe('FAIL');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('rejects a file that is not the receipt the QR code points to', async () => {
    const scanned = await issue();
    const other = await issue();
    const { page, problems } = await openPage(`?hash=${encodeURIComponent(scanned.receiptHash)}`);
    await page.waitForSelector('#status-summary[data-status="active"]');
    expect(await verdictFor(page, await pdfOf(other.receiptId))).toBe('rejected');
    expect(await page.getAttribute('#verdict', 'data-qr-mismatch')).toBe('true');
    expect(await page.textContent('#verdict')).toContain(
      'This file is not the receipt the QR code points to',
    );
    // the receipt itself is fine: only the page's comparison with the QR code rejects it
    expect(await page.$$eval('#steps li[data-status="FAIL"]', (items) => items.length)).toBe(0);
    await page.setInputFiles('#file', await pdfOf(scanned.receiptId));
    await page.waitForSelector('#verdict[data-verdict="accepted"]');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the status cannot be fetched: amber (caution), never green', async () => {
    const { receiptId } = await issue();
    const file = await pdfOf(receiptId);
    for (const fail of ['abort', 503] as const) {
      const { page, problems } = await openPage();
      await page.route('**/status/**', (route) =>
        fail === 'abort' ? route.abort() : route.fulfill({ status: 503, body: '{}' }),
      );
      expect(await verdictFor(page, file), String(fail)).toBe('caution');
      expect(await page.getAttribute('#current-status', 'data-state')).toBe('not-checked');
      expect(await page.textContent('#verdict')).toContain(
        'Genuine receipt, but its current status is not confirmed',
      );
      expect(await page.getAttribute('#steps li[data-step="status"]', 'data-status')).toBe('WARN');
      // the browser reports the failed request itself; nothing else may go wrong
      expect(problems.filter((p) => !/status|Failed to load resource/.test(p))).toEqual([]);
      await page.close();
    }
  });

  it('rejects a tampered bundle, naming the failing step', async () => {
    const { receiptId } = await issue();
    const bundle = (
      await ctx.app.inject({
        url: `/api/v1/receipt/${receiptId}/bundle`,
        headers: { 'x-api-key': key },
      })
    ).json();
    const sig: string = bundle.receipt.receiptSignature.signature;
    bundle.receipt.receiptSignature.signature = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    const file = path.join(dir, 'tampered.json');
    fs.writeFileSync(file, JSON.stringify(bundle));
    const { page, problems } = await openPage();
    expect(await verdictFor(page, file)).toBe('rejected');
    expect(await page.textContent('#verdict')).toContain('Failed step: signature');
    expect(await lowerAfterStop(page)).toBeUndefined();
    expect(await page.getAttribute('#steps li[data-step="signature"]', 'data-status')).toBe('FAIL');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('rejects a signed PDF whose signature a later revision hides, naming the revision', async () => {
    const { receiptId } = await issue();
    const pdf = new Uint8Array(fs.readFileSync(await pdfOf(receiptId)));
    const root = Number(lastTrailer(pdf).root.split(' ')[0]);
    const forged = appendRevision(pdf, {
      objects: { [root]: withEntry(objectBody(pdf, root), 'AcroForm') },
    });
    const file = path.join(dir, 'hidden-signature.pdf');
    fs.writeFileSync(file, forged);
    const { page, problems } = await openPage();
    expect(await verdictFor(page, file)).toBe('rejected');
    expect(await page.textContent('#verdict')).toContain('Failed step: pdf-signature');
    expect(await page.textContent('#verdict')).toContain(
      'The PDF file was changed after it was signed: pages or attachments may have been added or altered',
    );
    const step = page.locator('#steps li[data-step="pdf-signature"]');
    expect(await step.getAttribute('data-status')).toBe('FAIL');
    expect(await step.textContent()).toContain('modified_after_signing');
    expect(await step.textContent()).toContain(`revision 3 of 3 (bytes ${pdf.length}-`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('ends every hostile file with a red "unreadable" verdict within 5 s, naming the bound', async () => {
    const files = hostileFiles();
    const bounds: Record<string, string> = {
      'deep-tj.pdf': "the PDF's page content nests arrays more than 8 deep",
      'open-arrays.pdf': "the PDF's page content nests arrays more than 8 deep",
      'deep-object.pdf': 'a PDF object nests deeper than 32 levels',
      'deep-bundle.json': 'the bundle nests deeper than 64 levels',
    };
    for (const [name, bound] of Object.entries(bounds)) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, files[name] as Uint8Array);
      const { page, problems } = await openPage();
      const start = Date.now();
      await page.setInputFiles('#file', file);
      await page.waitForSelector('#verdict[data-verdict]', { timeout: 5_000 });
      expect(Date.now() - start).toBeLessThan(5_000);
      expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('rejected');
      const banner = await page.textContent('#verdict');
      expect(banner).toContain('This file is not a receipt this page can read');
      // the bound, as a sentence of its own after the failed step's name
      expect(banner).toContain(`Failed step: format. ${bound[0]?.toUpperCase()}${bound.slice(1)}`);
      expect(await lowerAfterStop(page)).toBeUndefined();
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
