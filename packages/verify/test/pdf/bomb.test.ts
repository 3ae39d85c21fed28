import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readBundle } from '../../src/read.js';
import { nestedFlateBomb, pdf, receiptLike, singleBlockBomb, stream } from './build.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./read-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pdf-bomb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ChildRead {
  ok: boolean;
  reason?: string;
  ms: number;
  maxRssMiB: number;
  wallMs: number;
}

/** readBundle in a fresh Node process: its outcome, time and peak memory. */
function readInChild(name: string, bytes: Uint8Array): ChildRead {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const start = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', CHILD, file], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return { ...(JSON.parse(run.stdout) as Omit<ChildRead, 'wallMs'>), wallMs: Date.now() - start };
}

const bomb = nestedFlateBomb(); // 5 GiB of zeros, Flate inside Flate
const NESTED = '/FlateDecode /FlateDecode';

/** A page tree and catalog around `extra` objects (numbered from 3). */
const withObjects = (...extra: Array<string | Uint8Array>): Uint8Array =>
  pdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>', ...extra]);

describe('compression bombs in a PDF receipt', () => {
  it('builds a bomb of a few KiB', () => {
    expect(bomb.length).toBeLessThan(8 * 1024);
  });

  it('refuses a nested-Flate attachment of 5 GiB fast, with the size reason', async () => {
    const file = receiptLike([['receipt-bundle.json', bomb, `/Filter [${NESTED}]`]]);
    const start = Date.now();
    expect(await readBundle(file)).toEqual({ ok: false, reason: 'bundle larger than 5 MiB' });
    expect(Date.now() - start).toBeLessThan(5_000);
    const child = readInChild('nested.pdf', file);
    console.log(`nested Flate bomb (${file.length} bytes): ${JSON.stringify(child)}`);
    expect(child.reason).toBe('bundle larger than 5 MiB');
    expect(child.maxRssMiB).toBeLessThan(256);
    expect(child.wallMs).toBeLessThan(10_000);
  });

  it('refuses one deflate block of 64 MiB without inflating the block whole', () => {
    const file = receiptLike([
      ['receipt-bundle.json', singleBlockBomb(64), '/Filter /FlateDecode'],
    ]);
    const child = readInChild('block.pdf', file);
    console.log(`single-block bomb (${file.length} bytes): ${JSON.stringify(child)}`);
    expect(child.reason).toBe('bundle larger than 5 MiB');
    expect(child.maxRssMiB).toBeLessThan(256);
  });

  it('refuses an object stream bomb before pdf-lib decodes it', async () => {
    const objStm = stream(`/Type /ObjStm /N 1 /First 4 /Filter [${NESTED}]`, bomb);
    const file = withObjects(objStm);
    const read = await readBundle(file);
    expect(read).toEqual({
      ok: false,
      reason: "the PDF's object streams are larger than 1048576 bytes",
    });
    const child = readInChild('objstm.pdf', file);
    console.log(`object stream bomb (${file.length} bytes): ${JSON.stringify(child)}`);
    expect(child.maxRssMiB).toBeLessThan(256);
    expect(child.wallMs).toBeLessThan(10_000);
  });

  it('refuses a cross-reference stream bomb, compressed or declaring rows it lacks', async () => {
    const xref = stream(`/Type /XRef /Size 10 /W [1 2 1] /Filter [${NESTED}]`, bomb);
    expect(await readBundle(withObjects(xref))).toEqual({
      ok: false,
      reason: "the PDF's cross-reference streams are larger than 1048576 bytes",
    });
    // Rows of zero bytes: pdf-lib would create 100 million entries from an empty stream.
    for (const dict of ['/W [0 0 0] /Size 100000000', '/W [1 2 1] /Index [0 100000000]']) {
      const start = Date.now();
      const read = await readBundle(withObjects(stream(`/Type /XRef ${dict}`, '')));
      expect(read).toEqual({
        ok: false,
        reason: 'a PDF cross-reference stream declares more entries than it holds',
      });
      expect(Date.now() - start).toBeLessThan(2_000);
    }
  });

  it('refuses an object stream declaring more objects than it holds, or an unread filter', async () => {
    const many = stream('/Type /ObjStm /N 1000000000 /First 4', '1 0 ');
    expect(await readBundle(withObjects(many))).toEqual({
      ok: false,
      reason: 'a PDF object stream declares more entries than it holds',
    });
    const lzw = stream('/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode', '\x80\x0b\x60\x50');
    expect(await readBundle(withObjects(lzw))).toEqual({
      ok: false,
      reason:
        'a PDF object stream cannot be read: the /LZWDecode filter is not supported (only FlateDecode is)',
    });
  });

  it('refuses page content that decodes past 4 MiB', async () => {
    const file = receiptLike([['receipt-bundle.json', '{}']], stream(`/Filter [${NESTED}]`, bomb));
    expect(await readBundle(file)).toEqual({
      ok: false,
      reason: "the PDF's page content is larger than 4 MiB",
    });
  });

  it('refuses unreadable data between objects instead of scanning it in quadratic time', async () => {
    const file = pdf(['<< /Type /Catalog >>', `<< >>\nendobj\nx${'1'.repeat(200_000)}`]);
    const start = Date.now();
    expect(await readBundle(file)).toEqual({
      ok: false,
      reason: 'the PDF has unreadable data between its objects',
    });
    expect(Date.now() - start).toBeLessThan(2_000);
  });
});
