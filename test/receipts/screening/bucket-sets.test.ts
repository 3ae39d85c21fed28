import { describe, expect, it } from 'vitest';
import { BucketSets } from '../../../src/receipts/screening/bucket-sets.js';
import { popcount } from '../../../src/receipts/screening/token-shape.js';
import { prng } from '../../helpers/prng.js';

/** The bit-sliced count agrees with counting token by token, at every word edge. */
describe('BucketSets', () => {
  it('finds exactly the ids in range that share at least `least` buckets, ascending', () => {
    const random = prng(11);
    const bits = () => (random() < 0.5 ? 1 << Math.floor(random() * 32) : 0);
    const masks = Int32Array.from({ length: 300 }, () =>
      Array.from({ length: 12 }, bits).reduce((m, b) => m | b, 0),
    );
    masks[5] = -1; // all 32 buckets: the count overflows five planes
    const sets = new BucketSets(masks);
    for (let round = 0; round < 400; round += 1) {
      const mask = round === 0 ? -1 : Array.from({ length: 10 }, bits).reduce((m, b) => m | b, 0);
      const from = Math.floor(random() * 300);
      const to = from + Math.floor(random() * (301 - from));
      const least = Math.floor(random() * 8) - 1 + (round === 0 ? 30 : 0);
      const found: number[] = [];
      sets.sharing(mask, least, from, to, (id) => found.push(id));
      const expected: number[] = [];
      for (let id = from; id < to; id += 1) {
        if (popcount(mask & masks[id]!) >= least) expected.push(id);
      }
      expect(found).toEqual(expected);
    }
  });
});
