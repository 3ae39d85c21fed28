/**
 * The vocabulary's character buckets (see vocabulary.ts) turned around: per bucket, the set of
 * tokens that have it, 32 token ids per 32-bit word. Counting, for 32 tokens at once, how many of
 * a subject token's buckets each has is a few bitwise operations per bucket (a bit-sliced
 * counter), instead of a bit count and a comparison per token.
 */
export class BucketSets {
  private readonly words: number;
  private readonly sets: Uint32Array;

  /** `masks[id]`: the buckets token `id` has, as a 32-bit mask. */
  constructor(masks: Int32Array) {
    this.words = (masks.length + 31) >>> 5;
    this.sets = new Uint32Array(32 * this.words);
    masks.forEach((mask, id) => {
      for (let b = 0; b < 32; b += 1) {
        if (mask & (1 << b)) this.sets[b * this.words + (id >>> 5)]! |= 1 << (id & 31);
      }
    });
  }

  /**
   * Calls `found(id)`, in ascending order, for every id in [from, to) that has at least `least`
   * of the buckets in `mask`.
   */
  sharing(mask: number, least: number, from: number, to: number, found: (id: number) => void) {
    if (from >= to) return;
    const buckets: number[] = [];
    for (let b = 0; b < 32; b += 1) if (mask & (1 << b)) buckets.push(b * this.words);
    if (least > buckets.length) return;
    const { sets } = this;
    for (let w = from >>> 5, last = (to - 1) >>> 5; w <= last; w += 1) {
      // six bit planes: a count of up to 32 buckets, bit i of each token's count in plane i
      const planes = [0, 0, 0, 0, 0, 0];
      for (const base of buckets) {
        let carry = sets[base + w]!;
        for (let i = 0; i < 6 && carry !== 0; i += 1) {
          const next = planes[i]! & carry;
          planes[i]! ^= carry;
          carry = next;
        }
      }
      let hits = atLeast(planes, least) & wordRange(w, from, to);
      while (hits !== 0) {
        const low = hits & -hits;
        found((w << 5) + 31 - Math.clz32(low));
        hits ^= low;
      }
    }
  }
}

/** The tokens of a word whose bit-sliced count is >= least (least >= 0). */
function atLeast(planes: readonly number[], least: number): number {
  if (least <= 0) return -1;
  if (least >= 64) return 0;
  let greater = 0;
  let equal = -1;
  for (let i = 5; i >= 0; i -= 1) {
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
