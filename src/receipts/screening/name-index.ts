import {
  jaroWinkler,
  MAX_ALIGNED_TOKENS,
  prefixEditDistance,
  similarityAtLeast,
  TOKEN_MATCH_FLOOR,
} from './similarity.js';

/**
 * An exact candidate filter for screening: given a subject, the names of a list that can reach a
 * score threshold; every other name provably scores below it, so scoring only the candidates
 * gives the same matches as scoring every name (test/receipts/screening/name-index.test.ts
 * checks that against the full scan).
 *
 * Why it is exact: `nameSimilarity` scores 0 unless some pair of tokens aligns, and a pair aligns
 * only when it is (a) a subject token and a listed token with Jaro-Winkler >= 0.85, (b) two joined
 * subject tokens and a listed token with Levenshtein similarity >= 0.85, or (c) a subject token
 * and two joined listed tokens y1 y2 with Levenshtein similarity >= 0.85, in which case y1 is
 * within that many edits of a prefix of the subject token. Every listed token (the vocabulary,
 * usually far smaller than the list) is tested once per subject token for (a), (b) and (c) with
 * exact necessary conditions first (lengths, shared characters), the similarity itself after. A
 * name is then a candidate only if it holds a partner token and, counting which subject tokens
 * its partners can cover, it could still leave few enough tokens unaligned to reach the threshold.
 */

const BUCKETS = 32;
/** a-z in their own buckets, everything else in six shared ones (a merge only over-counts). */
const bucketOf = (code: number): number =>
  code >= 97 && code <= 122 ? code - 97 : 26 + (code % 6);

interface Shape {
  length: number;
  /** The buckets present, as a bit mask, and how many there are. */
  mask: number;
  distinct: number;
  counts: Uint8Array;
  /** The buckets present, for loops over the shape's own buckets only. */
  buckets: number[];
}

function shapeOf(token: string, counts = new Uint8Array(BUCKETS)): Shape {
  for (let i = 0; i < token.length; i += 1) {
    const b = bucketOf(token.charCodeAt(i));
    if (counts[b]! < 255) counts[b]! += 1;
  }
  const buckets: number[] = [];
  let mask = 0;
  for (let b = 0; b < BUCKETS; b += 1) {
    if (counts[b]! > 0) {
      buckets.push(b);
      mask |= 1 << b;
    }
  }
  return { length: token.length, mask, distinct: buckets.length, counts, buckets };
}

/**
 * Jaro-Winkler with a common prefix of l (<= 4) characters is j + 0.1 l (1 - j), so reaching
 * 0.85 needs Jaro j >= (0.85 - 0.1 l) / (1 - 0.1 l), and Jaro <= (m / lx + m / ly + 1) / 3 then
 * needs m / lx + m / ly >= 3 j - 1: 1.55, 1.5, 1.4375, 1.357.., 1.25 for l = 0..4. As integer
 * ratios NEED_NUM[l] / NEED_DEN, rounded down (a looser bound, never a stricter one).
 */
const NEED_DEN = 1000;
const NEED_NUM = [0, 1, 2, 3, 4].map((l) => {
  const jaro = (TOKEN_MATCH_FLOOR - 0.1 * l) / (1 - 0.1 * l);
  return Math.floor((3 * jaro - 1) * NEED_DEN - 1e-6);
});

function popcount(v: number): number {
  let n = v - ((v >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Edits Levenshtein similarity >= TOKEN_MATCH_FLOOR allows a joined pair against `length`. */
function joinEdits(length: number): number {
  return Math.floor((length * (1 - TOKEN_MATCH_FLOOR)) / TOKEN_MATCH_FLOOR + 1e-9);
}

export class NameIndex {
  private readonly vocabulary: string[] = [];
  private readonly ids = new Map<string, number>();
  private lengths = new Uint16Array(0);
  private masks = new Int32Array(0);
  private distinct = new Uint8Array(0);
  private counts = new Uint8Array(0);
  /** The first four UTF-16 code units of each token (0 past its end): the Winkler prefix. */
  private heads = new Uint16Array(0);
  /** Names holding each vocabulary token, ascending (CSR: offsets into `names`). */
  private offsets = new Int32Array(1);
  private holders = new Int32Array(0);
  private readonly nameLengths: Uint16Array;
  /** Scratch for `namesOf`: subject tokens each name's partners cover (all zero when idle). */
  private readonly covered: Int32Array;

  /** `names[i]` is the normalised tokens of name i; candidates are returned as these indices. */
  constructor(names: readonly (readonly string[])[]) {
    this.nameLengths = new Uint16Array(names.length);
    this.covered = new Int32Array(names.length);
    const held: number[][] = [];
    names.forEach((tokens, nameId) => {
      this.nameLengths[nameId] = Math.min(tokens.length, 0xffff);
      for (const token of new Set(tokens)) {
        let id = this.ids.get(token);
        if (id === undefined) {
          id = this.vocabulary.length;
          this.ids.set(token, id);
          this.vocabulary.push(token);
          held.push([]);
        }
        held[id]!.push(nameId);
      }
    });
    this.pack(this.byLength(held));
  }

  /** Renumbers the vocabulary shortest first, so a band of lengths is a range of ids. */
  private byLength(held: number[][]): number[][] {
    const order = this.vocabulary.map((_, id) => id);
    order.sort((a, b) => this.vocabulary[a]!.length - this.vocabulary[b]!.length || a - b);
    const tokens = order.map((id) => this.vocabulary[id]!);
    tokens.forEach((token, id) => {
      this.vocabulary[id] = token;
      this.ids.set(token, id);
    });
    return order.map((id) => held[id]!);
  }

  /** The ids of the tokens whose length is in [min, max] (ids are sorted by length). */
  private lengthRange(min: number, max: number): [number, number] {
    const { lengths } = this;
    const first = (length: number) => {
      let lo = 0;
      let hi = lengths.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (lengths[mid]! < length) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return [first(Math.max(min, 0)), first(max + 1)];
  }

  private pack(held: number[][]): void {
    const size = this.vocabulary.length;
    this.lengths = new Uint16Array(size);
    this.masks = new Int32Array(size);
    this.distinct = new Uint8Array(size);
    this.counts = new Uint8Array(size * BUCKETS);
    this.heads = new Uint16Array(size * 4);
    this.offsets = new Int32Array(size + 1);
    let total = 0;
    for (let id = 0; id < size; id += 1) {
      const token = this.vocabulary[id]!;
      const shape = shapeOf(token, this.counts.subarray(id * BUCKETS, (id + 1) * BUCKETS));
      this.lengths[id] = Math.min(token.length, 0xffff);
      for (let k = 0; k < 4 && k < token.length; k += 1)
        this.heads[id * 4 + k] = token.charCodeAt(k);
      this.masks[id] = shape.mask;
      this.distinct[id] = shape.distinct;
      total += held[id]!.length;
      this.offsets[id + 1] = total;
    }
    this.holders = new Int32Array(total);
    for (let id = 0; id < size; id += 1) this.holders.set(held[id]!, this.offsets[id]!);
  }

  get vocabularySize(): number {
    return this.vocabulary.length;
  }

  /**
   * The names (ascending indices) that may score at least `threshold` against `subject` (sorted
   * normalised tokens); every other name scores below it.
   */
  candidates(subject: readonly string[], threshold: number): number[] {
    const x = subject.slice(0, MAX_ALIGNED_TOKENS);
    if (x.length === 0) return [];
    const partners = new Map<number, number>();
    const add = (id: number, bits: number) => partners.set(id, (partners.get(id) ?? 0) | bits);
    x.forEach((token, k) => this.tokenPartners(token, 1 << k, add));
    for (let i = 0; i < x.length; i += 1) {
      for (let j = 0; j < x.length; j += 1) {
        if (i !== j) this.joinedSubjectPartners(`${x[i]}${x[j]}`, (1 << i) | (1 << j), add);
      }
    }
    return this.namesOf(partners, subject.length, threshold);
  }

  /** Names holding partners, kept when their partners could cover enough subject tokens. */
  private namesOf(partners: Map<number, number>, p: number, threshold: number): number[] {
    // bit masks per name in a scratch array (zero between calls), and the names touched
    const covered = this.covered;
    const touched: number[] = [];
    for (const [id, bits] of partners) {
      for (let at = this.offsets[id]!; at < this.offsets[id + 1]!; at += 1) {
        const nameId = this.holders[at]!;
        if (covered[nameId] === 0) touched.push(nameId);
        covered[nameId]! |= bits;
      }
    }
    const out: number[] = [];
    for (const nameId of touched) {
      // covered <= aligned tokens <= (p - unaligned subject tokens) + q
      const unaligned = p - popcount(covered[nameId]!);
      covered[nameId] = 0;
      if (unaligned <= (1 - threshold) * (p + this.nameLengths[nameId]!) + 1e-9) out.push(nameId);
    }
    return out.sort((a, b) => a - b);
  }

  /**
   * (a) single-token partners and (c) first parts of a joined listed pair, of one token: one
   * pass over the vocabulary with the cheap necessary conditions inlined (this loop is what a
   * screening costs).
   */
  private tokenPartners(x: string, bits: number, add: (id: number, bits: number) => void): void {
    const shape = shapeOf(x);
    const lx = x.length;
    const edits = joinEdits(lx);
    // (c) compares y with the first |y| + edits characters of x: their shapes, by length
    const prefixes = Array.from({ length: lx + 1 }, (_, n) =>
      n === lx ? shape : shapeOf(x.slice(0, n)),
    );
    const { lengths, masks, distinct, counts, heads, vocabulary } = this;
    const x0 = x.charCodeAt(0);
    const x1 = lx > 1 ? x.charCodeAt(1) : -1;
    const x2 = lx > 2 ? x.charCodeAt(2) : -1;
    const x3 = lx > 3 ? x.charCodeAt(3) : -1;
    const xMask = shape.mask;
    const xBuckets = shape.buckets;
    const xCounts = shape.counts;
    const xRepeats = lx - shape.distinct;
    for (let id = 0; id < vocabulary.length; id += 1) {
      const ly = lengths[id]!;
      // (a) see NEED: m / lx + m / ly >= NEED[l] for the m matching characters, all shared
      const h = id * 4;
      const l =
        heads[h] !== x0
          ? 0
          : heads[h + 1] !== x1
            ? 1
            : heads[h + 2] !== x2
              ? 2
              : heads[h + 3] !== x3
                ? 3
                : 4;
      const need = NEED_NUM[l]! * lx * ly;
      const scale = NEED_DEN * (lx + ly);
      const repeats = ly - distinct[id]!;
      let rough = popcount(xMask & masks[id]!) + (xRepeats < repeats ? xRepeats : repeats);
      if (rough > lx) rough = lx;
      if (rough > ly) rough = ly;
      if (scale * rough >= need) {
        let shared = 0;
        const base = id * BUCKETS;
        for (let k = 0; k < xBuckets.length; k += 1) {
          const b = xBuckets[k]!;
          const c = counts[base + b]!;
          const d = xCounts[b]!;
          shared += c < d ? c : d;
        }
        if (scale * shared >= need && jaroWinkler(x, vocabulary[id]!) >= TOKEN_MATCH_FLOOR) {
          add(id, bits);
          continue;
        }
      }
      // (c) y1 of a joined y1 y2 close to x is within `edits` of a prefix of x
      if (ly <= lx + edits - 1 && (edits > 0 || l >= (ly < 4 ? ly : 4))) {
        const prefix = prefixes[ly + edits < lx ? ly + edits : lx]!;
        if (this.startsJoin(x, prefix, id, edits)) add(id, bits);
      }
    }
  }

  /**
   * Whether token `id` is within `edits` of a prefix of `x`: it shares at least |y| - edits
   * characters with `prefix` (the first |y| + edits characters of x), then the edit distance.
   */
  private startsJoin(x: string, prefix: Shape, id: number, edits: number): boolean {
    const need = this.lengths[id]! - edits;
    const shared = popcount(prefix.mask & this.masks[id]!);
    const repeats = Math.min(
      prefix.length - prefix.distinct,
      this.lengths[id]! - this.distinct[id]!,
    );
    return (
      shared + repeats >= need &&
      this.overlap(prefix, id) >= need &&
      prefixEditDistance(this.vocabulary[id]!, x, edits) <= edits
    );
  }

  /** (b) listed tokens close to two subject tokens written as one. */
  private joinedSubjectPartners(
    joined: string,
    bits: number,
    add: (id: number, bits: number) => void,
  ): void {
    const shape = shapeOf(joined);
    const lx = joined.length;
    // |lx - ly| <= 0.15 max(lx, ly): ly in [0.85 lx, lx / 0.85]
    const [from, to] = this.lengthRange(
      Math.ceil(lx * TOKEN_MATCH_FLOOR - 1e-9),
      Math.floor(lx / TOKEN_MATCH_FLOOR + 1e-9),
    );
    for (let id = from; id < to; id += 1) {
      const ly = this.lengths[id]!;
      const longer = Math.max(lx, ly);
      const allowed = Math.floor(longer * (1 - TOKEN_MATCH_FLOOR) + 1e-9);
      if (Math.abs(lx - ly) > allowed || this.overlap(shape, id) < longer - allowed) continue;
      if (similarityAtLeast(joined, this.vocabulary[id]!, TOKEN_MATCH_FLOOR) !== undefined) {
        add(id, bits);
      }
    }
  }

  /** Characters `x` and vocabulary token `id` share (an upper bound when buckets merge). */
  private overlap(x: Shape, id: number): number {
    let shared = 0;
    const base = id * BUCKETS;
    for (const b of x.buckets) shared += Math.min(x.counts[b]!, this.counts[base + b]!);
    return shared;
  }
}
