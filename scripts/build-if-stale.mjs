// `npm start` without a second build: `npm ci` already built (the `prepare` script), so start
// builds only when a build input changed since the last build, or none was made. Inputs: the
// sources of the service, the verifier package and the page, the build scripts and configs.
// `node scripts/build-if-stale.mjs --stamp` records a finished build (the end of `npm run build`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const INPUTS = [
  'src',
  'packages/verify/src',
  'scripts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'packages/verify/package.json',
  'packages/verify/tsconfig.build.json',
];
export const STAMP = 'dist/.build-stamp';

/** The newest modification time (ms) under `file`, 0 when it does not exist. */
function newest(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file))
    latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

/** Whether `dir` needs a build: no stamp, or an input newer than it. */
export function isStale(dir = root) {
  const stamp = newest(path.join(dir, STAMP));
  if (stamp === 0 || !fs.existsSync(path.join(dir, 'dist/server.js'))) return true;
  return INPUTS.some((input) => newest(path.join(dir, input)) > stamp);
}

export function writeStamp(dir = root) {
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, STAMP), `${new Date().toISOString()}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--stamp')) writeStamp();
  else if (isStale()) {
    process.stderr.write('sources changed since the last build: building first\n');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  }
}
