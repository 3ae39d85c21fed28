import {
  decodePDFRawStream,
  PDFArray,
  type PDFContext,
  type PDFDict,
  PDFName,
  PDFNull,
  PDFRawStream,
} from 'pdf-lib';

/**
 * Bounded decoding of PDF streams. A Flate layer expands up to 1032 times, and layers nest, so a
 * few kilobytes can stand for gigabytes: every layer is decoded under a byte limit and stops as
 * soon as it would pass it, whatever the input.
 */
export type Decoded =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; error: 'too-large' | 'unsupported' | 'corrupt'; detail: string };

/** Most filters in one chain: a receipt's streams use one FlateDecode. */
const MAX_LAYERS = 4;
/** Bytes asked of a decoder per read. */
const STEP = 64 * 1024;

class TooLarge extends Error {}

/**
 * The stream's data after its filters, or why it is refused: only FlateDecode (alone, or an
 * array of them) is read. DecodeParms (predictors) are refused unless `ignoreParams`, which
 * mirrors pdf-lib's own decoder for the streams it reads itself.
 */
export function decodeBounded(stream: PDFRawStream, limit: number, ignoreParams = false): Decoded {
  const layers = flateLayers(stream.dict, ignoreParams);
  if (typeof layers === 'string') return { ok: false, error: 'unsupported', detail: layers };
  let bytes = stream.contents;
  if (layers === 0 && bytes.length > limit) {
    return { ok: false, error: 'too-large', detail: 'raw data' };
  }
  try {
    for (let i = 0; i < layers; i += 1) bytes = inflate(stream.dict.context, bytes, limit);
  } catch (error) {
    if (error instanceof TooLarge) return { ok: false, error: 'too-large', detail: 'decoded data' };
    return { ok: false, error: 'corrupt', detail: 'the Flate data cannot be decoded' };
  }
  return { ok: true, bytes };
}

/** The number of FlateDecode layers of a stream, or why its filter chain is not read. */
export function flateLayers(dict: PDFDict, ignoreParams: boolean): number | string {
  const filter = dict.lookup(PDFName.of('Filter'));
  let names: unknown[];
  if (filter === undefined || filter === PDFNull) names = [];
  else if (filter instanceof PDFName) names = [filter];
  else if (filter instanceof PDFArray) {
    if (filter.size() > MAX_LAYERS) return `more than ${MAX_LAYERS} filters`;
    names = filter.asArray().map((_, i) => filter.lookup(i));
  } else return 'a malformed /Filter';
  for (const name of names) {
    if (name !== PDFName.of('FlateDecode')) {
      return `the ${nameOf(name)} filter is not supported (only FlateDecode is)`;
    }
  }
  if (!ignoreParams && !isAbsent(dict.lookup(PDFName.of('DecodeParms')))) {
    return '/DecodeParms (predictors) are not supported';
  }
  return names.length;
}

/**
 * No parameters: none at all, or an array of nulls (one per filter). An array's entries are
 * never arrays themselves, so they are not descended into: an array that holds itself (by
 * reference) would otherwise recurse without end.
 */
function isAbsent(params: unknown): boolean {
  const none = (value: unknown): boolean => value === undefined || value === PDFNull;
  if (none(params)) return true;
  if (!(params instanceof PDFArray) || params.size() > MAX_LAYERS) return false;
  return params.asArray().every((_, i) => none(params.lookup(i)));
}

/** A filter's name for a message: short and printable, whatever the file holds. */
function nameOf(value: unknown): string {
  if (!(value instanceof PDFName)) return 'non-name';
  // the encoded form, cut first: decodeText() spreads every character into one call
  const text = value
    .asString()
    .slice(1, 42)
    .replace(/[^\w.-]/g, '?');
  return `/${text.length > 40 ? `${text.slice(0, 40)}...` : text}`;
}

/** pdf-lib's decoders grow their output buffer through this (protected) method. */
type Growable = { ensureBuffer(requested: number): Uint8Array };

/**
 * One Flate layer, decoded with pdf-lib's decoder under `limit`. Its `getBytes(n)` alone is not
 * enough: it decodes a whole deflate block at a time, and one block may expand to gigabytes. So
 * the decoder's buffer growth is capped: it throws before allocating more than ~2 × limit. A
 * pdf-lib without that method is refused rather than decoded unbounded.
 */
function inflate(context: PDFContext, input: Uint8Array, limit: number): Uint8Array {
  const layer = PDFRawStream.of(context.obj({ Filter: 'FlateDecode' }), input);
  const stream = decodePDFRawStream(layer);
  const growable = stream as unknown as Partial<Growable>;
  if (typeof growable.ensureBuffer !== 'function') throw new Error('unbounded decoder');
  const grow = growable.ensureBuffer.bind(stream);
  growable.ensureBuffer = (requested: number): Uint8Array => {
    if (requested > limit + STEP) throw new TooLarge();
    return grow(requested);
  };
  let total = 0;
  for (;;) {
    const piece = stream.getBytes(STEP);
    total += piece.length;
    if (total > limit) throw new TooLarge();
    if (piece.length < STEP) break;
  }
  stream.reset();
  // A copy, so the decoder's larger buffer is not kept alive.
  return total === 0 ? new Uint8Array(0) : new Uint8Array(stream.getBytes(total));
}
