import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage } from '../../scripts/build-verify-page.mjs';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import {
  createTestContext,
  ed25519Pem,
  listenLocally,
  tempDir,
  type TestContext,
} from '../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';

/**
 * The /verify page in real headless Chromium (Debian's chromium, driven by playwright-core):
 * a PDF receipt verifies, a tampered bundle shows the failing step, `?hash=` of a revoked
 * receipt shows it revoked, and the page's strict CSP holds (no violation reported).
 */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = process.env.VERIFY_PAGE_SCREENSHOTS ?? tempDir('verify-page-');
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it`);

let ctx: TestContext;
let key: string;
let notary: Notary;
let base: string;
let browser: Browser;
const dir = tempDir('verify-page-files-');
const issuerPem = ed25519Pem();

beforeAll(async () => {
  if (!available) return;
  await buildVerifyPage();
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  notary = await registerNotary(ctx.repos);
  await registerIssuer(ctx.repos, issuerPem);
  base = await listenLocally(ctx.app);
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
});

async function issue(): Promise<{ receiptId: string; receiptHash: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary),
  });
  await ctx.app.services.anchoring.sealAll();
  return res.json();
}

async function openPage(query = ''): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${base}/verify${query}`);
  return { page, problems };
}

describe.runIf(available)('the /verify page in Chromium', () => {
  it('verifies a PDF receipt dropped on it, every step shown', async () => {
    const { receiptId } = await issue();
    const pdf = await ctx.app.inject({
      url: `/api/v1/receipt/${receiptId}/pdf`,
      headers: { 'x-api-key': key },
    });
    const file = path.join(dir, 'receipt.pdf');
    fs.writeFileSync(file, pdf.rawPayload);
    const { page, problems } = await openPage();
    await page.setInputFiles('#file', file);
    await page.waitForSelector('#verdict[data-verified]');
    expect(await page.getAttribute('#verdict', 'data-verified')).toBe('true');
    const steps = await page.$$eval('#steps li', (items) =>
      items.map((i) => `${i.dataset.step}:${i.dataset.status}`),
    );
    expect(steps).toEqual([
      'format:PASS',
      'canonical-form:PASS',
      'receipt-hash:PASS',
      'key-id:PASS',
      'key-trust:PASS',
      'signature:PASS',
      'log-inclusion:PASS',
      'checkpoint:PASS',
    ]);
    expect(await page.textContent('#facts')).toContain(receiptId);
    // only on request: the public status
    await page.click('#check-status');
    await page.waitForSelector('#online-steps li[data-step="status"]');
    expect(await page.getAttribute('#online-steps li[data-step="status"]', 'data-status')).toBe(
      'PASS',
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, 'verify-page.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the failing step of a tampered bundle', async () => {
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
    await page.setInputFiles('#file', file);
    await page.waitForSelector('#verdict[data-verified]');
    expect(await page.getAttribute('#verdict', 'data-verified')).toBe('false');
    expect(await page.textContent('#verdict')).toContain('the signature step failed');
    expect(await page.getAttribute('#steps li[data-step="signature"]', 'data-status')).toBe('FAIL');
    await page.screenshot({
      path: path.join(SCREENSHOTS, 'verify-page-tampered.png'),
      fullPage: true,
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('opened from the QR code of a revoked receipt (?hash=), says it is revoked', async () => {
    const { receiptId, receiptHash } = await issue();
    await revokeVia(ctx.app, key, receiptId, issuerPem);
    const { page, problems } = await openPage(`?hash=${encodeURIComponent(receiptHash)}`);
    await page.waitForSelector('#status-summary[data-status]');
    expect(await page.getAttribute('#status-summary', 'data-status')).toBe('revoked');
    expect(await page.textContent('#status-summary')).toContain('by issuer escrow-co');
    await page.screenshot({
      path: path.join(SCREENSHOTS, 'verify-page-revoked.png'),
      fullPage: true,
    });
    expect(problems).toEqual([]);
    await page.close();
  });
});
