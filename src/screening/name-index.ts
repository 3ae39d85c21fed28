import { MAX_ALIGNED_TOKENS } from './similarity.js';
import { popcount } from './token-shape.js';
import {
  anyKind,
  JOIN_START,
  JOINED_SUBJECT,
  SINGLE,
  Vocabulary,
  type Partners,
} from './vocabulary.js';

/**
 * An exact candidate filter for screening: given a subject, the names of a list that can reach a
 * score threshold; every other name provably scores below it, so scoring only the candidates
 * gives the same matches as scoring every name (test/screening/name-index.unit.test.ts
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

/**
 * The fewest of its aligned subject tokens (among `x` that take part) a name needs to reach
 * `threshold`: the least c with c + min(q, 2c) >= threshold (p + q) for some name length q
 * (past q = 2c + 1 the left side stops growing); undefined when none can.
 */
function leastCovered(x: number, p: number, threshold: number): number | undefined {
  for (let c = 1; c <= x; c += 1) {
    for (let q = 1; q <= 2 * c + 1; q += 1) {
      if (c + Math.min(q, 2 * c) >= threshold * (p + q) - 1e-9) return c;
    }
  }
  return undefined;
}

/**
 * The order the index keeps names in: grouped by their rarest token (fewest holders), so the
 * holders of a token a search starts from are mostly one run of consecutive names, and what is
 * read about each (its tokens, its length) is read in order instead of from all over memory.
 * A counting sort: `order[k]` is the list index of the k-th name; names without tokens last.
 */
function byRarestToken(tokenIds: readonly (readonly number[])[], size: number): Int32Array {
  const holders = new Int32Array(size + 1);
  for (const ids of tokenIds) for (const id of ids) holders[id]! += 1;
  const rarest = tokenIds.map((ids) =>
    ids.reduce((best, id) => (holders[id]! < holders[best]! ? id : best), ids[0] ?? size),
  );
  const starts = new Int32Array(size + 2);
  for (const token of rarest) starts[token + 1]! += 1;
  for (let t = 0; t <= size; t += 1) starts[t + 1]! += starts[t]!;
  const order = new Int32Array(tokenIds.length);
  rarest.forEach((token, nameIndex) => (order[starts[token]!++] = nameIndex));
  return order;
}

/**
 * Per vocabulary token, one record per name holding it, with what checking that name needs, so
 * a search reads each token's holders as one run of memory: [name, q, k, t1 .. tk] where q is the
 * name's length in tokens and t1 .. tk its other distinct token ids. CSR: token t's records are
 * at [offsets[t], offsets[t + 1]) of `records`.
 */
function holderRecords(
  tokenIds: readonly (readonly number[])[],
  lengths: Uint16Array,
  size: number,
) {
  const offsets = new Int32Array(size + 1);
  for (const ids of tokenIds) for (const id of ids) offsets[id + 1]! += 2 + ids.length;
  for (let t = 0; t < size; t += 1) offsets[t + 1]! += offsets[t]!;
  const records = new Int32Array(offsets[size]!);
  const next = offsets.slice(0, size);
  tokenIds.forEach((ids, nameId) => {
    for (const id of ids) {
      let at = next[id]!;
      records[at++] = nameId;
      records[at++] = lengths[nameId]!;
      records[at++] = ids.length - 1;
      for (const other of ids) if (other !== id) records[at++] = other;
      next[id] = at;
    }
  });
  return { offsets, records };
}

export class NameIndex {
  private readonly vocabulary: Vocabulary;
  /** The list index of each name as the index numbers it (see `byRarestToken`). */
  private readonly listIndex: Int32Array;
  /** The names holding each vocabulary token, as records (see `holderRecords`). */
  private readonly offsets: Int32Array;
  private readonly records: Int32Array;
  /** Scratch for the partner search (all zero when idle): partner bits by token and kind. */
  private readonly partnerBits: Int32Array;

  /** `names[i]` is the normalised tokens of name i; candidates are returned as these indices. */
  constructor(names: readonly (readonly string[])[]) {
    this.vocabulary = new Vocabulary(new Set(names.flat()));
    const size = this.vocabulary.size;
    const listTokenIds = names.map((tokens) =>
      [...new Set(tokens)].map((token) => this.vocabulary.idOf(token)!),
    );
    this.listIndex = byRarestToken(listTokenIds, size);
    const tokenIds = Array.from(this.listIndex, (i) => listTokenIds[i]!);
    const lengths = Uint16Array.from(this.listIndex, (i) => Math.min(names[i]!.length, 0xffff));
    ({ offsets: this.offsets, records: this.records } = holderRecords(tokenIds, lengths, size));
    this.partnerBits = new Int32Array(3 * size);
  }

  get vocabularySize(): number {
    return this.vocabulary.size;
  }

  /**
   * The names (ascending indices) that may score at least `threshold` against `subject` (sorted
   * normalised tokens); every other name scores below it.
   */
  candidates(subject: readonly string[], threshold: number): number[] {
    const x = subject.slice(0, MAX_ALIGNED_TOKENS);
    if (x.length === 0) return [];
    const partners = this.vocabulary.partners(x, this.partnerBits);
    try {
      return this.namesOf(partners, subject.length, threshold);
    } finally {
      for (const id of partners.ids) this.partnerBits.fill(0, 3 * id, 3 * id + 3);
    }
  }

  /**
   * Names holding partners, kept when their partners could align enough tokens. The score is
   * covered / (p + q), covered <= the tokens aligned, and alignment is one to one. Pairs of kind
   * (a) hold one token of each side; (b), two joined subject tokens, exists only when q < p;
   * (c), two joined listed tokens y1 y2 with y1 a partner, only when q > p (lengths counted to
   * MAX_ALIGNED_TOKENS). So with c subject tokens having a partner in the name (of a kind its
   * length allows), u of its tokens partners and j of them join starts, the aligned tokens are
   * at most: 2 min(c, u) when q = p; c and min(q, 2c, u + min(c, j)) when q > p; min(q, c, u)
   * listed and twice that subject when q < p.
   * A name needs some least c (`leastCovered`), so it holds a partner of one of the p - c + 1
   * subject tokens with the fewest holders: only those holders are looked at, each against its
   * own tokens (a name holding several such partners is looked at more than once, kept once).
   */
  private namesOf(partners: Partners, p: number, threshold: number): number[] {
    const need = leastCovered(Math.min(p, MAX_ALIGNED_TOKENS), p, threshold);
    if (need === undefined) return [];
    const { bits } = partners;
    const drivers = this.drivers(partners, p, need);
    const { offsets, records } = this;
    const pAligned = Math.min(p, MAX_ALIGNED_TOKENS);
    const kept: number[] = [];
    for (const id of partners.ids) {
      const any = anyKind(bits, id);
      if ((any & drivers) === 0) continue;
      for (let at = offsets[id]!, end = offsets[id + 1]!; at < end;) {
        const nameId = records[at]!;
        const q = records[at + 1]!;
        const others = records[at + 2]!;
        const qAligned = Math.min(q, MAX_ALIGNED_TOKENS);
        const joinedSubject = qAligned < pAligned ? -1 : 0;
        const joinStart = qAligned > pAligned ? -1 : 0;
        // a token held twice is one record entry: its repeats are counted as partners
        let u = q - others - 1;
        let j = 0;
        let nameBits = 0;
        const first = at + 3;
        at = first + others;
        for (let t = first - 1; t < at; t += 1) {
          const token = t < first ? id : records[t]!;
          const start = bits[3 * token + JOIN_START]! & joinStart;
          const joined = bits[3 * token + JOINED_SUBJECT]! & joinedSubject;
          const all = bits[3 * token + SINGLE]! | joined | start;
          nameBits |= all;
          if (all !== 0) u += 1;
          if (start !== 0) j += 1;
        }
        if (
          aligned(popcount(nameBits), u, j, pAligned, qAligned, q) >=
          threshold * (p + q) - 1e-9
        ) {
          kept.push(nameId);
        }
      }
    }
    const unique = [...new Set(kept)];
    return unique.map((nameId) => this.listIndex[nameId]!).sort((a, b) => a - b);
  }

  /** The bits of the p - need + 1 subject tokens whose partners have the fewest holders. */
  private drivers({ ids, bits }: Partners, p: number, need: number): number {
    const holders = new Array<number>(MAX_ALIGNED_TOKENS).fill(0);
    for (const id of ids) {
      const count = this.offsets[id + 1]! - this.offsets[id]!;
      const any = anyKind(bits, id);
      for (let k = 0; k < MAX_ALIGNED_TOKENS; k += 1) if (any & (1 << k)) holders[k]! += count;
    }
    const order = holders
      .map((count, k) => [count, k] as const)
      .filter(([, k]) => k < Math.min(p, MAX_ALIGNED_TOKENS))
      .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return order.slice(0, order.length - need + 1).reduce((mask, [, k]) => mask | (1 << k), 0);
  }
}

/**
 * The most tokens (both sides) an alignment can cover in a name of q tokens (qAligned of them
 * taking part) against a subject of pAligned, given c, u and j (see `namesOf`).
 */
function aligned(c: number, u: number, j: number, pAligned: number, qAligned: number, q: number) {
  if (qAligned === pAligned) return 2 * Math.min(c, u);
  if (qAligned > pAligned) return Math.min(c, u) + Math.min(q, 2 * c, u + Math.min(c, j));
  const listed = Math.min(q, c, u);
  return listed + Math.min(c, 2 * listed);
}
