import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_VERIFICATION_REQUEST } from '../src/contract/sample-request.js';
import { runCaptured } from './helpers/cli.js';
import { createTestContext, type TestContext } from './helpers/context.js';

/**
 * The committed samples (`npm run samples`, scripts/samples.ts) are true to the current code:
 * the sample PDF verifies offline with the current verifier (no time-dependent step: the status
 * is not asked), names a verify page that needs no key, and carries its bundle; the sample
 * request is the OpenAPI example of POST /api/v1/verify and the service accepts it.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const at = (file: string) => path.join(ROOT, file);
const deed = fs.readFileSync(at('docs/sample-deed.pdf'));

describe('docs/sample-receipt.pdf', () => {
  it('verifies offline with the current verifier: every step passes, the deed matches', async () => {
    const res = await runCaptured([
      'verify',
      at('docs/sample-receipt.pdf'),
      '--jwks',
      at('docs/examples/sample-jwks.json'),
      '--log-policy',
      at('docs/examples/sample-log.policy'),
      '--artifact',
      at('docs/sample-deed.pdf'),
      '--offline',
      '--json',
    ]);
    expect(res.code, res.out + res.err).toBe(0);
    const report = JSON.parse(res.out) as {
      authentic: boolean;
      decision: { decision: string };
      steps: { id: string; status: string }[];
    };
    expect(report.authentic).toBe(true);
    expect(report.decision.decision).toBe('ALLOW');
    const status = Object.fromEntries(report.steps.map((s) => [s.id, s.status]));
    expect(status).toMatchObject({
      'pdf-binding': 'PASS',
      signature: 'PASS',
      'key-trust': 'PASS',
      'log-inclusion': 'PASS',
      checkpoint: 'PASS',
      artifact: 'PASS',
    });
    expect(Object.values(status)).not.toContain('FAIL');
  });

  it("the README's command for it verifies it as the README says", async () => {
    const readme = fs.readFileSync(at('README.md'), 'utf8');
    const command = /`npx @verification-receipts\/verify (docs\/sample-receipt\.pdf [^`]+)`/.exec(
      readme,
    )?.[1];
    expect(command).toBeDefined();
    const args = ['verify', ...(command ?? '').split(' ')].map((a) =>
      a.startsWith('docs/') ? at(a) : a,
    );
    const res = await runCaptured(args);
    expect(res.code, res.err).toBe(0);
    expect(res.out.split('\n').at(-2)).toMatch(
      /^VERIFIED OFFLINE: genuine receipt, decision ALLOW: the checks passed; whether it was revoked since was not checked/,
    );
    expect(res.out.split('\n').at(-1)).toMatch(
      /^ {2}authentic, decision ALLOW; the current status was not checked/,
    );
    // and, as the README says, exit 3 without --offline
    expect((await runCaptured(args.filter((a) => a !== '--offline'))).code).toBe(3);
  });

  it('points its reader to the verify page (no key needed), not to an API endpoint', () => {
    const text = execFileSync(
      'pdftotext',
      ['-f', '1', '-l', '1', at('docs/sample-receipt.pdf'), '-'],
      {
        encoding: 'utf8',
      },
    ).replace(/\s+/g, '');
    expect(text).toMatch(
      /VERIFYPAGEhttps:\/\/receipts\.example\.com\/verify\?hash=sha256%3A[0-9a-f]{64}/,
    );
    expect(text).toContain('Verificationpassed');
  });
});

describe('the sample request (the OpenAPI example of POST /api/v1/verify)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx.close());

  it('is the request for docs/sample-deed.pdf, and the OpenAPI document offers it', async () => {
    const digest = createHash('sha256').update(deed).digest('hex');
    expect(SAMPLE_VERIFICATION_REQUEST.doc.docHash).toBe(`sha256:${digest}`);
    expect(SAMPLE_VERIFICATION_REQUEST.doc.pdfBase64).toBe(deed.toString('base64'));
    const doc = (await ctx.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        {
          post?: {
            summary?: string;
            requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
          };
        }
      >;
      components: { schemas: Record<string, { example?: unknown }> };
    };
    expect(doc.components.schemas.VerificationRequest?.example).toEqual(
      SAMPLE_VERIFICATION_REQUEST,
    );
    expect(doc.paths['/api/v1/verify']?.post?.summary).toMatch(/^Issue a receipt/);
    expect(doc.paths['/api/v1/receipt/{receiptId}/verify']?.post?.summary).toMatch(
      /^Re-check a stored receipt \(issues nothing\)/,
    );
  });

  it('is accepted as it is; with the sample notary registered it is an ALLOW', async () => {
    const key = await ctx.apiKey(['verify'], 'tenant-sample');
    const post = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/verify',
        headers: { 'x-api-key': key },
        payload: SAMPLE_VERIFICATION_REQUEST,
      });
    const unknownNotary = await post();
    expect(unknownNotary.statusCode, unknownNotary.body).toBe(200);
    expect(unknownNotary.json().reasons).toContain('notary_not_registered');
    await ctx.repos.notaries.upsert({
      tenant: 'tenant-sample',
      notaryId: 'N-1',
      displayName: 'Jane Q. Notary',
      commissionState: 'TX',
      commissionExpires: '2099-12-31',
      publicKeyPem: fs.readFileSync(at('docs/examples/sample-notary.pub.pem'), 'utf8'),
    });
    const allowed = await post();
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ decision: 'ALLOW', status: 'clean', reasons: [] });
  });

  it('is regenerated by npm run samples', () => {
    const pkg = JSON.parse(fs.readFileSync(at('package.json'), 'utf8'));
    expect(pkg.scripts.samples).toMatch(/scripts\/samples\.ts$/);
  });
});
