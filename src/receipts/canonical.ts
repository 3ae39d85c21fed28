import { createHash } from 'node:crypto';
import type { StoredReceipt } from './types.js';

/** The receipt without its own hash and signature: what the hash commits to. */
export type UnsignedReceipt = Omit<StoredReceipt, 'receiptHash' | 'receiptSignature'>;

/**
 * RFC 8785 JSON Canonicalization Scheme, written for the issuing path: one string built left to
 * right, no intermediate arrays of parts. (The `canonicalize` package, which the offline
 * verifier in packages/verify uses, allocated about a quarter of everything a request allocated.)
 *
 * - Primitives as ECMAScript JSON.stringify writes them (§3.2.2): numbers by Number::toString
 *   (-0 as 0), strings with JSON's escapes and every other code point as is.
 * - Object members sorted by their names' UTF-16 code units (§3.2.3), which is what the default
 *   Array.prototype.sort compares.
 * - Refused, with a TypeError: NaN and the infinities (no JSON form), strings holding a lone
 *   surrogate (§3.2.2.2: I-JSON strings are Unicode), BigInt, and nesting deeper than
 *   MAX_DEPTH (which is also how a circular value ends).
 * - As JSON.stringify: `toJSON` is applied; a member whose value is undefined, a function or a
 *   symbol is left out; such an array element is null.
 */

/** Deeper than any receipt; past it a value is refused (a cycle reaches it too). */
const MAX_DEPTH = 256;

/** A lone surrogate: with the u flag, a paired one is read as part of its code point. */
const LONE_SURROGATE = /\p{Cs}/u;

export function canonicalJson(value: unknown): string {
  const text = write(value, 0);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

function write(input: unknown, depth: number): string | undefined {
  const value = withToJson(input);
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} has no JSON representation`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('a BigInt has no JSON representation');
    case 'object':
      if (value === null) return 'null';
      if (depth >= MAX_DEPTH) throw new TypeError(`nested deeper than ${MAX_DEPTH} (or circular)`);
      return Array.isArray(value) ? writeArray(value, depth + 1) : writeObject(value, depth + 1);
    default:
      return undefined; // undefined, function, symbol
  }
}

function withToJson(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return (toJSON as () => unknown).call(value);
  }
  return value;
}

/** Printable ASCII but the quotation mark and reverse solidus: JSON.stringify copies these as is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function quote(text: string): string {
  // most of a receipt's strings (keys, ids, hashes, codes): nothing to escape, no surrogate
  if (PLAIN.test(text)) return `"${text}"`;
  if (LONE_SURROGATE.test(text)) throw new TypeError('a string holds a lone surrogate');
  return JSON.stringify(text);
}

function writeArray(items: readonly unknown[], depth: number): string {
  let out = '[';
  for (let i = 0; i < items.length; i += 1) {
    if (i > 0) out += ',';
    out += write(items[i], depth) ?? 'null';
  }
  return `${out}]`;
}

function writeObject(object: object, depth: number): string {
  const record = object as Record<string, unknown>;
  let out = '{';
  for (const key of sortedKeys(record)) {
    const text = write(record[key], depth);
    if (text === undefined) continue;
    out += out.length === 1 ? quote(key) : `,${quote(key)}`;
    out += `:${text}`;
  }
  return `${out}}`;
}

/** Past this many members, Array.prototype.sort (n log n); up to it, an insertion sort. */
const INSERTION_SORT_MAX = 16;

/**
 * An object's own enumerable keys in UTF-16 code-unit order (`<` on strings compares code units,
 * as the default sort does). A receipt's objects have a handful of members each: sorting them in
 * place allocates nothing, where the built-in sort allocated a work array per object (about 14 KB
 * per receipt).
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  if (keys.length > INSERTION_SORT_MAX) return keys.sort();
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j -= 1) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/** `sha256:<64 lowercase hex>` of the UTF-8 bytes of a string or of raw bytes. */
export function sha256Digest(data: string | Uint8Array): string {
  const hash = createHash('sha256');
  hash.update(data);
  return `sha256:${hash.digest('hex')}`;
}

/** The canonical receipt string: JCS of the receipt minus receiptHash and receiptSignature. */
export function canonicalReceipt(receipt: UnsignedReceipt | StoredReceipt): string {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { receiptHash, receiptSignature, ...unsigned } = receipt as StoredReceipt;
  return canonicalJson(unsigned);
}
