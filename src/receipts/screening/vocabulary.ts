import { BucketSets } from './bucket-sets.js';
import {
  jaroWinkler,
  prefixEditDistance,
  similarityAtLeast,
  TOKEN_MATCH_FLOOR,
} from './similarity.js';
import {
  BUCKETS,
  joinEdits,
  NEED_DEN,
  NEED_NUM,
  popcount,
  shapeOf,
  type Shape,
} from './token-shape.js';

/**
 * What `partners` finds: per vocabulary token, the bits of the subject tokens (bit k: x[k]) it
 * can be aligned with, by kind of pair: at `3 id` (a) as a single token, at `3 id + 1` (b) with
 * two joined subject tokens, at `3 id + 2` (c) as the first part of two joined listed tokens.
 * `ids` lists the tokens with any bit, in the order found.
 */
export interface Partners {
  ids: number[];
  bits: Int32Array;
}

export const SINGLE = 0;
export const JOINED_SUBJECT = 1;
export const JOIN_START = 2;

/**
 * The distinct tokens of a list, numbered shortest first (a band of lengths is a range of ids),
 * with what the partner search reads per token: length, character buckets, first code units.
 * `partners` finds, for a subject, every token that can take part in an aligned pair (see
 * name-index.ts for why that is exact).
 */
export class Vocabulary {
  private readonly tokens: string[];
  private readonly ids = new Map<string, number>();
  private readonly lengths: Int32Array;
  private readonly masks: Int32Array;
  private readonly distinct: Uint8Array;
  private readonly counts: Uint8Array;
  /** The first four UTF-16 code units of each token (0 past its end): the Winkler prefix. */
  private readonly heads: Uint16Array;
  /** Tokens by their first, and by their second, UTF-16 code unit. */
  private readonly initials: Map<number, Int32Array>;
  private readonly seconds: Map<number, Int32Array>;
  /** The tokens having each bucket, for counting shared buckets 32 tokens at a time. */
  private readonly bucketSets: BucketSets;

  constructor(distinctTokens: Iterable<string>) {
    this.tokens = [...distinctTokens].sort(
      (a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0),
    );
    const size = this.tokens.length;
    this.lengths = new Int32Array(size);
    this.masks = new Int32Array(size);
    this.distinct = new Uint8Array(size);
    this.counts = new Uint8Array(size * BUCKETS);
    this.heads = new Uint16Array(size * 4);
    this.tokens.forEach((token, id) => {
      this.ids.set(token, id);
      const shape = shapeOf(token, this.counts.subarray(id * BUCKETS, (id + 1) * BUCKETS));
      this.lengths[id] = token.length;
      for (let k = 0; k < 4 && k < token.length; k += 1)
        this.heads[id * 4 + k] = token.charCodeAt(k);
      this.masks[id] = shape.mask;
      this.distinct[id] = shape.distinct;
    });
    this.initials = this.groupBy(0);
    this.seconds = this.groupBy(1);
    this.bucketSets = new BucketSets(this.masks);
  }

  get size(): number {
    return this.tokens.length;
  }

  idOf(token: string): number | undefined {
    return this.ids.get(token);
  }

  /**
   * Every token that can be aligned with the subject tokens `x` (at most MAX_ALIGNED_TOKENS),
   * written into `into` (3 x the vocabulary size, all zero) by kind (see `Partners`).
   */
  partners(x: readonly string[], into: Int32Array): Partners {
    const ids: number[] = [];
    const add = (kind: number) => (id: number, bits: number) => {
      if (into[3 * id]! === 0 && into[3 * id + 1]! === 0 && into[3 * id + 2]! === 0) ids.push(id);
      into[3 * id + kind]! |= bits;
    };
    x.forEach((token, k) => this.tokenPartners(token, 1 << k, add(SINGLE), add(JOIN_START)));
    const joined = add(JOINED_SUBJECT);
    for (let i = 0; i < x.length; i += 1) {
      for (let j = 0; j < x.length; j += 1) {
        if (i !== j) this.joinedSubjectPartners(`${x[i]}${x[j]}`, (1 << i) | (1 << j), joined);
      }
    }
    return { ids, bits: into };
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

  /** Token ids by the code unit at `position` (tokens that long only). */
  private groupBy(position: number): Map<number, Int32Array> {
    const groups = new Map<number, number[]>();
    this.tokens.forEach((token, id) => {
      if (token.length <= position) return;
      const code = token.charCodeAt(position);
      const group = groups.get(code);
      if (group) group.push(id);
      else groups.set(code, [id]);
    });
    return new Map([...groups].map(([code, ids]) => [code, Int32Array.from(ids)]));
  }

  /** (a) single-token partners and (c) first parts of a joined listed pair, of one token. */
  private tokenPartners(
    x: string,
    bits: number,
    single: (id: number, bits: number) => void,
    joinStart: (id: number, bits: number) => void,
  ): void {
    const shape = shapeOf(x);
    const found = (id: number) => single(id, bits);
    this.sameInitialPartners(x, shape, found);
    this.otherInitialPartners(x, shape, found);
    this.joinStarts(x, shape, (id) => joinStart(id, bits));
  }

  /** (a) for tokens starting like x: Winkler's bonus may apply, the bound depends on it. */
  private sameInitialPartners(x: string, shape: Shape, found: (id: number) => void): void {
    const group = this.initials.get(x.charCodeAt(0));
    if (!group) return;
    const { heads } = this;
    const lx = x.length;
    const codes = [1, 2, 3].map((k) => (k < lx ? x.charCodeAt(k) : -1));
    for (const id of group) {
      const h = id * 4;
      const l =
        heads[h + 1] !== codes[0]
          ? 1
          : heads[h + 2] !== codes[1]
            ? 2
            : heads[h + 3] !== codes[2]
              ? 3
              : 4;
      if (
        this.mayReach(shape, id, NEED_NUM[l]!) &&
        jaroWinkler(x, this.tokens[id]!) >= TOKEN_MATCH_FLOOR
      ) {
        found(id);
      }
    }
  }

  /**
   * (a) for every other token: no Winkler bonus, so Jaro itself must reach 0.85. The loop that
   * costs a screening: per length ly, only tokens sharing enough of x's buckets are looked at
   * (`roughOverlap` is at most the shared buckets plus x's repeated characters, and must reach
   * num lx ly / (NEED_DEN (lx + ly))), counted 32 tokens at a time; each is then checked as before.
   */
  private otherInitialPartners(x: string, shape: Shape, found: (id: number) => void): void {
    const { heads } = this;
    const x0 = x.charCodeAt(0);
    const lx = x.length;
    const num = NEED_NUM[0]!;
    const repeats = lx - shape.distinct;
    // with m <= min(lx, ly), m / lx + m / ly >= 1 + r needs r lx <= ly <= lx / r
    const r = num / NEED_DEN - 1;
    const maxLength = Math.floor(lx / r + 1e-9);
    for (let ly = Math.max(Math.ceil(r * lx - 1e-9), 0); ly <= maxLength; ly += 1) {
      const [from, to] = this.lengthRange(ly, ly);
      const least = Math.ceil((num * lx * ly) / (NEED_DEN * (lx + ly)) - 1e-9) - repeats;
      this.bucketSets.sharing(shape.mask, least, from, to, (id) => {
        if (heads[id * 4] === x0) return;
        if (NEED_DEN * (lx + ly) * this.roughOverlap(shape, id) < num * lx * ly) return;
        if (
          this.mayReach(shape, id, num) &&
          jaroWinkler(x, this.tokens[id]!) >= TOKEN_MATCH_FLOOR
        ) {
          found(id);
        }
      });
    }
  }

  /** m / lx + m / ly >= num / NEED_DEN is possible with the characters x and `id` share. */
  private mayReach(x: Shape, id: number, num: number): boolean {
    const lx = x.length;
    const ly = this.lengths[id]!;
    return NEED_DEN * (lx + ly) * Math.min(lx, ly, this.overlap(x, id)) >= num * lx * ly;
  }

  /**
   * (c) tokens that can be the first part y1 of a joined pair y1 y2 close to x: within `edits`
   * of a prefix of x. With no edit, the prefixes themselves; with one, y1 starts with x[0] or
   * x[1], or its second character is one of them (the edit at its start), or it is one
   * character long; longer tokens (two or more edits) are checked against the vocabulary.
   */
  private joinStarts(x: string, shape: Shape, found: (id: number) => void): void {
    const lx = x.length;
    const edits = joinEdits(lx);
    if (edits === 0) {
      for (let s = 1; s < lx; s += 1) {
        const id = this.ids.get(x.slice(0, s));
        if (id !== undefined) found(id);
      }
      return;
    }
    const prefixes = Array.from({ length: lx + 1 }, (_, n) =>
      n === lx ? shape : shapeOf(x.slice(0, n)),
    );
    const check = (id: number) => {
      const ly = this.lengths[id]!;
      if (ly > lx + edits - 1) return;
      const prefix = prefixes[Math.min(lx, ly + edits)]!;
      if (this.startsJoin(x, prefix, id, edits)) found(id);
    };
    if (edits > 1) {
      for (let id = 0; id < this.lengths.length; id += 1) check(id);
      return;
    }
    const [x0, x1] = [x.charCodeAt(0), x.charCodeAt(1)];
    for (const group of [
      this.initials.get(x0),
      this.initials.get(x1),
      this.seconds.get(x0),
      this.seconds.get(x1),
    ]) {
      for (const id of group ?? []) check(id);
    }
    const [from, to] = this.lengthRange(1, 1);
    for (let id = from; id < to; id += 1) check(id);
  }

  /**
   * Whether token `id` is within `edits` of a prefix of `x`: it shares at least |y| - edits
   * characters with `prefix` (the first |y| + edits characters of x), then the edit distance.
   */
  private startsJoin(x: string, prefix: Shape, id: number, edits: number): boolean {
    const need = this.lengths[id]! - edits;
    return (
      this.roughOverlap(prefix, id) >= need &&
      this.overlap(prefix, id) >= need &&
      prefixEditDistance(this.tokens[id]!, x, edits) <= edits
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
      if (similarityAtLeast(joined, this.tokens[id]!, TOKEN_MATCH_FLOOR) !== undefined) {
        add(id, bits);
      }
    }
  }

  /**
   * A cheaper upper bound of `overlap`, from the bucket masks: the buckets both have, plus the
   * repeated characters of whichever has fewer, at most the shorter length.
   */
  private roughOverlap(x: Shape, id: number): number {
    const ly = this.lengths[id]!;
    const repeats = Math.min(x.length - x.distinct, ly - this.distinct[id]!);
    return Math.min(x.length, ly, popcount(x.mask & this.masks[id]!) + repeats);
  }

  /** Characters `x` and vocabulary token `id` share (an upper bound when buckets merge). */
  private overlap(x: Shape, id: number): number {
    let shared = 0;
    const base = id * BUCKETS;
    for (const b of x.buckets) shared += Math.min(x.counts[b]!, this.counts[base + b]!);
    return shared;
  }
}
