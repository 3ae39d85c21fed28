import { deflateSync } from 'node:zlib';

/**
 * Incremental updates written by hand (ISO 32000-1 7.5.6), with nothing from the verifier or the
 * service: new objects, a cross-reference table listing them, and a trailer whose /Prev is the
 * previous section, appended to a PDF. Objects are found in a PDF by their `N 0 obj` text (the
 * last definition), as a person editing the file would.
 */

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

/** The body of the last definition of object `num` (between `N 0 obj` and `endobj`). */
export function objectBody(pdf: Uint8Array, num: number): string {
  const text = latin1(pdf);
  const matches = [
    ...text.matchAll(new RegExp(`(?:^|\\n)${num} 0 obj\\s*([\\s\\S]*?)\\s*endobj`, 'g')),
  ];
  const last = matches.at(-1);
  if (!last?.[1]) throw new Error(`no object ${num}`);
  return last[1];
}

/** The number of the last object whose body matches `pattern`. */
export function objectNumber(pdf: Uint8Array, pattern: RegExp): number {
  const text = latin1(pdf);
  const found = [...text.matchAll(/(?:^|\n)(\d+) 0 obj\s*([\s\S]*?)\s*endobj/g)].filter((m) =>
    pattern.test(m[2] ?? ''),
  );
  const last = found.at(-1);
  if (!last) throw new Error(`no object matching ${pattern}`);
  return Number(last[1]);
}

/** The last trailer's /Root, /Size, /Info and the last startxref. */
export function lastTrailer(pdf: Uint8Array): {
  root: string;
  size: number;
  startxref: number;
  info?: string;
} {
  const text = latin1(pdf);
  const trailer = text.slice(text.lastIndexOf('trailer'));
  const root = /\/Root (\d+ \d+ R)/.exec(trailer)?.[1];
  const size = Number(/\/Size (\d+)/.exec(trailer)?.[1]);
  const startxref = Number(
    /startxref\s+(\d+)/.exec(text.slice(text.lastIndexOf('startxref')))?.[1],
  );
  const info = /\/Info (\d+ \d+ R)/.exec(trailer)?.[1];
  if (!root || !size || !startxref) throw new Error('no trailer');
  return { root, size, startxref, ...(info ? { info } : {}) };
}

export interface Update {
  /** Object number to its new body (the text between `obj` and `endobj`). */
  objects: Record<number, string | Uint8Array>;
  /** Objects the update frees. */
  free?: number[];
  /** Another /Root for the new trailer (`N 0 R`). */
  root?: string;
}

/** `pdf` with one incremental update appended. */
export function appendRevision(pdf: Uint8Array, update: Update): Uint8Array {
  const before = lastTrailer(pdf);
  const parts: Buffer[] = [Buffer.from(pdf)];
  let at = pdf.length;
  const rows = new Map<number, string>();
  for (const [key, body] of Object.entries(update.objects)) {
    const num = Number(key);
    const object = Buffer.concat([
      Buffer.from(`${num} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : Buffer.from(body),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    rows.set(num, `${String(at).padStart(10, '0')} 00000 n \n`);
    parts.push(object);
    at += object.length;
  }
  for (const num of update.free ?? []) rows.set(num, '0000000000 00001 f \n');
  const nums = [...rows.keys()].sort((a, b) => a - b);
  const size = Math.max(before.size, ...nums.map((n) => n + 1));
  const table = nums.map((n) => `${n} 1\n${rows.get(n)}`).join('');
  const prev = ` /Prev ${before.startxref}`;
  const info = before.info ? ` /Info ${before.info}` : '';
  parts.push(
    Buffer.from(
      `xref\n${table}trailer\n<< /Size ${size} /Root ${update.root ?? before.root}${info}${prev} >>\nstartxref\n${at}\n%%EOF\n`,
      'latin1',
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}

/** A stream object's body with `data` Flate-compressed. */
export function flateStream(dict: string, data: string | Uint8Array): Uint8Array {
  const packed = deflateSync(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from(
        `<< ${dict} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
        'latin1',
      ),
      packed,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  );
}

/** A stream object's body with `data` as it is. */
export const rawStream = (dict: string, data: string): string =>
  `<< ${dict} /Length ${Buffer.byteLength(data, 'latin1')} >>\nstream\n${data}\nendstream`;

/** `body` with its entry `/key value` replaced or removed (a value of numbers, refs or arrays). */
export function withEntry(body: string, key: string, value?: string): string {
  const entry = new RegExp(`\\n?/${key}\\b[^/>]*?(?=\\n?/|\\n?>>)`);
  const stripped = body.replace(entry, '');
  if (value === undefined) return stripped;
  return stripped.replace(/\n?>>\s*$/, `\n/${key} ${value}\n>>`);
}

/**
 * `pdf` with one incremental update whose cross-reference section is a stream (7.5.8): /W [1 4 2]
 * rows, Flate-compressed with the PNG Up predictor, as many writers make them.
 */
export function appendXrefStreamRevision(
  pdf: Uint8Array,
  objects: Record<number, string>,
): Uint8Array {
  const before = lastTrailer(pdf);
  const parts: Buffer[] = [Buffer.from(pdf)];
  let at = pdf.length;
  const offsets = new Map<number, number>();
  for (const [key, body] of Object.entries(objects)) {
    const object = Buffer.from(`${key} 0 obj\n${body}\nendobj\n`, 'latin1');
    offsets.set(Number(key), at);
    parts.push(object);
    at += object.length;
  }
  const self = Math.max(before.size, ...[...offsets.keys()].map((n) => n + 1));
  offsets.set(self, at);
  const nums = [...offsets.keys()].sort((a, b) => a - b);
  const rows = nums.map((n) => {
    const row = Buffer.alloc(7);
    row[0] = 1;
    row.writeUInt32BE(offsets.get(n) ?? 0, 1);
    return row;
  });
  const predicted = rows.map((row, r) => {
    const up = rows[r - 1] ?? Buffer.alloc(7);
    return Buffer.concat([
      Buffer.from([2]),
      Buffer.from(row.map((b, i) => (b - (up[i] ?? 0)) & 0xff)),
    ]);
  });
  const index = nums.map((n) => `${n} 1`).join(' ');
  const dict =
    `/Type /XRef /Size ${self + 1} /Root ${before.root} /Prev ${before.startxref} /W [1 4 2] ` +
    `/Index [${index}] /DecodeParms << /Predictor 12 /Columns 7 >>`;
  parts.push(
    Buffer.from(`${self} 0 obj\n`, 'latin1'),
    Buffer.from(flateStream(dict, Buffer.concat(predicted))),
  );
  parts.push(Buffer.from(`\nendobj\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

/** Object numbers of a document time-stamp revision: the new field and value, the form, the page. */
export interface TimeStampObjects {
  field: number;
  value: number;
  form: number;
  page: number;
  /** The widget's /Rect: "0 0 0 0" is invisible. */
  rect: string;
}

/**
 * A document time-stamp revision (/Type /DocTimeStamp, /SubFilter /ETSI.RFC3161) appended with a
 * zero-filled /Contents and its /ByteRange filled in: `signed` is the bytes a token must cover,
 * `fill` puts a token (DER) into /Contents.
 */
export function prepareDocTimeStamp(
  pdf: Uint8Array,
  n: TimeStampObjects,
): { signed: Buffer; fill(token: Uint8Array): Uint8Array } {
  const capacity = 8192;
  const placeholder = `[0 ${'0'.repeat(10)} ${'0'.repeat(10)} ${'0'.repeat(10)}]`;
  const prepared = Buffer.from(
    appendRevision(pdf, {
      objects: {
        [n.value]: `<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 /ByteRange ${placeholder} /Contents <${'0'.repeat(2 * capacity)}> >>`,
        [n.field]: `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Document time-stamp) /V ${n.value} 0 R /F 132 /Rect [${n.rect}] /P ${n.page} 0 R >>`,
        [n.form]: objectBody(pdf, n.form).replace(
          /\/Fields \[([^\]]*)\]/,
          `/Fields [$1 ${n.field} 0 R]`,
        ),
        [n.page]: objectBody(pdf, n.page).replace(
          /\/Annots \[([^\]]*)\]/,
          `/Annots [$1 ${n.field} 0 R]`,
        ),
      },
    }),
  );
  const a =
    prepared.indexOf(`/Contents <${'0'.repeat(16)}`, pdf.length, 'latin1') + '/Contents '.length;
  const b = a + 2 * capacity + 2;
  const range = [a, b, prepared.length - b].map((x) => String(x).padStart(10, '0')).join(' ');
  prepared.write(`[0 ${range}]`, prepared.indexOf(placeholder, pdf.length, 'latin1'), 'latin1');
  return {
    signed: Buffer.concat([prepared.subarray(0, a), prepared.subarray(b)]),
    fill: (token) => {
      if (token.length > capacity) throw new Error('the token does not fit');
      const out = Buffer.from(prepared);
      out.write(Buffer.from(token).toString('hex'), a + 1, 'latin1');
      return new Uint8Array(out);
    },
  };
}
