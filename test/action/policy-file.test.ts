import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, tempDir, type TestContext } from '../helpers/context.js';
import { leaks, runAction } from './harness.js';

/**
 * The action's `policy-file` input against a real running service: a `.github/receipts.yml` the
 * GitHub App would reject fails the step with one annotation per problem on the file, before any
 * receipt is requested; a valid one lets the step go on to its receipt.
 */

let ctx: TestContext;
let api: string;
let key: string;
let dir: string;

beforeAll(async () => {
  ctx = await createTestContext();
  api = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  key = await ctx.apiKey(['verify', 'read']);
  await ctx.repos.tenantPolicies.setCiRepositories('tenant-a', ['octo-org/*']);
  dir = tempDir('policy-file-');
});
afterAll(async () => {
  await ctx?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function policyFile(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function receiptCount(): Promise<number> {
  const res = await fetch(`${api}/api/v1/receipts?limit=200`, { headers: { 'x-api-key': key } });
  return ((await res.json()) as unknown[]).length;
}

describe('policy-file', () => {
  it('an invalid file: an annotation per problem, exit 1, no receipt requested', async () => {
    const file = policyFile('bad.yml', 'deployments:\n  production:\n    identity: sometimes\n');
    const before = await receiptCount();
    const run = await runAction({ 'api-url': api, 'api-key': key, 'policy-file': file });
    expect(run.code, run.stderr).toBe(1);
    const annotation = run.stderr.split('\n').find((line) => line.startsWith('::error file='));
    expect(annotation?.startsWith(`::error file=${file},title=Repository policy::`)).toBe(true);
    expect(annotation).toContain('`deployments.production.identity`: ');
    expect(run.summary).toContain('the GitHub App would reject every gated deployment');
    expect(run.outputs['receipt-id']).toBeUndefined();
    expect(await receiptCount()).toBe(before);
    expect(leaks(run, key)).toEqual([]);
  });

  it('a valid file: what each gate accepts, then the receipt', async () => {
    const file = policyFile('good.yml', 'deployments:\n  staging:\n    wait: 10m\n');
    const run = await runAction({ 'api-url': api, 'api-key': key, 'policy-file': file });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${file} is valid`);
    expect(run.stdout).toMatch(/staging: an ALLOW receipt .* waits 10m/);
    expect(run.outputs['receipt-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a file that is missing or too large: exit 2 with the reason', async () => {
    const missing = await runAction({
      'api-url': api,
      'api-key': key,
      'policy-file': path.join(dir, 'absent.yml'),
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot be read: check out the repository first');
    const big = policyFile('big.yml', `# ${'x'.repeat(70_000)}\n`);
    const large = await runAction({ 'api-url': api, 'api-key': key, 'policy-file': big });
    expect(large.code).toBe(2);
    expect(large.stderr).toContain('is larger than 65536 bytes');
  });
});
