import { DerError } from '../timestamp/der.js';

/**
 * Signers other than the service write their CMS in BER (ITU-T X.690 8.1.3.6): NSS, and so
 * poppler's `pdfsig` and Firefox-era tools, encode every constructed value of the SignedData with
 * an indefinite length closed by an end-of-contents marker. The DER reader takes definite lengths
 * only; this re-encodes the first value of `input` (a /Contents is zero-padded after it) with
 * definite, minimal lengths and nothing else changed. Signed attributes are DER already (they
 * are what the signature covers), so they come out byte for byte the same.
 *
 * Bounded: at most MAX_DEPTH levels and MAX_NODES values; primitive values keep definite
 * lengths (a constructed string in BER is refused, CMS signers do not write them where it reads).
 */

const MAX_DEPTH = 32;
const MAX_NODES = 10_000;

interface Read {
  /** The re-encoded value. */
  out: Uint8Array;
  /** Bytes of the input it took. */
  used: number;
}

export function definiteLengths(input: Uint8Array): Uint8Array {
  const budget = { nodes: 0 };
  return readBer(input, 0, 0, budget).out;
}

function readBer(input: Uint8Array, at: number, depth: number, budget: { nodes: number }): Read {
  if (depth > MAX_DEPTH) throw new DerError('BER nests too deep');
  if (++budget.nodes > MAX_NODES) throw new DerError('too many BER values');
  const tag = input[at];
  const first = input[at + 1];
  if (tag === undefined || first === undefined) throw new DerError('truncated BER');
  if ((tag & 0x1f) === 0x1f) throw new DerError('high tag numbers are not used here');
  const constructed = (tag & 0x20) !== 0;
  if (first === 0x80) {
    if (!constructed) throw new DerError('indefinite length on a primitive value');
    const parts: Uint8Array[] = [];
    let offset = at + 2;
    for (;;) {
      if (input[offset] === 0 && input[offset + 1] === 0) {
        offset += 2;
        break;
      }
      if (offset >= input.length) throw new DerError('BER value has no end-of-contents');
      const child = readBer(input, offset, depth + 1, budget);
      parts.push(child.out);
      offset += child.used;
    }
    return { out: encode(tag, parts), used: offset - at };
  }
  let length = first;
  let header = 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count > 4) throw new DerError('unsupported BER length');
    length = 0;
    for (let i = 0; i < count; i += 1) {
      const b = input[at + 2 + i];
      if (b === undefined) throw new DerError('truncated BER length');
      length = length * 256 + b;
    }
    header += count;
  }
  const end = at + header + length;
  if (end > input.length) throw new DerError('BER value runs past its container');
  if (!constructed) {
    return { out: encode(tag, [input.subarray(at + header, end)]), used: end - at };
  }
  const parts: Uint8Array[] = [];
  for (let offset = at + header; offset < end;) {
    const child = readBer(input.subarray(0, end), offset, depth + 1, budget);
    parts.push(child.out);
    offset += child.used;
  }
  return { out: encode(tag, parts), used: end - at };
}

/** A TLV with a minimal definite length around `parts`. */
function encode(tag: number, parts: readonly Uint8Array[]): Uint8Array {
  const length = parts.reduce((n, p) => n + p.length, 0);
  const lengthBytes: number[] = [];
  if (length < 0x80) lengthBytes.push(length);
  else {
    for (let n = length; n > 0; n = Math.floor(n / 256)) lengthBytes.unshift(n & 0xff);
    lengthBytes.unshift(0x80 | lengthBytes.length);
  }
  const out = new Uint8Array(1 + lengthBytes.length + length);
  out[0] = tag;
  out.set(lengthBytes, 1);
  let offset = 1 + lengthBytes.length;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
