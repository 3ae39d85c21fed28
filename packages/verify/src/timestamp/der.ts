/**
 * A strict, bounded reader of ASN.1 DER (ITU-T X.690): enough to read RFC 3161 time-stamp tokens
 * (RFC 5652 SignedData) and the X.509 certificates in them. Definite lengths only, at most four
 * length bytes, nesting bounded; anything else is refused by throwing DerError, which the callers
 * turn into a verdict.
 */

export class DerError extends Error {
  override name = 'DerError';
}

export interface DerNode {
  /** The identifier octet (class, constructed bit and tag number < 31). */
  tag: number;
  /** The whole TLV, identifier and length included. */
  bytes: Uint8Array;
  /** The contents octets. */
  value: Uint8Array;
}

export const TAG = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  sequence: 0x30,
  set: 0x31,
  utcTime: 0x17,
  generalizedTime: 0x18,
} as const;

/** Context-specific tag `n`, constructed (`[n]` EXPLICIT or IMPLICIT over a constructed type). */
export const ctx = (n: number): number => 0xa0 | n;
/** Context-specific tag `n`, primitive (`[n]` IMPLICIT over a primitive type). */
export const ctxPrimitive = (n: number): number => 0x80 | n;

/** Reads the one TLV at `offset`; its end must lie within `input`. */
export function readNode(input: Uint8Array, offset = 0): DerNode {
  const tag = input[offset];
  const first = input[offset + 1];
  if (tag === undefined || first === undefined) throw new DerError('truncated DER');
  if ((tag & 0x1f) === 0x1f) throw new DerError('high tag numbers are not used here');
  let length = first;
  let header = 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4) throw new DerError('unsupported DER length');
    length = 0;
    for (let i = 0; i < count; i += 1) {
      const b = input[offset + 2 + i];
      if (b === undefined) throw new DerError('truncated DER length');
      length = length * 256 + b;
    }
    if (length < 0x80 || (count > 1 && input[offset + 2] === 0)) {
      throw new DerError('non-minimal DER length');
    }
    header += count;
  }
  const end = offset + header + length;
  if (end > input.length) throw new DerError('DER value runs past its container');
  return {
    tag,
    bytes: input.subarray(offset, end),
    value: input.subarray(offset + header, end),
  };
}

/** The single TLV that makes up `input` exactly. */
export function readWhole(input: Uint8Array): DerNode {
  const node = readNode(input);
  if (node.bytes.length !== input.length) throw new DerError('trailing bytes after DER value');
  return node;
}

/** The children of a constructed node (at most `max`). */
export function children(node: DerNode, max = 64): DerNode[] {
  if ((node.tag & 0x20) === 0) throw new DerError('not a constructed DER value');
  const out: DerNode[] = [];
  for (let offset = 0; offset < node.value.length;) {
    if (out.length >= max) throw new DerError('too many DER elements');
    const child = readNode(node.value, offset);
    out.push(child);
    offset += child.bytes.length;
  }
  return out;
}

/** `node` must carry `tag`; returns it. */
export function expect(node: DerNode | undefined, tag: number, what: string): DerNode {
  if (!node || node.tag !== tag) throw new DerError(`${what}: unexpected DER`);
  return node;
}

/** Children of a SEQUENCE (or another constructed tag) checked for its tag. */
export function sequence(node: DerNode | undefined, what: string, tag: number = TAG.sequence) {
  return children(expect(node, tag, what));
}

/** The dotted form of an OBJECT IDENTIFIER. */
export function oidOf(node: DerNode | undefined): string {
  const value = expect(node, TAG.oid, 'object identifier').value;
  if (value.length === 0 || value.length > 64) throw new DerError('bad object identifier');
  const arcs: number[] = [];
  let n = 0;
  for (const [i, b] of value.entries()) {
    if (n === 0 && b === 0x80) throw new DerError('non-minimal object identifier');
    n = n * 128 + (b & 0x7f);
    if (n > Number.MAX_SAFE_INTEGER / 128) throw new DerError('object identifier arc too large');
    if ((b & 0x80) === 0) {
      if (arcs.length === 0)
        arcs.push(Math.min(2, Math.floor(n / 40)), n - 40 * Math.min(2, Math.floor(n / 40)));
      else arcs.push(n);
      n = 0;
    } else if (i === value.length - 1) {
      throw new DerError('truncated object identifier');
    }
  }
  return arcs.join('.');
}

/** An INTEGER's contents as unsigned big-endian bytes (leading zero dropped); negatives refused. */
export function unsignedInteger(node: DerNode | undefined): Uint8Array {
  const value = expect(node, TAG.integer, 'integer').value;
  if (value.length === 0 || (value[0] ?? 0) & 0x80) throw new DerError('negative or empty integer');
  return value[0] === 0 && value.length > 1 ? value.subarray(1) : value;
}

export function smallInteger(node: DerNode | undefined): number {
  const bytes = unsignedInteger(node);
  if (bytes.length > 6) throw new DerError('integer too large');
  return bytes.reduce((n, b) => n * 256 + b, 0);
}

/** A GeneralizedTime (RFC 3161 genTime: fractions allowed) or UTCTime (RFC 5280 validity). */
export function timeOf(node: DerNode | undefined): Date {
  if (!node) throw new DerError('time: missing');
  const text = new TextDecoder().decode(node.value);
  const match =
    node.tag === TAG.generalizedTime
      ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\.\d{1,9})?Z$/.exec(text)
      : node.tag === TAG.utcTime
        ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})()Z$/.exec(text)
        : null;
  if (!match) throw new DerError('time: not a DER GeneralizedTime or UTCTime');
  const [, y = '', mo = '', d = '', h = '', mi = '', s = '', frac = ''] = match;
  let year = Number(y);
  if (node.tag === TAG.utcTime) year += year >= 50 ? 1900 : 2000;
  const ms = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0;
  const date = new Date(
    Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms),
  );
  if (Number.isNaN(date.getTime())) throw new DerError('time: invalid date');
  return date;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
