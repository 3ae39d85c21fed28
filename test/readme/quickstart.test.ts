import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { cliFixture } from '../helpers/cli.js';
import { ed25519Pem, testConfig } from '../helpers/context.js';

/**
 * The README's Quick start is true: its blocks marked `<!-- readme-test: NAME -->` are run
 * against a real service and what they print is compared with what the README says.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const { store, env, cli, cleanup, dataDir } = cliFixture({ SIGNING_KEY: ed25519Pem() });
afterAll(cleanup);

function readmeBlock(name: string): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const marker = `<!-- readme-test: ${name} -->`;
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README has no ${marker}`);
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block?.[1]) throw new Error(`no code block after ${marker}`);
  return block[1];
}

/** Each expected line appears in `output`, in order. */
function expectInOrder(output: string, expected: string[]): void {
  let from = 0;
  for (const line of expected) {
    const at = output.indexOf(line, from);
    expect(at, `"${line}" (in order) in:\n${output}`).toBeGreaterThanOrEqual(0);
    from = at + line.length;
  }
}

describe('README Quick start', () => {
  it('the demo prints what the README shows', async () => {
    const expected = readmeBlock('demo')
      .split('\n')
      .filter((l) => l.trim().length > 0)
      .map((l) => l.trimEnd());
    const demo = await cli(
      'demo',
      '--dir',
      path.join(dataDir, 'readme-demo'),
      '--url',
      'http://127.0.0.1:9',
    );
    expect(demo.code, demo.err).toBe(0);
    expectInOrder(demo.out, expected);
  }, 120_000);

  it('the manual curl path answers what its # -> lines say', async () => {
    const script = readmeBlock('manual');
    const expected = script
      .split('\n')
      .filter((l) => l.startsWith('# -> '))
      .map((l) => l.slice('# -> '.length));
    const app = await buildApp({ config: testConfig(env, store), logger: false });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const work = fs.mkdtempSync(path.join(dataDir, 'readme-'));
    fs.mkdirSync(path.join(work, 'docs'));
    fs.copyFileSync(
      path.join(ROOT, 'docs/sample-deed.pdf'),
      path.join(work, 'docs/sample-deed.pdf'),
    );
    const prelude = [
      'set -euo pipefail',
      // `npx receipts` is the package bin; from a source checkout it is src/cli/main.ts, and
      // `npx @verification-receipts/verify` is the same verifier as its `verify` command
      `npx() { local bin="$1"; shift; [ "$bin" = receipts ] || set -- verify "$@"; node --conditions=verification-receipts-source --import ${import.meta.resolve('tsx')} ${path.join(ROOT, 'src/cli/main.ts')} "$@"; }`,
    ].join('\n');
    const body = script.replace(/^URL=.*$/m, `URL=${url}`);
    try {
      const { stdout } = await run('bash', ['-c', `${prelude}\n${body}`], {
        cwd: work,
        env: { ...process.env, ...env },
        timeout: 90_000,
      });
      expectInOrder(stdout, expected);
    } finally {
      await app.close();
    }
  }, 120_000);
});
