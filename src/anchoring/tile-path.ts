import { LogError } from './errors.js';

/**
 * C2SP tlog-tiles resource paths: `tile/<L>/<N>[.p/<W>]` and `tile/entries/<N>[.p/<W>]`, where
 * `<N>` is split into zero-padded 3-digit elements, all but the last prefixed with `x`
 * (1234067 -> `x001/x234/067`), `<L>` is 0..63 and `<W>` 1..255, both without leading zeroes.
 * Parsing accepts only the canonical spelling: any other is `invalid_tile_path`.
 */

/** Tile height: a tile holds 2^8 = 256 hashes. */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 1 << TILE_HEIGHT;
export const MAX_TILE_LEVEL = 63;

export type TileRef =
  | { kind: 'hashes'; level: number; index: number; width: number }
  | { kind: 'entries'; index: number; width: number };

/** Index elements beyond this would exceed Number.MAX_SAFE_INTEGER (a log that size is absurd). */
const MAX_INDEX_ELEMENTS = 5;

const DECIMAL = /^(0|[1-9][0-9]*)$/;

function invalid(path: string, why: string): LogError {
  return new LogError('invalid_tile_path', `not a tile path (${why}): ${path.slice(0, 100)}`);
}

/** The `<N>` encoding of `index`. */
export function encodeTileIndex(index: number): string {
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((group, i) => (i < groups.length - 1 ? `x${group}` : group)).join('/');
}

/** The path of a tile below the log prefix, e.g. `tile/1/x001/234.p/17`. */
export function tilePath(ref: TileRef): string {
  const level = ref.kind === 'entries' ? 'entries' : String(ref.level);
  const partial = ref.width === TILE_WIDTH ? '' : `.p/${ref.width}`;
  return `tile/${level}/${encodeTileIndex(ref.index)}${partial}`;
}

/** Parses the part after `tile/`: `<L>/<N>[.p/<W>]` or `entries/<N>[.p/<W>]`. */
export function parseTilePath(path: string): TileRef {
  const elements = path.split('/');
  const head = elements.shift() ?? '';
  let width = TILE_WIDTH;
  if (elements.length >= 2 && elements.at(-2)?.endsWith('.p')) {
    const w = elements.pop() as string;
    if (!DECIMAL.test(w) || Number(w) < 1 || Number(w) >= TILE_WIDTH) {
      throw invalid(path, 'the partial width must be 1 to 255');
    }
    width = Number(w);
    const last = elements.pop() as string;
    elements.push(last.slice(0, -2));
  }
  const index = parseIndex(elements, path);
  if (head === 'entries') return { kind: 'entries', index, width };
  if (!DECIMAL.test(head) || Number(head) > MAX_TILE_LEVEL) {
    throw invalid(path, 'the level must be 0 to 63');
  }
  return { kind: 'hashes', level: Number(head), index, width };
}

function parseIndex(elements: string[], path: string): number {
  if (elements.length === 0 || elements.length > MAX_INDEX_ELEMENTS) {
    throw invalid(path, 'bad index');
  }
  let index = 0;
  for (const [i, element] of elements.entries()) {
    const last = i === elements.length - 1;
    const digits = last ? element : element.startsWith('x') ? element.slice(1) : '';
    if (!/^[0-9]{3}$/.test(digits)) throw invalid(path, 'index elements are x-prefixed 3 digits');
    index = index * 1000 + Number(digits);
  }
  if (elements.length > 1 && elements[0] === 'x000') {
    throw invalid(path, 'the index has a leading zero element');
  }
  return index;
}
