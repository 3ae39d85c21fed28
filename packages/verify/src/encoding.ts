/**
 * Byte encodings for the offline verifier, without Node's Buffer (the same code runs in the
 * browser). Decoders are strict: one value has exactly one accepted spelling, anything else is
 * `undefined`.
 */

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Lowercase hex of an even length, or undefined. */
export function fromHex(text: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) return undefined;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i += 1)
    out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k += 1) out += alphabet[(n >> (18 - 6 * k)) & 63];
    if (pad) out += '='.repeat(4 - chars);
  }
  return out;
}

function decode(text: string, alphabet: string, pad: boolean): Uint8Array | undefined {
  const body = pad ? text.replace(/={1,2}$/, '') : text;
  if (pad && text.length % 4 !== 0) return undefined;
  if (body.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((body.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let o = 0;
  for (const ch of body) {
    const v = alphabet.indexOf(ch);
    if (v < 0) return undefined;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >> bits) & 0xff;
    }
  }
  // the leftover bits must be zero, or two spellings would decode to the same bytes
  if ((value & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

export const base64 = (bytes: Uint8Array): string => encode(bytes, B64, true);
export const fromBase64 = (text: string): Uint8Array | undefined => decode(text, B64, true);
export const base64url = (bytes: Uint8Array): string => encode(bytes, B64URL, false);
export const fromBase64url = (text: string): Uint8Array | undefined => decode(text, B64URL, false);

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
