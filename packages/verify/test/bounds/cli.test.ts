import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileFiles } from './hostile-files.js';

/**
 * receipt-verify on hostile files, each in a process of its own: it answers (exit 1 or 2, a
 * verdict on stdout, no stack trace) within 5 s and under 256 MiB of peak resident memory. This
 * bounds what a file costs, not how fast the verifier is: the limits are far above a receipt's.
 * The CLI is bundled from its sources first (esbuild), so each process starts as the published
 * one does, without compiling TypeScript on the way.
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('./peak-rss.ts', import.meta.url));
const JWKS = fileURLToPath(new URL('../fixtures/jwks.json', import.meta.url));
const MAX_INPUT_BYTES = 5 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'verify-hostile-'));
const cli = join(dir, 'bin.mjs');
const peakRss = join(dir, 'peak-rss.mjs');
beforeAll(async () => {
  await build({
    entryPoints: { bin: BIN, 'peak-rss': PEAK_RSS },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runCli(name: string, bytes: Uint8Array) {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const start = Date.now();
  const run = spawnSync(process.execPath, ['--import', peakRss, cli, file, '--jwks', JWKS], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  const wallMs = Date.now() - start;
  const peak = /^peak-rss-kib (\d+)$/m.exec(run.stderr);
  return { ...run, wallMs, peakMiB: peak ? Number(peak[1]) / 1024 : Number.NaN };
}

describe('receipt-verify on hostile files of up to 5 MiB', () => {
  const files = hostileFiles();
  for (const [name, bytes] of Object.entries(files)) {
    it(`${name} (${bytes.length} bytes): exit 1 or 2 within 5 s, under 256 MiB`, () => {
      expect(bytes.length).toBeLessThanOrEqual(MAX_INPUT_BYTES);
      const run = runCli(name, bytes);
      // the verdict line is the last one a label starts (a technical line follows it, indented)
      const verdict =
        run.stdout
          .trim()
          .split('\n')
          .findLast((l) => /^[A-Z]/.test(l)) ?? '';
      console.log(
        `${name}: exit ${run.status}, ${run.wallMs} ms, ${run.peakMiB.toFixed(0)} MiB: ${verdict}`,
      );
      expect(run.stderr).not.toMatch(/Error|\n\s+at /);
      expect([1, 2]).toContain(run.status);
      expect(verdict).toMatch(/^(UNREADABLE|NOT VERIFIED):/);
      expect(run.wallMs).toBeLessThan(5_000);
      expect(run.peakMiB).toBeLessThan(256);
    });
  }
});
