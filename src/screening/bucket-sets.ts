import { BUCKETS, type Shape } from './token-shape.js';

/** Occurrences of a bucket counted one by one; further ones are left to the caller's slack. */
const OCCURRENCES = 2;
/** Bit planes of the counter: counts up to 127, more than BUCKETS x OCCURRENCES. */
const COUNTER_BITS = 7;

/**
 * The vocabulary's character buckets (see token-shape.ts) turned around: per bucket and
 * occurrence (first, second), the set of tokens that have it, 32 token ids per 32-bit word.
 * Counting, for 32 tokens at once, how many characters each shares with a subject token is a few
 * bitwise operations per character (a bit-sliced counter) instead of a loop per token: the count
 * is sum over buckets of min(x's count, the token's count, 2), at most the characters shared and
 * short of it by no more than x's characters past the second of a bucket (`Query.beyond`).
 */
export class BucketSets {
  private readonly words: number;
  private readonly sets: Uint32Array;

  /** `counts[id * BUCKETS + b]`: the characters token `id` has in bucket b. */
  constructor(counts: Uint8Array) {
    const size = counts.length / BUCKETS;
    this.words = (size + 31) >>> 5;
    this.sets = new Uint32Array(BUCKETS * OCCURRENCES * this.words);
    for (let id = 0; id < size; id += 1) {
      for (let b = 0; b < BUCKETS; b += 1) {
        const count = Math.min(counts[id * BUCKETS + b]!, OCCURRENCES);
        for (let o = 0; o < count; o += 1) {
          this.sets[(b * OCCURRENCES + o) * this.words + (id >>> 5)]! |= 1 << (id & 31);
        }
      }
    }
  }

  /** The sets a token of this shape is counted against, and its characters they leave out. */
  query(shape: Shape): Query {
    const sets: number[] = [];
    let beyond = 0;
    for (const b of shape.buckets) {
      const count = shape.counts[b]!;
      for (let o = 0; o < Math.min(count, OCCURRENCES); o += 1) {
        sets.push((b * OCCURRENCES + o) * this.words);
      }
      beyond += Math.max(0, count - OCCURRENCES);
    }
    return { sets, beyond };
  }

  /**
   * Calls `found(id)`, in ascending order, for every id in [from, to) whose count against
   * `query` is at least `least` - `query.beyond`: every token sharing at least `least`
   * characters with the query's token is found (and some sharing fewer).
   */
  sharing(query: Query, least: number, from: number, to: number, found: (id: number) => void) {
    const needed = least - query.beyond;
    if (from >= to || needed > query.sets.length) return;
    const { sets } = this;
    for (let w = from >>> 5, last = (to - 1) >>> 5; w <= last; w += 1) {
      // bit i of each token's count in p<i> (a ripple-carry counter, stopped when nothing carries)
      // (seven locals, not an array: nothing allocated per word)
      let p0 = 0;
      let p1 = 0;
      let p2 = 0;
      let p3 = 0;
      let p4 = 0;
      let p5 = 0;
      let p6 = 0;
      for (const base of query.sets) {
        let carry = sets[base + w]!;
        let next = p0 & carry;
        p0 ^= carry;
        if ((carry = next) === 0) continue;
        next = p1 & carry;
        p1 ^= carry;
        if ((carry = next) === 0) continue;
        next = p2 & carry;
        p2 ^= carry;
        if ((carry = next) === 0) continue;
        next = p3 & carry;
        p3 ^= carry;
        if ((carry = next) === 0) continue;
        next = p4 & carry;
        p4 ^= carry;
        if ((carry = next) === 0) continue;
        next = p5 & carry;
        p5 ^= carry;
        p6 ^= next;
      }
      let hits = atLeast([p0, p1, p2, p3, p4, p5, p6], needed) & wordRange(w, from, to);
      while (hits !== 0) {
        const low = hits & -hits;
        found((w << 5) + 31 - Math.clz32(low));
        hits ^= low;
      }
    }
  }
}

/** What `BucketSets.sharing` counts a token against (from `BucketSets.query`). */
export interface Query {
  /** Offsets of the sets of the token's buckets and occurrences. */
  sets: number[];
  /** The token's characters past the second of their bucket: not counted. */
  beyond: number;
}

/** The tokens of a word whose bit-sliced count is >= least. */
function atLeast(planes: readonly number[], least: number): number {
  if (least <= 0) return -1;
  if (least >= 1 << COUNTER_BITS) return 0;
  let greater = 0;
  let equal = -1;
  for (let i = COUNTER_BITS - 1; i >= 0; i -= 1) {
    const plane = planes[i]!;
    if (least & (1 << i)) equal &= plane;
    else {
      greater |= equal & plane;
      equal &= ~plane;
    }
  }
  return greater | equal;
}

/** Bits of word `w` whose ids lie in [from, to). */
function wordRange(w: number, from: number, to: number): number {
  const start = w << 5;
  const low = from > start ? -1 << (from - start) : -1;
  const high = to - start < 32 ? (1 << (to - start)) - 1 : -1;
  return low & high;
}
