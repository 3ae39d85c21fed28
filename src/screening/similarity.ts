/**
 * Fuzzy similarity of two normalised names (token arrays from `nameTokens`), a number in 0..1:
 * a soft Dice coefficient over tokens aligned one-to-one.
 *
 * 1. Candidate pairs: every token of one name against every token of the other, scored with
 *    Jaro-Winkler (tolerant of spelling variants: "Mohamed"/"Mohammed"). When one name has more
 *    tokens, each ordered pair of its tokens joined together is also a candidate against single
 *    tokens of the other name, scored with normalised Levenshtein similarity, so a name written
 *    as one word or two still aligns ("Abdulrahman" vs "Abdul Rahman"). Levenshtein, not
 *    Jaro-Winkler, because the prefix bonus would rate "john" close to "johnmichael".
 * 2. Pairs scoring below {@link TOKEN_MATCH_FLOOR} are dropped; the rest are taken greedily, best
 *    first, each token used at most once.
 * 3. score = sum over taken pairs of (pair score x tokens the pair covers) / (tokens of a + b).
 *
 * Only the first {@link MAX_ALIGNED_TOKENS} tokens of each name take part in the alignment (the
 * denominator still counts every token), so the work is bounded whatever a caller sends: a name
 * that long is far below any match threshold against a real name anyway.
 *
 * Word order is irrelevant, identical normalised names score exactly 1, an extra or missing
 * token lowers the score ("John Doe" vs "John Michael Doe" = 0.8) and empty names score 0.
 * Strings are compared by UTF-16 code unit, which for normalised names (letters of the Basic
 * Multilingual Plane) is the same as comparing characters.
 */

/** Tokens of each name aligned at most (see the module comment). */
export const MAX_ALIGNED_TOKENS = 24;

/** Minimum similarity for two tokens (or a token and two joined tokens) to be aligned. */
export const TOKEN_MATCH_FLOOR = 0.85;

const WINKLER_PREFIX_SCALE = 0.1;
const WINKLER_MAX_PREFIX = 4;
/** Winkler's original rule: the common-prefix bonus applies only above this Jaro score. */
const WINKLER_BOOST_THRESHOLD = 0.7;

/** Two aligned units: the token indices each side covers and their similarity. */
interface Pair {
  a: readonly number[];
  b: readonly number[];
  score: number;
}

/** Similarity of two token lists (see the module comment). */
export function nameSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const x = a.slice(0, MAX_ALIGNED_TOKENS);
  const y = b.slice(0, MAX_ALIGNED_TOKENS);
  const pairs = [...singlePairs(x, y), ...joinedPairs(x, y, false), ...joinedPairs(y, x, true)];
  return Math.min(1, alignedCoverage(pairs) / (a.length + b.length));
}

/**
 * The highest similarity two names with these token counts can reach: every token of the
 * shorter name aligned with at most two tokens of the longer one. Lets a caller skip names that
 * cannot reach a threshold without scoring them.
 */
export function maxNameSimilarity(tokensA: number, tokensB: number): number {
  const shorter = Math.min(tokensA, tokensB);
  const longer = Math.max(tokensA, tokensB);
  return shorter === 0 ? 0 : (shorter + Math.min(longer, 2 * shorter)) / (shorter + longer);
}

function singlePairs(a: readonly string[], b: readonly string[]): Pair[] {
  const pairs: Pair[] = [];
  for (let i = 0; i < a.length; i += 1) {
    for (let j = 0; j < b.length; j += 1) {
      const score = jaroWinkler(a[i] ?? '', b[j] ?? '');
      if (score >= TOKEN_MATCH_FLOOR) pairs.push({ a: [i], b: [j], score });
    }
  }
  return pairs;
}

/**
 * Pairs of two joined tokens of `long` with one token of `short`, when `long` has more tokens.
 * `swapped` says `long` is the `b` side of nameSimilarity.
 */
function joinedPairs(long: readonly string[], short: readonly string[], swapped: boolean): Pair[] {
  if (long.length <= short.length) return [];
  const pairs: Pair[] = [];
  for (let i = 0; i < long.length; i += 1) {
    for (let j = 0; j < long.length; j += 1) {
      if (i === j) continue;
      const joined = `${long[i]}${long[j]}`;
      for (let k = 0; k < short.length; k += 1) {
        const score = similarityAtLeast(joined, short[k] ?? '', TOKEN_MATCH_FLOOR);
        if (score === undefined) continue;
        pairs.push(swapped ? { a: [k], b: [i, j], score } : { a: [i, j], b: [k], score });
      }
    }
  }
  return pairs;
}

/**
 * Greedy one-to-one alignment, best pair first (ties: fewer tokens, then earlier tokens), and the
 * sum of score x covered tokens over the pairs taken.
 */
function alignedCoverage(pairs: Pair[]): number {
  const size = (p: Pair) => p.a.length + p.b.length;
  pairs.sort(
    (p, q) =>
      q.score - p.score ||
      size(p) - size(q) ||
      compareIndices(p.a, q.a) ||
      compareIndices(p.b, q.b),
  );
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let covered = 0;
  for (const pair of pairs) {
    if (pair.a.some((i) => usedA.has(i)) || pair.b.some((j) => usedB.has(j))) continue;
    pair.a.forEach((i) => usedA.add(i));
    pair.b.forEach((j) => usedB.add(j));
    covered += pair.score * size(pair);
  }
  return covered;
}

function compareIndices(x: readonly number[], y: readonly number[]): number {
  const length = Math.max(x.length, y.length);
  for (let k = 0; k < length; k += 1) {
    const d = (x[k] ?? -1) - (y[k] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** Jaro-Winkler similarity of two strings. */
export function jaroWinkler(a: string, b: string): number {
  const jaro = jaroSimilarity(a, b);
  if (jaro <= WINKLER_BOOST_THRESHOLD) return jaro;
  let prefix = 0;
  const limit = Math.min(WINKLER_MAX_PREFIX, a.length, b.length);
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix += 1;
  return jaro + prefix * WINKLER_PREFIX_SCALE * (1 - jaro);
}

/** 1 - Levenshtein distance / length of the longer string; 1 for two empty strings. */
export function levenshteinSimilarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - levenshtein(a, b, longer) / longer;
}

/**
 * levenshteinSimilarity(a, b) when it is at least `floor`, else undefined. Two filters run
 * before the distance: the length difference, and the pigeonhole rule (with at most k edits, one
 * of k + 1 pieces of `a` survives unedited, so it occurs in `b`); both are exact, not heuristics.
 */
export function similarityAtLeast(a: string, b: string, floor: number): number | undefined {
  const longer = Math.max(a.length, b.length);
  const allowed = Math.floor(longer * (1 - floor) + 1e-9);
  if (Math.abs(a.length - b.length) > allowed || !somePieceOccurs(a, b, allowed + 1)) {
    return undefined;
  }
  const distance = levenshtein(a, b, allowed);
  return distance > allowed ? undefined : 1 - distance / longer;
}

/**
 * The smallest Levenshtein distance between `a` and a prefix of `b` (`min over s of
 * levenshtein(a, b[0..s])`), or any value above `cap` once it must exceed it.
 */
export function prefixEditDistance(a: string, b: string, cap: number): number {
  const row = lastRow(a, b, Math.min(b.length, a.length + cap), cap);
  return typeof row === 'number' ? row : row.reduce((min, v) => (v < min ? v : min));
}

/** Whether one of `pieces` consecutive, nearly equal pieces of `a` is a substring of `b`. */
function somePieceOccurs(a: string, b: string, pieces: number): boolean {
  for (let k = 0; k < pieces; k += 1) {
    const piece = a.slice(
      Math.floor((k * a.length) / pieces),
      Math.floor(((k + 1) * a.length) / pieces),
    );
    if (b.includes(piece)) return true;
  }
  return false;
}

/**
 * Scratch match flags for jaroSimilarity, grown on demand and reused: screening calls it for
 * every token of every listed name, and per-call allocations dominated the run time.
 */
let matchedA = new Uint8Array(64);
let matchedB = new Uint8Array(64);

function jaroSimilarity(a: string, b: string): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (matchedA.length < a.length) matchedA = new Uint8Array(a.length);
  if (matchedB.length < b.length) matchedB = new Uint8Array(b.length);
  matchedA.fill(0, 0, a.length);
  matchedB.fill(0, 0, b.length);
  const window = Math.max(Math.floor(Math.max(a.length, b.length) / 2) - 1, 0);
  let m = 0;
  for (let i = 0; i < a.length; i += 1) {
    const end = Math.min(i + window + 1, b.length);
    for (let j = Math.max(0, i - window); j < end; j += 1) {
      if (matchedB[j] === 0 && a.charCodeAt(i) === b.charCodeAt(j)) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        m += 1;
        break;
      }
    }
  }
  if (m === 0) return 0;
  let halfTranspositions = 0;
  let j = 0;
  for (let i = 0; i < a.length; i += 1) {
    if (matchedA[i] === 0) continue;
    while (matchedB[j] === 0) j += 1;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) halfTranspositions += 1;
    j += 1;
  }
  return (m / a.length + m / b.length + (m - halfTranspositions / 2) / m) / 3;
}

/**
 * Levenshtein distance of `a` and `b`, or any value above `cap` as soon as every entry of a DP
 * row exceeds `cap` (the distance can then only be larger).
 */
function levenshtein(a: string, b: string, cap: number): number {
  const row = lastRow(a, b, b.length, cap);
  return typeof row === 'number' ? row : (row[b.length] ?? 0);
}

/** Scratch rows for lastRow, grown on demand and reused (as for jaroSimilarity). */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/**
 * The last row of the edit-distance table of `a` against `b[0..width]` (entry s: the distance of
 * `a` and `b[0..s]`), or the smallest entry of the first row whose entries all exceed `cap`.
 */
function lastRow(a: string, b: string, width: number, cap: number): Int32Array | number {
  if (rowA.length <= width) {
    rowA = new Int32Array(width + 1);
    rowB = new Int32Array(width + 1);
  }
  let previous = rowA;
  let current = rowB;
  for (let s = 0; s <= width; s += 1) previous[s] = s;
  for (let i = 1; i <= a.length; i += 1) {
    const code = a.charCodeAt(i - 1);
    current[0] = i;
    let rowMin = i;
    for (let s = 1; s <= width; s += 1) {
      const cost = code === b.charCodeAt(s - 1) ? 0 : 1;
      const value = Math.min(previous[s]! + 1, current[s - 1]! + 1, previous[s - 1]! + cost);
      current[s] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > cap) return rowMin;
    [previous, current] = [current, previous];
  }
  return previous.subarray(0, width + 1);
}
