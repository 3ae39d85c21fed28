/**
 * Screening time against list size: lists of 10,000 / 100,000 / 1,000,000 generated names
 * (given names and surnames drawn from fixed pools, as real lists repeat names), loaded through
 * the service's own loader, then 1,000 subjects screened (half of them variants of listed names).
 * The full scan every name used to get is timed beside it on a sample of subjects.
 *   npm run bench:screening   (BENCH_SCREEN_SIZES=10000,100000,1000000 BENCH_SCAN_SUBJECTS=20)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { WEAK_MATCH_THRESHOLD } from '../src/screening/lists.js';
import { nameTokens } from '../src/screening/normalise.js';
import { maxNameSimilarity, nameSimilarity } from '../src/screening/similarity.js';
import { prng } from '../test/helpers/prng.js';
import { loadScreeningLists } from '../src/files/screening-lists.js';

const SIZES = (process.env.BENCH_SCREEN_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const SUBJECTS = 1_000;
/** Subjects timed against the full scan (BENCH_SCAN_SUBJECTS; 0 skips it). */
const SCAN_SUBJECTS = Number(process.env.BENCH_SCAN_SUBJECTS ?? 20);

const random = prng(7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const SYLLABLES =
  'ka lo mi ra sa te vo ny al be dor fen gri han is jul kor lem mar nas or pel quin ros sul tan ur vik wen xa yor zel ab ch sh th ei ou an en in on'.split(
    ' ',
  );
const word = (parts: number) => {
  const w = Array.from({ length: parts }, () => pick(SYLLABLES)).join('');
  return w[0]!.toUpperCase() + w.slice(1);
};
const pool = (size: number, parts: () => number) =>
  [...new Set(Array.from({ length: size * 2 }, () => word(parts())))].slice(0, size);
const GIVEN = pool(4_000, () => 2 + Math.floor(random() * 2));
const SURNAMES = pool(30_000, () => 2 + Math.floor(random() * 3));
const personName = () =>
  [pick(GIVEN), ...(random() < 0.3 ? [pick(GIVEN)] : []), pick(SURNAMES)].join(' ');

function variant(name: string): string {
  const tokens = name.split(' ');
  const i = Math.floor(random() * tokens.length);
  const t = tokens[i]!;
  const at = 1 + Math.floor(random() * (t.length - 1));
  tokens[i] =
    random() < 0.5 ? t.slice(0, at) + t.slice(at + 1) : t.slice(0, at) + 'e' + t.slice(at);
  return random() < 0.3 ? tokens.reverse().join(' ') : tokens.join(' ');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (v: number) => v.toFixed(3);
console.log(
  '| listed names | vocabulary | load s | heap MiB | screen p50 ms | mean ms | p99 ms | max ms | matches/subject | full scan ms/subject |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const size of SIZES) {
  const names = Array.from({ length: size }, personName);
  const dir = mkdtempSync(path.join(tmpdir(), 'screening-bench-'));
  writeFileSync(
    path.join(dir, 'bench.csv'),
    `id,name\n${names.map((n, i) => `B-${i},${n}`).join('\n')}\n`,
  );
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const lists = await loadScreeningLists(dir);
  const loadSeconds = (performance.now() - started) / 1000;
  global.gc?.();
  const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  rmSync(dir, { recursive: true });

  const subjects = Array.from({ length: SUBJECTS }, (_, n) =>
    n % 2 === 0 ? variant(pick(names)) : personName(),
  );
  const times: number[] = [];
  let matches = 0;
  for (const subject of subjects) {
    const t0 = performance.now();
    matches += (await lists.screen(subject, ['bench'])).length;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);

  const tokens = names.map(nameTokens);
  const t0 = performance.now();
  for (const subject of subjects.slice(0, SCAN_SUBJECTS)) {
    const s = nameTokens(subject);
    for (const listed of tokens) {
      if (maxNameSimilarity(s.length, listed.length) >= WEAK_MATCH_THRESHOLD) {
        nameSimilarity(s, listed);
      }
    }
  }
  const scan = SCAN_SUBJECTS ? (performance.now() - t0) / SCAN_SUBJECTS : NaN;
  const vocabulary = new Set(tokens.flat()).size;
  console.log(
    `| ${size.toLocaleString('en')} | ${vocabulary.toLocaleString('en')} | ${loadSeconds.toFixed(1)} | ${heap.toFixed(0)} | ${ms(percentile(times, 50))} | ${ms(times.reduce((a, b) => a + b, 0) / times.length)} | ${ms(percentile(times, 99))} | ${ms(times[times.length - 1]!)} | ${(matches / SUBJECTS).toFixed(2)} | ${scan.toFixed(1)} |`,
  );
}
