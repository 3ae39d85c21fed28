import { describe, expect, it } from 'vitest';
import { BucketSets } from '../../src/screening/bucket-sets.js';
import { BUCKETS, shapeOf } from '../../src/screening/token-shape.js';
import { prng } from '../helpers/prng.js';

/**
 * The bit-sliced count agrees with counting token by token, at every word edge: every token
 * sharing at least `least` characters (by bucket) is found, and no token whose count with each
 * bucket's occurrences capped at two falls short.
 */
describe('BucketSets', () => {
  it('finds the ids in range sharing at least `least` characters, ascending', () => {
    const random = prng(11);
    const letters = 'aabbcdeeeefghijklmnopqrstuvwxyz0123456789';
    const word = (max: number) =>
      Array.from(
        { length: 1 + Math.floor(random() * max) },
        () => letters[Math.floor(random() * letters.length)]!,
      ).join('');
    const tokens = Array.from({ length: 300 }, (_, id) =>
      id === 5 ? letters.repeat(2) : word(12),
    );
    const counts = new Uint8Array(tokens.length * BUCKETS);
    tokens.forEach((t, id) => shapeOf(t, counts.subarray(id * BUCKETS, (id + 1) * BUCKETS)));
    const sets = new BucketSets(counts);
    for (let round = 0; round < 400; round += 1) {
      const shape = shapeOf(round === 0 ? letters.repeat(3) : word(16));
      const from = Math.floor(random() * 300);
      const to = from + Math.floor(random() * (301 - from));
      const least = Math.floor(random() * 10) - 1 + (round === 0 ? 60 : 0);
      const found: number[] = [];
      sets.sharing(sets.query(shape), least, from, to, (id) => found.push(id));
      const shared = (id: number, cap: number) =>
        shape.buckets.reduce(
          (sum, b) => sum + Math.min(shape.counts[b]!, counts[id * BUCKETS + b]!, cap),
          0,
        );
      const beyond = shape.buckets.reduce((sum, b) => sum + Math.max(0, shape.counts[b]! - 2), 0);
      for (let id = from; id < to; id += 1) {
        if (shared(id, Infinity) >= least) expect(found).toContain(id);
      }
      const expected: number[] = [];
      for (let id = from; id < to; id += 1) if (shared(id, 2) >= least - beyond) expected.push(id);
      expect(found).toEqual(expected);
    }
  });
});
