import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { cliFixture } from '../helpers/cli.js';
import { ed25519Pem, isPostgres, testConfig } from '../helpers/context.js';
import { SAMPLE_LISTS_DIR } from '../helpers/ron.js';

/** `receipts demo` tells the whole story against a real service, with or without one running. */
const { store, env, cli, cleanup, dataDir } = cliFixture({
  SIGNING_KEY: ed25519Pem(),
  SCREENING_LISTS_DIR: SAMPLE_LISTS_DIR,
});
afterAll(cleanup);

function expectStory(out: string, dir: string): void {
  expect(out).toMatch(/== ALLOW[\s\S]*-> ALLOW \(clean\), reasons: \[\]/);
  expect(out).toMatch(/== FLAG[\s\S]*-> FLAG \(compliance_gap\), reasons: \["seal_unverifiable"\]/);
  expect(out).toMatch(/== BLOCK[\s\S]*-> BLOCK \(failure\), reasons: \["seal_claim_mismatch"\]/);
  // the ALLOW receipt is re-verified once the log is sealed, so its proof is never a race
  expect(out).toMatch(
    /-> ANCHORED at log index \d+ of \d+\n\n== Re-verify it later[^\n]*\n[^\n]*\n {3}-> verified true, signature verified, proof true, revoked false/,
  );
  // the FLAG receipt is the one revoked; the ALLOW receipt stays active
  const flag = /-> FLAG [^\n]*\n {6}receiptId (\S+)/.exec(out)?.[1];
  const allow = /-> ALLOW [^\n]*\n {6}receiptId (\S+)/.exec(out)?.[1];
  expect(flag).toBeTruthy();
  expect(out).toContain(`--receipt ${flag ?? '?'} `);
  expect(out).not.toContain(`--receipt ${allow ?? '?'} `);
  expect(out).toContain('-> REVOKED by demo-escrow');
  expect(out).toMatch(
    /== Re-verify the FLAG receipt after revocation\n[^\n]*\n {3}-> verified false, signature verified, proof true, revoked true/,
  );
  expect(out).toContain('curl -s -X POST $URL/api/v1/verify -H "x-api-key: $KEY"');
  // it ends with the relying party's offline check of the ALLOW PDF it made, with the scoped
  // verifier a user without a clone runs
  expect(out).toMatch(
    /== Verify the ALLOW PDF offline[^\n]*\n {3}\$ curl -s \$URL\/.well-known\/jwks.json -o \S+ && npx @verification-receipts\/verify \S+receipt-\S+\.pdf --jwks \S+ --offline --artifact \S+\n {3}-> VERIFIED OFFLINE: genuine receipt, decision ALLOW: the checks passed; [^\n]*, exit 0/,
  );
  expect(out).toContain(`receipt-${allow ?? '?'}.pdf --jwks`);
  for (const file of ['api-key.txt', 'notary.pem', 'issuer.pem', 'sample-deed.pdf', 'jwks.json']) {
    expect(fs.existsSync(path.join(dir, file)), file).toBe(true);
  }
  const pdfs = fs.readdirSync(dir).filter((f) => f.startsWith('receipt-'));
  expect(
    fs
      .readFileSync(path.join(dir, pdfs[0] ?? ''))
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
}

describe('receipts demo', () => {
  it('without a server: starts one, tells the story, stops it', async () => {
    const dir = path.join(dataDir, 'demo-a');
    const run = await cli('demo', '--dir', dir, '--url', 'http://127.0.0.1:9');
    expect(run.code, run.err + run.out).toBe(0);
    expect(run.out).toContain('starting one for the demo');
    expectStory(run.out, dir);
  }, 120_000);

  it.runIf(!isPostgres())(
    'with the server running on the embedded store',
    async () => {
      const app = await buildApp({ config: testConfig(env, store), logger: false });
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const dir = path.join(dataDir, 'demo-b');
        const run = await cli('demo', '--dir', dir, '--url', address);
        expect(run.code, run.err + run.out).toBe(0);
        expect(run.out).not.toContain('starting one');
        expectStory(run.out, dir);
      } finally {
        await app.close();
      }
    },
    120_000,
  );
});
