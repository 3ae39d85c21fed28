/**
 * A DER encoder (ITU-T X.690) for the few structures the service writes: CMS SignedData
 * (RFC 5652), X.509 certificates (RFC 5280) and RFC 3161 time-stamp requests. Values are built
 * bottom-up as complete TLVs, so a structure is its bytes.
 */

export function tlv(tag: number, ...parts: Uint8Array[]): Buffer {
  const value = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), lengthOf(value.length), value]);
}

function lengthOf(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export const seq = (...parts: Uint8Array[]): Buffer => tlv(0x30, ...parts);

/** SET OF in DER order: elements sorted by their encodings (X.690 11.6). */
export const setOf = (...parts: Uint8Array[]): Buffer =>
  tlv(0x31, ...[...parts].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));

export const octets = (bytes: Uint8Array): Buffer => tlv(0x04, bytes);
export const nul = (): Buffer => Buffer.from([0x05, 0x00]);
export const bool = (value: boolean): Buffer => Buffer.from([0x01, 0x01, value ? 0xff : 0x00]);
export const utf8 = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
/** BIT STRING with no unused bits. */
export const bits = (bytes: Uint8Array): Buffer => tlv(0x03, Buffer.from([0]), bytes);
/** `[n]` EXPLICIT, or IMPLICIT over a constructed type. */
export const explicit = (n: number, ...parts: Uint8Array[]): Buffer => tlv(0xa0 | n, ...parts);
/** The same value with its tag replaced (IMPLICIT tagging of a complete TLV). */
export const retag = (tag: number, der: Uint8Array): Buffer => {
  const out = Buffer.from(der);
  out[0] = tag;
  return out;
};

/** A non-negative INTEGER from big-endian magnitude bytes (or a small number). */
export function integer(value: Uint8Array | number): Buffer {
  let bytes: Buffer;
  if (typeof value === 'number') {
    const out: number[] = [];
    for (let v = value; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
    bytes = Buffer.from(out.length > 0 ? out : [0]);
  } else {
    let start = 0;
    while (start < value.length - 1 && value[start] === 0) start += 1;
    bytes = Buffer.from(value.subarray(start));
  }
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const [a = 0, b = 0, ...rest] = arcs;
  const out: number[] = [];
  for (const arc of [40 * a + b, ...rest]) {
    const chunk: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128))
      chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5). */
export function time(date: Date): Buffer {
  const iso = date
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(iso.slice(2), 'ascii'))
    : tlv(0x18, Buffer.from(iso, 'ascii'));
}

export const algorithm = (dotted: string, params?: Uint8Array): Buffer =>
  params ? seq(oid(dotted), params) : seq(oid(dotted));
