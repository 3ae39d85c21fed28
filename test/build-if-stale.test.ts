import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INPUTS, isStale, STAMP, writeStamp } from '../scripts/build-if-stale.mjs';
import { tempDir } from './helpers/context.js';

/**
 * `npm ci && npm start` builds once: `npm ci` builds (prepare) and stamps dist/, and start builds
 * again only when a build input is newer than that stamp.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

function tree(): string {
  const dir = tempDir('build-stamp-');
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src/server.ts'), '');
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist/server.js'), '');
  return dir;
}

const age = (file: string, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, t, t);
};

describe('npm start builds only what changed', () => {
  it('start builds only when stale, and build stamps', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toBe('node scripts/build-if-stale.mjs && node dist/server.js');
    expect(pkg.scripts.build).toMatch(/ && node scripts\/build-if-stale\.mjs --stamp$/);
    expect(pkg.scripts.prepare).toBe('npm run build');
    expect(INPUTS).toEqual(expect.arrayContaining(['src', 'packages/verify/src', 'scripts']));
  });

  it('is stale with no stamp, fresh after one, stale again once a source changes', () => {
    const dir = tree();
    expect(isStale(dir)).toBe(true);
    age(path.join(dir, 'src/server.ts'), 60);
    age(path.join(dir, 'src'), 60);
    writeStamp(dir);
    expect(fs.existsSync(path.join(dir, STAMP))).toBe(true);
    expect(isStale(dir)).toBe(false);
    age(path.join(dir, STAMP), 30); // file times tick coarsely: make "after the build" unambiguous
    fs.writeFileSync(path.join(dir, 'src/server.ts'), '// changed');
    expect(isStale(dir)).toBe(true);
  });

  it('is stale when the build output is gone', () => {
    const dir = tree();
    age(path.join(dir, 'src/server.ts'), 60);
    age(path.join(dir, 'src'), 60);
    writeStamp(dir);
    fs.rmSync(path.join(dir, 'dist/server.js'));
    expect(isStale(dir)).toBe(true);
  });
});
