import { BucketSets } from './bucket-sets.js';
import {
  jaroWinkler,
  prefixEditDistance,
  similarityAtLeast,
  TOKEN_MATCH_FLOOR,
} from './similarity.js';
import { BUCKETS, joinEdits, NEED_DEN, NEED_NUM, shapeOf, type Shape } from './token-shape.js';

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

/** The subject tokens partner `id` can be aligned with, by a pair of any kind. */
export function anyKind(bits: Int32Array, id: number): number {
  return bits[3 * id + SINGLE]! | bits[3 * id + JOINED_SUBJECT]! | bits[3 * id + JOIN_START]!;
}

/**
 * The distinct tokens of a list, numbered shortest first, then by UTF-16 code units (a length is
 * a range of ids, and the tokens of one length with one first character a range within it), with
 * what the partner search reads per token: length, characters by bucket, first code units. Each
 * pass of the search, per length, counts 32 tokens at a time for enough shared characters
 * (`BucketSets`) before it checks any token.
 * `partners` finds, for a subject, every token that can take part in an aligned pair (see
 * name-index.ts for why that is exact).
 */
export class Vocabulary {
  private readonly tokens: string[];
  private readonly ids = new Map<string, number>();
  private readonly lengths: Int32Array;
  /** The first id of each length (ids are sorted by length); the size past the longest. */
  private readonly lengthStarts: Int32Array;
  private readonly counts: Uint8Array;
  /** The first four UTF-16 code units of each token (0 past its end): the Winkler prefix. */
  private readonly heads: Uint16Array;
  /** The tokens having each bucket (once, twice), for counting shared characters. */
  private readonly bucketSets: BucketSets;
  /** `prefixRanges`' result, reused: a search allocates nothing per length. */
  private readonly ranges = new Int32Array(10);
  /** `jaroPartners`' length band per prefix length l (shortest, longest at 2 l, 2 l + 1). */
  private readonly bands = new Int32Array(10);

  constructor(distinctTokens: Iterable<string>) {
    this.tokens = [...distinctTokens].sort(
      (a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0),
    );
    const size = this.tokens.length;
    this.lengths = new Int32Array(size);
    this.counts = new Uint8Array(size * BUCKETS);
    this.heads = new Uint16Array(size * 4);
    this.tokens.forEach((token, id) => {
      this.ids.set(token, id);
      shapeOf(token, this.counts.subarray(id * BUCKETS, (id + 1) * BUCKETS));
      this.lengths[id] = token.length;
      for (let k = 0; k < 4 && k < token.length; k += 1) {
        this.heads[id * 4 + k] = token.charCodeAt(k);
      }
    });
    this.bucketSets = new BucketSets(this.counts);
    const longest = size === 0 ? 0 : this.lengths[size - 1]!;
    this.lengthStarts = new Int32Array(longest + 2);
    for (const length of this.lengths) this.lengthStarts[length + 1]! += 1;
    for (let length = 0; length <= longest; length += 1) {
      this.lengthStarts[length + 1]! += this.lengthStarts[length]!;
    }
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
      if (anyKind(into, id) === 0) ids.push(id);
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

  /** The length of the longest token (no pass looks at longer lengths). */
  private get longest(): number {
    return this.lengthStarts.length - 2;
  }

  /** The ids of the tokens of length `length` (ids are sorted by length). */
  private lengthRange(length: number): [number, number] {
    const { lengthStarts } = this;
    if (length < 0 || length >= lengthStarts.length - 1) return [this.size, this.size];
    return [lengthStarts[length]!, lengthStarts[length + 1]!];
  }

  /** (a) single-token partners and (c) first parts of a joined listed pair, of one token. */
  private tokenPartners(
    x: string,
    bits: number,
    single: (id: number, bits: number) => void,
    joinStart: (id: number, bits: number) => void,
  ): void {
    const shape = shapeOf(x);
    this.jaroPartners(x, shape, (id) => single(id, bits));
    this.joinStarts(x, shape, (id) => joinStart(id, bits));
  }

  /**
   * (a): tokens with Jaro-Winkler >= 0.85. A token with a common prefix of l (<= 4) characters
   * with x gets Winkler's bonus, so needs m / lx + m / ly >= NEED_NUM[l] / NEED_DEN of its m
   * matching characters (m <= the characters shared, m <= min(lx, ly)). Per length ly, the
   * tokens with each common prefix are a range (ids are sorted by code units): each range is
   * counted for the shared characters its need takes (m >= num lx ly / (NEED_DEN (lx + ly)))
   * and what passes is scored. The count is exact unless x holds a character more than twice
   * (`Query.beyond`): then each token's exact overlap is checked before scoring it.
   */
  private jaroPartners(x: string, shape: Shape, found: (id: number) => void): void {
    const lx = x.length;
    const query = this.bucketSets.query(shape);
    let need = 0; // NEED_NUM of the range being counted (`sharing` calls back synchronously)
    const check = (id: number) => {
      if (query.beyond > 0 && !this.mayReach(shape, id, need)) return;
      if (jaroWinkler(x, this.tokens[id]!) >= TOKEN_MATCH_FLOOR) found(id);
    };
    // with m <= min(lx, ly), m / lx + m / ly >= 1 + r needs r lx <= ly <= lx / r
    const { bands, ranges } = this;
    for (let l = 0; l <= 4; l += 1) {
      const r = NEED_NUM[l]! / NEED_DEN - 1;
      bands[2 * l] = Math.max(1, Math.ceil(r * lx - 1e-9));
      bands[2 * l + 1] = Math.floor(lx / r + 1e-9);
    }
    const lastLength = Math.min(bands[9]!, this.longest);
    for (let ly = bands[8]!; ly <= lastLength; ly += 1) {
      this.prefixRanges(x, ly);
      for (let l = 0; l <= 4; l += 1) {
        if (ly < bands[2 * l]! || ly > bands[2 * l + 1]!) continue;
        const from = ranges[2 * l]!;
        const to = ranges[2 * l + 1]!;
        need = NEED_NUM[l]!;
        const least = Math.ceil((need * lx * ly) / (NEED_DEN * (lx + ly)) - 1e-9);
        // the tokens sharing one more character of the prefix are the next range's
        const innerFrom = l < 4 ? ranges[2 * l + 2]! : to;
        const innerTo = l < 4 ? ranges[2 * l + 3]! : to;
        this.bucketSets.sharing(query, least, from, innerFrom, check);
        this.bucketSets.sharing(query, least, innerTo, to, check);
      }
    }
  }

  /**
   * The ids of the tokens of length `ly` sharing x's first l code units, for l = 0 to 4, into
   * `ranges` (from, to at 2 l and 2 l + 1; each range within the last: ids are sorted by code
   * units); empty past x's or ly's length.
   */
  private prefixRanges(x: string, ly: number): void {
    const { heads, ranges } = this;
    const [first, end] = this.lengthRange(ly);
    ranges[0] = first;
    ranges[1] = end;
    for (let k = 0; k < 4; k += 1) {
      const [from, to] = [ranges[2 * k]!, ranges[2 * k + 1]!];
      const code = k < x.length ? x.charCodeAt(k) : -1;
      // the first id whose k-th code unit is >= code, then the first past it that is > code
      let [lo, hi] = [from, to];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (heads[mid * 4 + k]! >= code) hi = mid;
        else lo = mid + 1;
      }
      ranges[2 * k + 2] = lo;
      hi = to;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (heads[mid * 4 + k]! > code) hi = mid;
        else lo = mid + 1;
      }
      ranges[2 * k + 3] = lo;
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
   * of a prefix of x, so (for ly <= lx + edits - 1) sharing ly - edits characters with x's first
   * ly + edits. With no edit, the prefixes themselves. With one, y1 also starts with x[0] or x[1],
   * or its second character is one of them (the edit at its start), or it is one character long.
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
    const near = [x.charCodeAt(0), x.charCodeAt(1)];
    const startsNear = (id: number) =>
      near.includes(this.heads[id * 4]!) || near.includes(this.heads[id * 4 + 1]!);
    for (let ly = 1; ly <= Math.min(lx + edits - 1, this.longest); ly += 1) {
      const end = Math.min(lx, ly + edits);
      const prefix = end === lx ? shape : shapeOf(x.slice(0, end));
      const [from, to] = this.lengthRange(ly);
      this.bucketSets.sharing(this.bucketSets.query(prefix), ly - edits, from, to, (id) => {
        if (edits === 1 && ly > 1 && !startsNear(id)) return;
        if (
          this.overlap(prefix, id) >= ly - edits &&
          prefixEditDistance(this.tokens[id]!, x, edits) <= edits
        ) {
          found(id);
        }
      });
    }
  }

  /**
   * (b) listed tokens close to two subject tokens written as one: Levenshtein similarity >= 0.85
   * allows `allowed` edits, so a length within them and longer - allowed shared characters.
   */
  private joinedSubjectPartners(
    joined: string,
    bits: number,
    add: (id: number, bits: number) => void,
  ): void {
    const shape = shapeOf(joined);
    const query = this.bucketSets.query(shape);
    const lx = joined.length;
    // |lx - ly| <= 0.15 max(lx, ly): ly in [0.85 lx, lx / 0.85]
    const min = Math.ceil(lx * TOKEN_MATCH_FLOOR - 1e-9);
    const max = Math.floor(lx / TOKEN_MATCH_FLOOR + 1e-9);
    for (let ly = min; ly <= Math.min(max, this.longest); ly += 1) {
      const longer = Math.max(lx, ly);
      const allowed = Math.floor(longer * (1 - TOKEN_MATCH_FLOOR) + 1e-9);
      if (Math.abs(lx - ly) > allowed) continue;
      const [from, to] = this.lengthRange(ly);
      this.bucketSets.sharing(query, longer - allowed, from, to, (id) => {
        if (
          this.overlap(shape, id) >= longer - allowed &&
          similarityAtLeast(joined, this.tokens[id]!, TOKEN_MATCH_FLOOR) !== undefined
        ) {
          add(id, bits);
        }
      });
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
