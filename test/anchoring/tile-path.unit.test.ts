import { describe, expect, it } from 'vitest';
import {
  encodeTileIndex,
  parseTilePath,
  tilePath,
  type TileRef,
} from '../../src/anchoring/tile-path.js';
import { ServiceError } from '../../src/errors.js';

describe('tlog-tiles paths (c2sp.org/tlog-tiles)', () => {
  it('encodes the index as the spec example does', () => {
    expect(encodeTileIndex(1234067)).toBe('x001/x234/067');
    expect(encodeTileIndex(0)).toBe('000');
    expect(encodeTileIndex(999)).toBe('999');
    expect(encodeTileIndex(1000)).toBe('x001/000');
  });

  it('writes and reads hash tiles, entry bundles and partial widths', () => {
    const refs: [TileRef, string][] = [
      [{ kind: 'hashes', level: 0, index: 0, width: 256 }, 'tile/0/000'],
      [{ kind: 'hashes', level: 1, index: 1234067, width: 17 }, 'tile/1/x001/x234/067.p/17'],
      [{ kind: 'hashes', level: 63, index: 5, width: 255 }, 'tile/63/005.p/255'],
      [{ kind: 'entries', index: 273, width: 112 }, 'tile/entries/273.p/112'],
      [{ kind: 'entries', index: 1000, width: 256 }, 'tile/entries/x001/000'],
    ];
    for (const [ref, path] of refs) {
      expect(tilePath(ref)).toBe(path);
      expect(parseTilePath(path.slice('tile/'.length))).toEqual(ref);
    }
  });

  it.each([
    ['0/1', 'index element not 3 digits'],
    ['0/0001', 'index element of 4 digits'],
    ['0/x001', 'last element with x'],
    ['0/001/002', 'inner element without x'],
    ['0/x000/001', 'leading zero element'],
    ['00/000', 'level with a leading zero'],
    ['64/000', 'level over 63'],
    ['-1/000', 'negative level'],
    ['a/000', 'level not decimal'],
    ['0/000.p/0', 'width 0'],
    ['0/000.p/256', 'width 256 (a full tile has no .p)'],
    ['0/000.p/01', 'width with a leading zero'],
    ['0/000.p/', 'empty width'],
    ['0/000.p', 'no width'],
    ['0/', 'no index'],
    ['0', 'no index at all'],
    ['', 'empty'],
    ['entries/', 'entries without index'],
    ['entries/000/extra', 'trailing element'],
    ['0/x001/x002/x003/x004/x005/006', 'an index past 2^53'],
    ['0/%30%30%30', 'percent-encoded digits'],
  ])('refuses %s (%s)', (path) => {
    let error: unknown;
    try {
      parseTilePath(path);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe('invalid_tile_path');
  });
});
