import { LogError } from './errors.js';
import { TILE_HEIGHT, TILE_WIDTH, type TileRef } from './tile-path.js';

/**
 * The log's C2SP tlog-tiles resources. A hash tile at level L is a run of stored perfect-subtree
 * hashes at tree level 8L (level 0: the leaf hashes), so tiles are materialised by the seal that
 * writes those nodes: a tile read is one range lookup and no hashing. The store holds nodes and
 * positioned entries only up to the latest checkpoint's size (a seal writes them in the same
 * transaction as its checkpoint), so "fewer rows than the width" is exactly "not in the tree".
 */

/** The reads the tile API needs, implemented by `src/storage/log.ts`. */
export interface TileStore {
  /** Hashes at tree `level`, indexes `start` .. `start + count - 1`, in order; fewer if absent. */
  nodeRange(level: number, start: number, count: number): Promise<Uint8Array[]>;
  /** Entry data at leaf indexes `start` .. `start + count - 1`, in order; fewer if absent. */
  entryRange(start: number, count: number): Promise<Uint8Array[]>;
}

/** Full tiles kept in memory (immutable, so never stale): 512 x 8 KiB = 4 MiB at most. */
const FULL_TILE_CACHE = 512;

/** A log entry's data is at most 65535 bytes (a uint16 length prefix in entry bundles). */
const MAX_ENTRY_BYTES = 0xffff;

export class TileReader {
  private readonly cache = new Map<string, Uint8Array>();

  constructor(private readonly store: TileStore) {}

  /** The tile's bytes; `tile_not_found` when the tree does not (yet) hold all of it. */
  async read(ref: TileRef): Promise<Uint8Array> {
    const key = `${ref.kind === 'entries' ? 'e' : ref.level}/${ref.index}/${ref.width}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const start = ref.index * TILE_WIDTH;
    if (!Number.isSafeInteger(start + TILE_WIDTH)) throw notFound(ref);
    const items =
      ref.kind === 'entries'
        ? await this.store.entryRange(start, ref.width)
        : await this.store.nodeRange(ref.level * TILE_HEIGHT, start, ref.width);
    if (items.length !== ref.width) throw notFound(ref);
    const bytes = ref.kind === 'entries' ? entryBundle(items) : concatHashes(items);
    if (ref.width === TILE_WIDTH) this.remember(key, bytes);
    return bytes;
  }

  private remember(key: string, bytes: Uint8Array): void {
    if (this.cache.size >= FULL_TILE_CACHE) {
      const oldest = this.cache.keys().next().value as string;
      this.cache.delete(oldest);
    }
    this.cache.set(key, bytes);
  }
}

function notFound(ref: TileRef): LogError {
  const what = ref.kind === 'entries' ? 'entry bundle' : `level ${ref.level} tile`;
  return new LogError(
    'tile_not_found',
    `the log holds no ${what} ${ref.index} of width ${ref.width}`,
  );
}

function concatHashes(hashes: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * 32);
  hashes.forEach((hash, i) => {
    if (hash.length !== 32) throw new LogError('malformed_hash', 'a stored node is not 32 bytes');
    out.set(hash, i * 32);
  });
  return out;
}

/** tlog-tiles entry bundle: each entry as a big-endian uint16 length and its bytes. */
export function entryBundle(entries: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(entries.reduce((n, entry) => n + 2 + entry.length, 0));
  let at = 0;
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_BYTES) throw new LogError('invalid_argument', 'entry too long');
    out[at] = entry.length >> 8;
    out[at + 1] = entry.length & 0xff;
    out.set(entry, at + 2);
    at += 2 + entry.length;
  }
  return out;
}
