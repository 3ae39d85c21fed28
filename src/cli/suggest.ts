/**
 * The nearest valid word to a misspelt command or flag, for "did you mean" lines. Bounded: the
 * typed word is cut at 64 characters (a command line can be any length), and only a candidate
 * within a third of its length (at least 1, at most 3 edits) counts as near.
 */
const MAX_WORD = 64;

/** Levenshtein distance with adjacent transpositions counted as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [];
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        row.push(i + j);
        continue;
      }
      const up = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The candidate nearest to `typed`, or undefined when none is near enough to be a typo. */
export function nearest(typed: string, candidates: Iterable<string>): string | undefined {
  const word = typed.slice(0, MAX_WORD);
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    // a prefix of a longer name ("--tenan" for "--tenant") is near whatever the length
    const distance =
      candidate.startsWith(word) && word.length >= 3 ? 1 : editDistance(word, candidate);
    if (distance <= limit && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}
