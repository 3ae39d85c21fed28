import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonNestsDeeperThan, parseJsonBounded, valueNestsDeeperThan } from '../../src/json.js';
import { jcs } from '../../src/primitives.js';
import { contentText } from '../../src/pdf/text.js';
import { readBundle } from '../../src/read.js';
import { hostileFiles } from './hostile-files.js';

/**
 * Files that once crashed the verifier or ran it out of memory (fixtures/hostile, made by its
 * make.ts), read in process: each is now a typed failure naming the bound it passed.
 */
const hostile = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '../fixtures/hostile', name)));
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('hostile PDFs that crashed the verifier', () => {
  it('refuses 10,000 nested arrays shown by TJ (822-byte class: a stack overflow)', async () => {
    const file = hostile('deep-tj.pdf');
    expect(file.length).toBeLessThan(1024);
    expect(await readBundle(file)).toEqual({
      ok: false,
      reason: "the PDF's page content nests arrays more than 8 deep",
    });
  });

  it('refuses 4 MiB of opening brackets from under 5 KB (4.6 KB class: hundreds of MiB of arrays)', async () => {
    const file = hostile('open-arrays.pdf');
    expect(file.length).toBeLessThan(5 * 1024);
    expect(await readBundle(file)).toEqual({
      ok: false,
      reason: "the PDF's page content nests arrays more than 8 deep",
    });
  });

  it('refuses a TJ array of two million strings (one object each)', async () => {
    expect(await readBundle(hostile('tj-empty-strings.pdf'))).toEqual({
      ok: false,
      reason: "the PDF's page content has an array of more than 65536 operands",
    });
  });

  it('reads a million shown lines without spreading them into one call', async () => {
    const read = await readBundle(hostile('many-lines.pdf'));
    expect(read.ok && read.printed?.text.split('\n').length).toBe(1_000_000);
  });

  it('keeps TJ arrays up to the bound, nested or not', () => {
    const eight = `${'['.repeat(8)}(deep)${']'.repeat(8)}`;
    expect(contentText(latin1(`BT ${eight} TJ ET`))).toEqual({ ok: true, lines: ['deep'] });
    expect(contentText(latin1(`BT [${eight}] TJ ET`)).ok).toBe(false);
    const kerned = `[${'(a) -12 '.repeat(32_768)}]`;
    expect(contentText(latin1(`BT ${kerned} TJ ET`))).toEqual({
      ok: true,
      lines: ['a'.repeat(32_768)],
    });
    expect(contentText(latin1(`BT [(a) ${kerned}] TJ ET`)).ok).toBe(false);
  });
});

describe('nesting bounds of PDF objects and JSON', () => {
  const files = hostileFiles();

  it('refuses PDF objects and object streams nested deeper than 32 levels', async () => {
    for (const [name, where] of [
      ['deep-object.pdf', 'object'],
      ['deep-dictionary.pdf', 'object'],
      ['deep-object-stream.pdf', 'object stream'],
    ] as const) {
      expect(await readBundle(files[name] as Uint8Array)).toEqual({
        ok: false,
        reason: `a PDF ${where} nests deeper than 32 levels`,
      });
    }
  });

  it('refuses a string of more than 256 KiB before pdf-lib reads it a character at a time', async () => {
    for (const name of ['long-string.pdf', 'long-hex-string.pdf']) {
      expect(await readBundle(files[name] as Uint8Array)).toEqual({
        ok: false,
        reason: 'a PDF string is longer than 256 KiB',
      });
    }
  });

  it('refuses a name or number longer than 1 KiB before pdf-lib reads it', async () => {
    for (const name of ['long-name.pdf', 'long-number.pdf']) {
      expect(await readBundle(files[name] as Uint8Array)).toEqual({
        ok: false,
        reason: 'a PDF name or number is longer than 1 KiB',
      });
    }
  });

  it('passes over a name-tree key too long to be the bundle, without decoding it', async () => {
    expect(await readBundle(files['long-name-tree-key.pdf'] as Uint8Array)).toEqual({
      ok: false,
      reason: 'the PDF has no receipt-bundle.json attachment',
    });
  });

  it('refuses /DecodeParms that holds itself without following it round', async () => {
    expect(await readBundle(files['cyclic-decode-parms.pdf'] as Uint8Array)).toEqual({
      ok: false,
      reason: "the PDF's page content cannot be read: /DecodeParms (predictors) are not supported",
    });
  });

  it('refuses a bundle nested deeper than 64 levels before parsing it', async () => {
    for (const name of ['deep-bundle.json', 'deep-object-bundle.json', 'open-brackets.json']) {
      expect(await readBundle(files[name] as Uint8Array)).toEqual({
        ok: false,
        reason: 'the bundle nests deeper than 64 levels',
      });
    }
  });

  it('counts JSON depth outside strings only, and walks values without recursion', () => {
    expect(jsonNestsDeeperThan('[[1]]', 2)).toBe(false);
    expect(jsonNestsDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(jsonNestsDeeperThan(JSON.stringify(['[[[[[[', '{{{{{{\\"[[[[']), 2)).toBe(false);
    expect(parseJsonBounded('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJsonBounded('{"a": ')).toEqual({ ok: false, reason: 'not JSON' });
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(valueNestsDeeperThan(deep)).toBe(true);
    expect(jcs(deep)).toBeUndefined();
    // shallow enough for the canonicaliser's recursion, too deep for a receipt
    let nested: unknown = 1;
    for (let i = 0; i < 65; i += 1) nested = { a: nested };
    expect(jcs(nested)).toBeUndefined();
    expect(jcs((nested as { a: unknown }).a)).toMatch(/^(\{"a":){64}1\}+$/);
    expect(jcs({ b: [1, { a: 2 }] })).toBe('{"b":[1,{"a":2}]}');
  });
});
