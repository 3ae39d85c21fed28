import { deflateRawSync, deflateSync, constants } from 'node:zlib';

/** Hand-written PDFs for hostile-input tests: numbered objects, an xref table and a trailer. */

type Part = string | Uint8Array;

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
const bytesOf = (part: Part): Uint8Array => (typeof part === 'string' ? latin1(part) : part);

function concat(parts: Part[]): Uint8Array {
  const chunks = parts.map(bytesOf);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A stream object's body: `dict` is the dictionary's inside, without /Length. */
export function stream(dict: string, data: Part): Uint8Array {
  const bytes = bytesOf(data);
  return concat([`<< ${dict} /Length ${bytes.length} >>\nstream\n`, bytes, '\nendstream']);
}

/** A PDF of the objects 1..n (`objects[i]` is object i + 1) whose catalog is object 1. */
export function pdf(objects: Part[]): Uint8Array {
  const parts: Uint8Array[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  const offsets: number[] = [];
  let at = parts[0]?.length ?? 0;
  objects.forEach((body, i) => {
    const object = concat([`${i + 1} 0 obj\n`, body, '\nendobj\n']);
    offsets.push(at);
    parts.push(object);
    at += object.length;
  });
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  const size = objects.length + 1;
  const tail = `xref\n0 ${size}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`;
  return concat([...parts, tail]);
}

/** A PDF string literal of ASCII text. */
export const str = (text: string): string => `(${text.replace(/[()\\]/g, (c) => `\\${c}`)})`;

/** A page content stream showing `text`. */
export const pageContent = (text: string): Uint8Array =>
  stream('', `BT /F1 10 Tf 50 700 Td ${str(text)} Tj ET`);

/**
 * A one-page PDF whose EmbeddedFiles name tree lists `files` in order: each is a name, its data
 * and the stream's dictionary (default: the data Flate-compressed here).
 */
export function receiptLike(
  files: Array<[name: string, data: Part, dict?: string]>,
  content: Uint8Array = pageContent('Receipt'),
): Uint8Array {
  const names = files.map(([name], i) => `${str(name)} ${6 + 2 * i} 0 R`).join(' ');
  const objects: Part[] = [
    '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 5 0 R >> >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    content,
    `<< /Names [${names}] >>`,
  ];
  files.forEach(([name, data, dict], i) => {
    objects.push(`<< /Type /Filespec /F ${str(name)} /EF << /F ${7 + 2 * i} 0 R >> >>`);
    objects.push(
      stream(
        dict ?? '/Type /EmbeddedFile /Filter /FlateDecode',
        dict ? data : deflateSync(bytesOf(data)),
      ),
    );
  });
  return pdf(objects);
}

/**
 * Zlib data of `gib` GiB of zeros compressed twice (the outer layer a few KiB). The inner layer
 * is built from one compressed 16 MiB segment repeated: each segment ends with a full flush, so
 * it stands alone and byte-aligned; an empty final block and the Adler-32 of the zeros close it.
 */
export function nestedFlateBomb(gib = 5): Uint8Array {
  const segmentBytes = 16 << 20;
  const count = gib * 64;
  const segment = deflateRawSync(Buffer.alloc(segmentBytes), {
    level: 9,
    memLevel: 9,
    finishFlush: constants.Z_FULL_FLUSH,
  });
  const total = segmentBytes * count;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  const inner = Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array.from({ length: count }, () => segment),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
  return deflateSync(inner, { level: 9, memLevel: 9 });
}

/**
 * Zlib data of ONE fixed-Huffman deflate block of `mib` MiB of zeros: a literal 0, then copies of
 * 258 bytes at distance 1 (13 bits each). A decoder that inflates a block at a time holds it all.
 */
export function singleBlockBomb(mib = 64): Uint8Array {
  const copies = Math.ceil(((mib << 20) - 1) / 258);
  const bits = new BitWriter();
  bits.write(1, 1); // BFINAL
  bits.write(1, 2); // BTYPE 01: fixed codes
  bits.code(0x30, 8); // literal 0
  for (let i = 0; i < copies; i += 1) {
    bits.code(0xc5, 8); // length code 285: 258 bytes
    bits.code(0, 5); // distance code 0: distance 1
  }
  bits.code(0, 7); // end of block
  // Adler-32 of n zeros: a stays 1, b adds it n times.
  const b = (1 + 258 * copies) % 65521;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | 1) >>> 0);
  return concat([Uint8Array.of(0x78, 0x01), bits.bytes(), adler]);
}

/** Deflate's bit order: fields least significant bit first, Huffman codes most significant first. */
class BitWriter {
  private readonly out: number[] = [];
  private current = 0;
  private count = 0;

  write(value: number, n: number): void {
    for (let i = 0; i < n; i += 1) this.bit((value >> i) & 1);
  }

  code(code: number, n: number): void {
    for (let i = n - 1; i >= 0; i -= 1) this.bit((code >> i) & 1);
  }

  bytes(): Uint8Array {
    const out = [...this.out];
    if (this.count > 0) out.push(this.current);
    return Uint8Array.from(out);
  }

  private bit(value: number): void {
    this.current |= value << this.count;
    if (++this.count === 8) {
      this.out.push(this.current);
      this.current = 0;
      this.count = 0;
    }
  }
}
