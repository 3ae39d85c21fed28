import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { nestedFlateBomb, pdf, receiptLike, stream } from '../pdf/build.js';

/**
 * Hostile inputs of at most 5 MiB, each aimed at one bound of the verifier: the committed
 * regression PDFs (fixtures/hostile) and files built here, by hand, from PDF and JSON syntax.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures');
const MIB = 1024 * 1024;

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const catalogWith = (extra: string, ...objects: Array<string | Uint8Array>): Uint8Array =>
  pdf([
    `<< /Type /Catalog /Pages 2 0 R ${extra} >>`,
    '<< /Type /Pages /Kids [] /Count 0 >>',
    ...objects,
  ]);

/** A genuine bundle with one more receipt field, spliced in as raw JSON text. */
function bundleWith(rawValue: string): Uint8Array {
  const bundle = JSON.parse(readFileSync(join(FIXTURES, 'bundle.json'), 'utf8'));
  bundle.receipt.extra = '__VALUE__';
  return text(JSON.stringify(bundle).replace('"__VALUE__"', rawValue));
}

/** 100 pages that all show the same content stream, 1 MiB once decoded. */
function pagesSharingOneStream(): Uint8Array {
  const pages = Array.from({ length: 100 }, (_, i) => `${i + 5} 0 R`).join(' ');
  const shown = deflateSync(Buffer.from(`BT ${'(0123456789abcdef) Tj '.repeat(MIB / 22)} ET`));
  return pdf([
    '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 3 0 R >> >>',
    `<< /Type /Pages /Kids [${pages}] /Count 100 >>`,
    '<< /Names [(receipt-bundle.json) 4 0 R] >>',
    `<< /EF << /F 105 0 R >> >>`,
    ...Array.from({ length: 100 }, () => '<< /Type /Page /Parent 2 0 R /Contents 106 0 R >>'),
    stream('', '{}'),
    stream('/Filter /FlateDecode', shown),
  ]);
}

/** Page content whose /DecodeParms is an array that holds itself (object 8 is `[8 0 R]`). */
const cyclicDecodeParms = (): Uint8Array =>
  pdf([
    '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 5 0 R >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>',
    stream('/DecodeParms 8 0 R', 'BT (x) Tj ET'),
    '<< /Names [(receipt-bundle.json) 6 0 R] >>',
    '<< /EF << /F 7 0 R >> >>',
    stream('', '{}'),
    '[8 0 R]',
  ]);

export function hostileFiles(): Record<string, Uint8Array> {
  const committed = readdirSync(join(FIXTURES, 'hostile')).filter((f) => f.endsWith('.pdf'));
  const files: Record<string, Uint8Array> = {};
  for (const name of committed) {
    files[name] = new Uint8Array(readFileSync(join(FIXTURES, 'hostile', name)));
  }
  const depth = 100_000;
  Object.assign(files, {
    'deep-object.pdf': catalogWith(`/X ${'['.repeat(depth)}${']'.repeat(depth)}`),
    'deep-dictionary.pdf': catalogWith(`/X ${'<< /A '.repeat(depth)}${'>>'.repeat(depth)}`),
    'deep-object-stream.pdf': catalogWith(
      '',
      stream(
        '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode',
        deflateSync(Buffer.from(`3 0 ${'['.repeat(depth)}${']'.repeat(depth)}`)),
      ),
    ),
    'nested-flate-attachment.pdf': receiptLike([
      ['receipt-bundle.json', nestedFlateBomb(), '/Filter [/FlateDecode /FlateDecode]'],
    ]),
    'pages-sharing-one-stream.pdf': pagesSharingOneStream(),
    'cyclic-decode-parms.pdf': cyclicDecodeParms(),
    'long-string.pdf': catalogWith(`/X (${'a'.repeat(5 * MIB - 1024)})`),
    'long-hex-string.pdf': catalogWith(`/X <${'a'.repeat(5 * MIB - 1024)}>`),
    'long-name.pdf': catalogWith(`/X /${'a'.repeat(5 * MIB - 1024)}`),
    'long-number.pdf': catalogWith(`/X ${'1'.repeat(5 * MIB - 1024)}`),
    'long-name-tree-key.pdf': catalogWith(
      '/Names << /EmbeddedFiles 3 0 R >>',
      `<< /Names [(${'k'.repeat(200_000)}) 4 0 R] >>`,
      '<< >>',
    ),
    'unreadable-between-objects.pdf': catalogWith('', `<< >>\nendobj\nx${'1'.repeat(4 * MIB)}`),
    'deep-bundle.json': bundleWith(`${'['.repeat(2 * MIB)}${']'.repeat(2 * MIB)}`),
    'deep-object-bundle.json': bundleWith(`${'{"a":'.repeat(MIB / 2)}1${'}'.repeat(MIB / 2)}`),
    'open-brackets.json': text('['.repeat(5 * MIB)),
    'long-string-bundle.json': bundleWith(JSON.stringify('a'.repeat(5 * MIB - 8 * 1024))),
  });
  return files;
}
