import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFName, PDFRawStream } from 'pdf-lib';
import { decodeBounded } from '../../src/pdf/decode.js';
import { loadPdf } from '../../src/pdf/load.js';
import { children, ctx, readNode, sequence, TAG } from '../../src/timestamp/der.js';
import { HIDDEN_REFERENCES } from '../pdf/hidden-references.js';

/**
 * The corpus the targets start from: the committed sample receipts (docs/), the recorded
 * fixtures of this package, the hostile regression files, a time-stamp token made by
 * `openssl ts` (seeds/), and every crash the fuzzer found (crashes/, named <target>-*.bin).
 * Parts of files (page content, CMS signatures, certificates) are cut from these with pdf-lib
 * and the DER reader: seeds are only starting points, so reading them with the code under test
 * decides nothing.
 */
const HERE = import.meta.dirname;
const FIXTURES = join(HERE, '../fixtures');
const DOCS = join(HERE, '../../../../docs');

const read = (path: string): Uint8Array => new Uint8Array(readFileSync(path));
const text = (path: string): string => readFileSync(path, 'utf8');
const filesIn = (dir: string, suffix: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => join(dir, f));

/** The crashes found for one target, committed as regression inputs. */
export const crashesOf = (target: string): Uint8Array[] =>
  filesIn(join(HERE, 'crashes'), '.bin')
    .filter((f) => f.includes(`/${target}-`))
    .map(read);

export const pdfSeeds = (): Uint8Array[] => [
  read(join(FIXTURES, 'receipt.pdf')),
  read(join(FIXTURES, 'receipt-block.pdf')),
  read(join(DOCS, 'sample-receipt.pdf')),
  ...filesIn(join(FIXTURES, 'hostile'), '.pdf').map(read),
];

/** Objects cut from one file at most, and the bytes of each (a font file stream is 130 KiB). */
const MAX_OBJECT_SEEDS = 120;
const MAX_OBJECT_SEED_BYTES = 16 * 1024;

/**
 * Single objects, the bytes after `N G obj` up to and including their `endobj`, cut from the PDF
 * seeds by a regular expression (not by the reader under test); objects that hide references
 * (../pdf/hidden-references.ts); a font's /W array of the shape poppler writes.
 */
export function objectSeeds(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const pdf of pdfSeeds()) {
    const text = Buffer.from(pdf).toString('latin1');
    let cut = 0;
    for (const m of text.matchAll(/\d+[ \r\n]+\d+[ \r\n]+obj/g)) {
      if (++cut > MAX_OBJECT_SEEDS) break;
      const from = (m.index ?? 0) + m[0].length;
      const end = text.indexOf('endobj', from);
      const to = Math.min(end < 0 ? text.length : end + 6, from + MAX_OBJECT_SEED_BYTES);
      out.push(pdf.subarray(from, to));
    }
  }
  const widths = Array.from({ length: 256 }, (_, i) => `${i} [${500 + i} 600]`).join(' ');
  const font = `<< /Type /Font /Subtype /CIDFontType2 /W [${widths} 300 400 500] /FontDescriptor 9 0 R >>`;
  return [...out, ...[...HIDDEN_REFERENCES.map((h) => h.text), font].map(latin1Bytes)];
}

const latin1Bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

export const bundleSeeds = (): Uint8Array[] => filesIn(FIXTURES, '.json').map(read);

/** The decoded page content streams of the receipt PDFs. */
export async function contentSeeds(): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const pdf of pdfSeeds().slice(0, 3)) {
    const loaded = await loadPdf(pdf);
    if (!loaded.ok) continue;
    for (const [, object] of loaded.context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFRawStream) || object.dict.has(PDFName.of('Type'))) continue;
      const decoded = decodeBounded(object, 1 << 20);
      if (decoded.ok && decoded.bytes.length > 0 && decoded.bytes[0] !== 0x7b) {
        out.push(decoded.bytes);
      }
    }
  }
  return out;
}

/**
 * A receipt PDF's signature dictionary found in its raw bytes (its /ByteRange and the hex of its
 * /Contents), without the PDF readers under test.
 */
export function rawSignature(pdf: Uint8Array): { byteRange: number[]; contents: Uint8Array } {
  const latin1 = Buffer.from(pdf).toString('latin1');
  const range = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(latin1);
  const contents = /\/Contents\s*<([0-9A-Fa-f]+)>/.exec(latin1);
  if (!range || !contents?.[1]) throw new Error('no signature dictionary in the seed PDF');
  return {
    byteRange: range.slice(1, 5).map(Number),
    contents: new Uint8Array(Buffer.from(contents[1], 'hex')),
  };
}

/** The CMS SignedData of each receipt PDF's signature (its /Contents, padding cut off). */
export async function cmsSeeds(): Promise<Uint8Array[]> {
  return pdfSeeds()
    .slice(0, 3)
    .map((pdf) => readNode(rawSignature(pdf).contents).bytes);
}

/**
 * The receipt PDFs with their CMS written again as NSS-based signers write it (BER: every
 * constructed value with an indefinite length and an end-of-contents marker), in place, for the
 * document-signature target. Written here by hand, not by the reader under test.
 */
export async function berSignedSeeds(): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const pdf of pdfSeeds().slice(0, 3)) {
    const latin1 = Buffer.from(pdf).toString('latin1');
    const hex = /\/Contents\s*<([0-9A-Fa-f]+)>/.exec(latin1);
    if (!hex?.[1]) continue;
    const der = readNode(Buffer.from(hex[1], 'hex')).bytes;
    const ber = Buffer.from(indefinite(der)).toString('hex');
    if (ber.length > hex[1].length) continue;
    const at = (hex.index ?? 0) + hex[0].indexOf('<') + 1;
    const replaced =
      latin1.slice(0, at) + ber.padEnd(hex[1].length, '0') + latin1.slice(at + hex[1].length);
    out.push(new Uint8Array(Buffer.from(replaced, 'latin1')));
  }
  return out;
}

/** A DER value with each constructed SEQUENCE, SET or [n] re-encoded with an indefinite length. */
function indefinite(der: Uint8Array): Uint8Array {
  const node = readNode(der);
  if ((node.tag & 0x20) === 0 || node.tag === 0x31) return node.bytes; // SET OF attributes stays DER
  const parts = children(node, 1024).map((c) => indefinite(c.bytes));
  const body = Buffer.concat(parts.map((p) => Buffer.from(p)));
  return Buffer.concat([Buffer.from([node.tag, 0x80]), body, Buffer.from([0, 0])]);
}

export const tokenSeeds = (): Uint8Array[] => [read(join(HERE, 'seeds/tsa-token.der'))];
export const tokenData = (): Uint8Array => read(join(HERE, 'seeds/tsa-token.data'));
export const tokenCaPem = (): string => text(join(HERE, 'seeds/tsa-ca.pem'));

/** The certificates inside the CMS signatures and the time-stamp token. */
export async function certificateSeeds(): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const cms of [...(await cmsSeeds()), ...tokenSeeds()]) {
    const [, wrapped] = sequence(readNode(cms), 'ContentInfo');
    const signedData = sequence(children(wrapped ?? readNode(cms))[0], 'SignedData');
    const certs = signedData.find((n) => n.tag === ctx(0));
    if (certs) out.push(...children(certs, 16).map((c) => c.bytes));
  }
  return out.filter((c) => c[0] === TAG.sequence);
}

export const noteSeeds = (): string[] =>
  filesIn(FIXTURES, '.json').flatMap((f) => {
    const doc = JSON.parse(text(f)) as { logEntry?: { checkpoint?: string } };
    return doc.logEntry?.checkpoint ? [doc.logEntry.checkpoint] : [];
  });

export const noteKey = (): string =>
  (JSON.parse(text(join(FIXTURES, 'bundle.json'))) as { logEntry: { noteVerifierKey: string } })
    .logEntry.noteVerifierKey;

/** A note with one Ed25519 and one ML-DSA-44 cosignature, and the two cosigner vkeys. */
const COSIGNED = join(FIXTURES, 'fips204', 'cosigned-note.json');
const cosigned = (): { note: string; vkeys: string[] } =>
  JSON.parse(text(COSIGNED)) as { note: string; vkeys: string[] };
export const cosignedNoteSeeds = (): string[] => [cosigned().note];
export const cosignerKeys = (): string[] => cosigned().vkeys;

export const tlogProofSeeds = (): string[] => [text(join(FIXTURES, 'receipt.tlog-proof'))];
export const policySeeds = (): string[] => [text(join(FIXTURES, 'log.policy'))];
export const jwksSeeds = (): string[] => [text(join(FIXTURES, 'jwks.json'))];
export const statusSeeds = (): Uint8Array[] =>
  filesIn(FIXTURES, '.json')
    .filter((f) => f.includes('status-'))
    .map(read);
