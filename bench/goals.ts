/**
 * The performance goals in one table, each value measured by the runs this script makes, one
 * after the other on this host: bench:verify (its defaults), bench:inclusion (both stores, at
 * BENCH_RATE and at 80 % of each store's measured maximum) and bench:floor. Each bench prints its
 * own tables as it goes and writes its rows as JSON (BENCH_JSON); the goals table comes last.
 *   npm run bench:goals   (the benches' own variables pass through, e.g. BENCH_DATABASE_URL;
 *                          BENCH_STORES, BENCH_SECONDS and the like change what is measured)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FloorReport } from './floor.bench.js';
import type { Figures } from './harness.js';
import type { InclusionRow } from './inclusion.bench.js';
import { ROOT } from './processes.js';
import { SEALING_EVERY_5S } from './sealer-run.js';

const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');

/** Runs `bench/<file>` in its own process with BENCH_JSON set; its JSON output. */
function runBench<T>(file: string, dir: string): T {
  const json = path.join(dir, `${path.basename(file, '.ts')}.json`);
  execFileSync(process.execPath, [TSX, path.join('bench', file)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_JSON: json },
  });
  return JSON.parse(fs.readFileSync(json, 'utf8')) as T;
}

interface Goal {
  goal: string;
  target: string;
  /** The measured value as printed; undefined when the run did not measure it. */
  measured: string | undefined;
  /** Whether the target is met; undefined for a figure reported without a target. */
  met: boolean | undefined;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * One figure of bench:verify's run named `name`, the median over its rounds (one by default);
 * `ratio` divides by the bare route of the same round first.
 */
function verifyFigure(
  rounds: Figures[][],
  name: string,
  pick: (f: Figures) => number | undefined,
  ratio = false,
): number | undefined {
  const values = rounds.flatMap((round) => {
    const row = round.find((r) => r.name === name);
    const value = row && pick(row);
    return value === undefined ? [] : [ratio ? value / round[0]!.rps : value];
  });
  return values.length ? median(values) : undefined;
}

/** A goal `value <= limit` (or `>=` with `atLeast`), the value printed with `digits`. */
function goal(
  name: string,
  value: number | undefined,
  limit: number,
  unit: string,
  options: { atLeast?: boolean; digits?: number } = {},
): Goal {
  const { atLeast = false, digits = 0 } = options;
  const measured = value === undefined || Number.isNaN(value) ? undefined : value;
  return {
    goal: name,
    target: `${atLeast ? '≥' : '≤'} ${limit}${unit}`,
    measured: measured === undefined ? undefined : `${measured.toFixed(digits)}${unit}`,
    met: measured === undefined ? undefined : atLeast ? measured >= limit : measured <= limit,
  };
}

const STORE_NAMES = { embedded: 'embedded', postgres: 'PostgreSQL' } as const;

const reported = (name: string, measured: string | undefined): Goal => ({
  goal: name,
  target: 'reported',
  measured,
  met: undefined,
});

/**
 * The embedded store's POST /verify with the default sealer (a seal whenever entries wait, every
 * 250 ms) over the same on a service that seals every 5 s only: what sealing as entries arrive
 * costs the issuances that share the store's one connection (bench:verify's `sealer` run).
 */
function sealerGoal(rounds: Figures[][]): Goal {
  const batching = verifyFigure(rounds, 'POST /verify, embedded', (f) => f.rps);
  const quiet = verifyFigure(rounds, SEALING_EVERY_5S, (f) => f.rps);
  const ratio = batching !== undefined && quiet !== undefined ? batching / quiet : undefined;
  return goal(
    'POST /verify, embedded: req/s sealing every 250 ms over sealing every 5 s',
    ratio,
    0.9,
    ' x',
    { atLeast: true, digits: 2 },
  );
}

/**
 * The inclusion goals, each store: p99 answer to proof, and p95 request to witnessed answer (two
 * witnesses, quorum two), at the paced rate and at 80 % of the maximum.
 */
function inclusionGoals(rows: InclusionRow[]): Goal[] {
  const rate = process.env.BENCH_RATE ?? '200';
  return (['postgres', 'embedded'] as const).flatMap((store) => {
    const of = (mode: InclusionRow['mode']) =>
      rows.filter((r) => r.store === store && r.mode === mode);
    const [paced, loaded] = of('proof');
    const [pacedWitnessed, loadedWitnessed] = of('witnessed');
    const name = `inclusion p99, answer to proof, ${STORE_NAMES[store]}`;
    const witnessed = `witnessed answer p95, request to answer, two witnesses, ${STORE_NAMES[store]}`;
    const measuredRate = loaded ? `: ${Math.round(loaded.rate)} of ${loaded.maxRps} req/s` : '';
    const eighty = `paced at 80 % of the maximum${measuredRate}`;
    return [
      goal(`${name}, paced ${rate} receipts/s`, paced?.p99, 1000, ' ms'),
      goal(`${name}, ${eighty}`, loaded?.p99, 1500, ' ms'),
      goal(`${witnessed}, paced ${rate} receipts/s`, pacedWitnessed?.p95, 1500, ' ms'),
      goal(`${witnessed}, ${eighty}`, loadedWitnessed?.p95, 2000, ' ms'),
      reported(
        `answers without the quorum's cosignatures (paced ${rate}, 80 %), ${STORE_NAMES[store]}`,
        pacedWitnessed && loadedWitnessed
          ? `${pacedWitnessed.missing} of ${pacedWitnessed.receipts}, ${loadedWitnessed.missing} of ${loadedWitnessed.receipts}`
          : undefined,
      ),
    ];
  });
}

/**
 * Machine CPU per receipt on PostgreSQL at 80 % of the maximum (bench:inclusion's answer-to-proof
 * run: the service, PostgreSQL, the witnesses, the paced sender and its checkpoint polls), and
 * each part's distance from the floor.
 */
function loadedCpuGoals(rows: InclusionRow[], floor: FloorReport): Goal[] {
  const [, loaded] = rows.filter((r) => r.store === 'postgres' && r.mode === 'proof');
  const floorMs = floor.sumMultiRow / 1000;
  const over = (ms: number | undefined) =>
    ms === undefined ? undefined : `${ms.toFixed(3)} ms (${(ms / floorMs).toFixed(1)} x the floor)`;
  return [
    goal(
      'machine CPU per receipt, PostgreSQL, paced at 80 % of the maximum',
      loaded?.machineCpuMs,
      0.6,
      ' ms',
      { digits: 3 },
    ),
    reported('… of which the service (80 % of the maximum)', over(loaded?.serviceCpuMs)),
    reported('… of which PostgreSQL (80 % of the maximum)', over(loaded?.databaseCpuMs)),
  ];
}

/** bench:verify's goals: [goal, run name, figure, limit]; ratios are ≥, latencies ≤. */
function verifySpecs(rate: string): [string, string, 'ratio' | 'p99', number][] {
  const specs: [string, string, 'ratio' | 'p99', number][] = [];
  for (const store of ['PostgreSQL', 'embedded']) {
    const post = `POST /verify, ${store}`;
    const get = `GET /receipt/{id}, ${store}`;
    const workers = store === 'PostgreSQL' ? ' (WORKERS=auto)' : '';
    specs.push(
      [
        `POST /verify vs bare route, ${store}${workers}`,
        post,
        'ratio',
        store === 'PostgreSQL' ? 0.12 : 0.1,
      ],
      [`GET /receipt vs bare route, ${store}`, get, 'ratio', 0.5],
      [`POST /verify p99 at 50 connections, ${store}`, post, 'p99', 50],
      [`GET /receipt p99 at 50 connections, ${store}`, get, 'p99', 50],
      [
        `POST /verify p99 paced ${rate} req/s, ${store}`,
        `${post}, paced ${rate} req/s`,
        'p99',
        store === 'PostgreSQL' ? 10 : 15,
      ],
    );
  }
  return specs;
}

/** The throughput and latency goals of bench:verify. */
function verifyGoals(rounds: Figures[][]): Goal[] {
  return verifySpecs(process.env.BENCH_RATE ?? '200').map(([name, run, figure, limit]) =>
    figure === 'ratio'
      ? goal(
          name,
          verifyFigure(rounds, run, (f) => f.rps, true),
          limit,
          ' x',
          { atLeast: true, digits: 3 },
        )
      : goal(
          name,
          verifyFigure(rounds, run, (f) => f.p99),
          limit,
          ' ms',
          { digits: 1 },
        ),
  );
}

/**
 * CPU per issued receipt: the service's processes and the local PostgreSQL server's over
 * bench:verify's POST /verify at 50 connections (the load generator is not counted), the whole
 * machine's (counted), and how many times the floor (bench:floor's sum) that is.
 */
function cpuGoals(rounds: Figures[][], floor: FloorReport): Goal[] {
  const run = 'POST /verify, PostgreSQL';
  const service = verifyFigure(rounds, run, (f) => f.cpuMsPerRequest);
  const database = verifyFigure(rounds, run, (f) => f.databaseCpuMsPerRequest);
  const both = service !== undefined && database !== undefined ? service + database : undefined;
  const machine = verifyFigure(rounds, run, (f) => f.machineCpuMsPerRequest);
  const embedded = verifyFigure(rounds, 'POST /verify, embedded', (f) => f.cpuMsPerRequest);
  const times = (sumUs: number) => (((both ?? NaN) * 1000) / sumUs).toFixed(1);
  const ms = { digits: 3 };
  const cpu = 'CPU per receipt, POST /verify at 50 connections';
  return [
    goal(`${cpu}, service + PostgreSQL`, both, 0.5, ' ms', ms),
    goal(`${cpu}, service (embedded)`, embedded, 0.5, ' ms', ms),
    goal(`${cpu}, whole machine with the load generator, PostgreSQL`, machine, 0.5, ' ms', ms),
    reported(
      'floor of one receipt, bench:floor sum (single-row INSERT)',
      `${(floor.sum / 1000).toFixed(3)} ms`,
    ),
    reported(
      'floor of one receipt, bench:floor sum (50-row INSERT)',
      `${(floor.sumMultiRow / 1000).toFixed(3)} ms`,
    ),
    reported(
      'service + PostgreSQL CPU per receipt over the floor (single-row, 50-row)',
      both === undefined ? undefined : `${times(floor.sum)} x, ${times(floor.sumMultiRow)} x`,
    ),
  ];
}

function printGoals(goals: Goal[]): void {
  console.log(
    `\ngoals, measured on ${os.hostname()} (${os.cpus().length} CPUs), node ${process.version}\n`,
  );
  console.log('| goal | target | measured | met |');
  console.log('| --- | --- | --- | --- |');
  for (const g of goals) {
    const met =
      g.met === undefined
        ? g.target === 'reported'
          ? ''
          : 'not measured'
        : g.met
          ? 'met'
          : 'not met';
    console.log(`| ${g.goal} | ${g.target} | ${g.measured ?? 'not measured'} | ${met} |`);
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-goals-'));
try {
  const verify = runBench<Figures[][]>('verify.bench.ts', dir);
  const inclusion = runBench<InclusionRow[]>('inclusion.bench.ts', dir);
  const floor = runBench<FloorReport>('floor.bench.ts', dir);
  printGoals([
    ...inclusionGoals(inclusion),
    ...loadedCpuGoals(inclusion, floor),
    ...verifyGoals(verify),
    sealerGoal(verify),
    ...cpuGoals(verify, floor),
  ]);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
