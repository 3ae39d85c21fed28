import fs from 'node:fs';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyPage } from '../../scripts/build-verify-page.mjs';
import { buildApp } from '../../src/app.js';
import { githubAppState, landingLines, serviceLinks } from '../../src/http/routes/landing.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import {
  closeStore,
  createTestContext,
  listenLocally,
  testConfig,
  type TestContext,
} from '../helpers/context.js';
import { ciRequest } from './hostile/requests.js';

/**
 * GET / in real Chromium: a styled page saying what the service is, with the links a newcomer
 * needs (each one answers), under a CSP nothing on the page violates; a JSON index for
 * `Accept: application/json`. The GitHub App's setup page, styled alike, says when GitHub
 * cannot reach the webhook address and what to set instead.
 */
const CHROMIUM = '/usr/bin/chromium';
const available = fs.existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs it`);

let ctx: TestContext;
let base: string;
let browser: Browser;

beforeAll(async () => {
  await buildVerifyPage();
  ctx = await createTestContext();
  base = await listenLocally(ctx.app);
  if (!available) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

async function open(url: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return { page, problems };
}

describe.runIf(available)('the landing page in Chromium', () => {
  it('says what the service is and links to every entry point, styled like /verify', async () => {
    const { page, problems } = await open(`${base}/`);
    expect(await page.title()).toBe('Verification receipt service');
    expect(await page.textContent('h1')).toBe('Verification receipt service');
    expect(await page.textContent('.lead')).toMatch(/signed, canonical receipts/);
    const hrefs = await page.$$eval('a', (as) => as.map((a) => a.getAttribute('href')));
    for (const href of [
      '/verify',
      '/docs',
      '/openapi.json',
      '/.well-known/jwks.json',
      '/log/checkpoint',
      '/log/policy',
    ]) {
      expect(hrefs).toContain(href);
    }
    // the verify page's stylesheet applies (main is 46rem wide at most)
    expect(await page.$eval('main', (m) => getComputedStyle(m).maxWidth)).toBe('736px');
    // the App is not configured here: the page says where its setup link is, not the link
    const github = await page.textContent('#github + p');
    expect(github).toMatch(
      /Not configured\. Open the \/probot setup link printed in the service log/,
    );
    expect(await page.content()).not.toMatch(/setup=/);
    expect(problems).toEqual([]);
    // and its links lead somewhere: the verify page opens from it
    await page.click('a[href="/verify"] >> nth=0');
    await page.waitForSelector('#file', { state: 'attached' });
    await page.close();
  });
});

describe('GET / for programs', () => {
  it('answers a JSON index for Accept: application/json, HTML otherwise', async () => {
    const json = await ctx.app.inject({ url: '/', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(200);
    expect(json.headers.vary).toContain('accept');
    const index = json.json() as { links: { rel: string; href: string }[]; githubApp: object };
    expect(index.links.map((l) => l.rel)).toEqual([
      'verify-page',
      'docs',
      'openapi',
      'jwks',
      'log-checkpoint',
      'log-policy',
    ]);
    expect(index.githubApp).toMatchObject({ configured: false });
    await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
    await ctx.app.services.anchoring.sealAll(); // a checkpoint to link to
    for (const link of index.links) {
      const res = await ctx.app.inject({ url: link.href });
      expect([200, 302], link.href).toContain(res.statusCode);
    }
    const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const html = await ctx.app.inject({ url: '/', headers: { accept: browserAccept } });
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await ctx.app.inject({ url: '/' })).headers['content-type']).toMatch(/^text\/html/);
  });

  it('the start-up summary ends with the same links', () => {
    const lines = landingLines(ctx.config, 'http://localhost:3000');
    for (const link of serviceLinks(ctx.config)) {
      expect(
        lines.some(
          (l) => l.includes(`http://localhost:3000${link.href}`) && l.endsWith(link.title),
        ),
      ).toBe(true);
    }
    expect(lines[0]).toBe('  open       http://localhost:3000/ (these links, as a page)');
  });

  it('names the App state in a sentence, whatever it is', () => {
    expect(githubAppState({ ...ctx.config, workers: 4 }).setup).toMatch(/WORKERS=1/);
    expect(githubAppState({ ...ctx.config, github: { appId: '1', webhookSecret: 's' } })).toEqual({
      configured: true,
    });
  });
});

/** An app without GitHub credentials, its log captured for the one-time setup link. */
async function setupApp(env: Record<string, string>) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const config = testConfig(env);
  const db: Database = await openDatabase(config.store);
  const app: FastifyInstance = await buildApp({ config, db, logger: { level: 'info', stream } });
  await app.ready();
  const link = new URL(lines.find((l) => typeof l.setup === 'string')?.setup as string);
  const close = async () => {
    await app.close();
    await closeStore(db, config.store);
  };
  return { app, path: `${link.pathname}${link.search}`, close };
}

describe('the GitHub App setup page', () => {
  it.runIf(available)(
    'is styled like /verify and says GitHub cannot reach a localhost webhook',
    async () => {
      const setup = await setupApp({});
      try {
        const url = await listenLocally(setup.app);
        const { page, problems } = await open(`${url}${setup.path}`);
        expect(await page.$eval('main', (m) => getComputedStyle(m).maxWidth)).toBe('736px');
        const alert = (await page.textContent('[role=alert]')) ?? '';
        expect(alert).toContain(`GitHub cannot reach ${url}/api/github/webhooks.`);
        expect(alert).toMatch(
          /set PUBLIC_URL to the address the internet reaches this\s+service at/,
        );
        expect(alert).toMatch(/set\s+WEBHOOK_PROXY_URL to a smee\.io channel: a public relay/);
        expect(await page.isVisible('button[type=submit]')).toBe(true);
        expect(problems).toEqual([]);
        await page.close();
      } finally {
        await setup.close();
      }
    },
  );

  it('says where webhooks go with a public URL, or with the proxy', async () => {
    const direct = await setupApp({ PUBLIC_URL: 'https://receipts.example.com' });
    try {
      const body = (await direct.app.inject({ url: direct.path })).body;
      expect(body).toContain(
        'GitHub will deliver webhooks to <code>https://receipts.example.com/api/github/webhooks</code>.',
      );
      expect(body).not.toContain('cannot reach');
    } finally {
      await direct.close();
    }
    const proxied = await setupApp({ WEBHOOK_PROXY_URL: 'https://smee.io/abc123' });
    try {
      const body = (await proxied.app.inject({ url: proxied.path })).body;
      expect(body).toContain('GitHub will deliver webhooks to <code>https://smee.io/abc123</code>');
      expect(body).not.toContain('cannot reach');
    } finally {
      await proxied.close();
    }
  });
});
