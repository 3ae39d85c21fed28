/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. BENCH_CPU_PROF=dir npm run
 * bench:verify): self time per function and per package, so optimisation follows a profile.
 *   npx tsx bench/profile-summary.ts FILE.cpuprofile|DIR [requests]
 * Given a directory (one per service run, in which the event loop and each worker thread, such
 * as PGlite's on the embedded store, write a profile of their own), it reads the event loop's:
 * the file Node names with thread id 0.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [given, requestsArg] = process.argv.slice(2);
if (!given) throw new Error('usage: profile-summary FILE.cpuprofile|DIR [requests]');
const file = fs.statSync(given).isDirectory() ? mainThreadProfile(given) : given;

/** Node's default name is CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile. */
function mainThreadProfile(dir: string): string {
  const name = fs.readdirSync(dir).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (name === undefined) throw new Error(`no event-loop profile (thread id 0) in ${dir}`);
  return path.join(dir, name);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) =>
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
);

function packageOf(url: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1] ?? url;
  if (url.includes('/dist/')) return `service ${url.split('/dist/')[1]?.split('/')[0] ?? ''}`;
  return url.startsWith('node:') ? 'node' : url === '' ? '(native/gc/idle)' : url;
}

const total = [...self.values()].reduce((a, b) => a + b, 0);
const fns = new Map<string, number>();
const pkgs = new Map<string, number>();
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = byId.get(id)?.callFrame ?? {
    functionName: '?',
    url: '',
    lineNumber: 0,
  };
  const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  const pkg = functionName.startsWith('(') ? functionName : packageOf(url);
  pkgs.set(pkg, (pkgs.get(pkg) ?? 0) + us);
}
const requests = Number(requestsArg ?? 0);
const show = (title: string, map: Map<string, number>, n: number) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    const per = requests ? `  ${(us / requests / 1000).toFixed(3)} ms/req` : '';
    console.log(
      `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(2)} s${per}  ${k}`,
    );
  }
};
/** Time with the function anywhere on the stack, each sample counted once per function. */
function inclusive(): Map<string, number> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url } = byId.get(at)?.callFrame ?? { functionName: '?', url: '' };
      if (functionName.startsWith('(')) continue;
      seen.add(`${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}`);
    }
    for (const key of seen) times.set(key, (times.get(key) ?? 0) + us);
  }
  return times;
}

console.log(`total ${(total / 1e6).toFixed(2)} s sampled`);
show('by package', pkgs, 20);
show('by function (self time)', fns, 30);
show('by function (inclusive)', inclusive(), Number(process.env.PROFILE_INCLUSIVE ?? 60));
