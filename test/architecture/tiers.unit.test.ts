import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import config, { ALL_TESTS, UNIT_TESTS, verifyAliases } from '../../vitest.config.js';

/**
 * The unit tier (vitest.config.ts UNIT_TESTS: the files named *.unit.test.ts) stays fast only if
 * none of its files starts a store, a server, a process or a browser. A cheap static check of
 * the import lines, followed through local modules (test helpers and src/, type-only imports
 * skipped): a unit file may not reach any of the modules below. A file that needs one belongs to the integration tier.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

const FORBIDDEN_MODULES = ['playwright-core', 'node:child_process', 'child_process'];
const FORBIDDEN_FILES = ['test/helpers/context.ts', 'src/app.ts'];
const FORBIDDEN_DIRS = ['src/storage/'];

// `import x from '…'`, `import '…'`, `export … from '…'` at a line start, and `import('…')`
const STATIC = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The specifiers a module imports at run time (type-only imports are erased). */
function runtimeImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(STATIC)) if (!m[1] && m[2]) found.push(m[2]);
  for (const m of source.matchAll(DYNAMIC)) if (m[1]) found.push(m[1]);
  return found;
}

/** A relative or aliased specifier as a path from the repository root; undefined for packages. */
function resolveLocal(fromFile: string, specifier: string): string | undefined {
  const aliased = verifyAliases.find((alias) => alias.find.test(specifier)); // resolve.alias
  if (aliased) return path.relative(root, aliased.replacement).split(path.sep).join('/');
  if (!specifier.startsWith('.')) return undefined;
  let file = path.resolve(root, path.dirname(fromFile), specifier);
  if (/\.js$/.test(file) && fs.existsSync(file.replace(/\.js$/, '.ts')))
    file = file.replace(/\.js$/, '.ts');
  else if (!path.extname(file) && fs.existsSync(`${file}.ts`)) file = `${file}.ts`;
  return path.relative(root, file).split(path.sep).join('/');
}

function forbidden(specifier: string, local: string | undefined): boolean {
  if (FORBIDDEN_MODULES.includes(specifier)) return true;
  if (!local) return false;
  return FORBIDDEN_FILES.includes(local) || FORBIDDEN_DIRS.some((dir) => local.startsWith(dir));
}

/** Import chains from `file` to a forbidden module (`a.test.ts > x.ts > node:child_process`). */
function forbiddenReaches(file: string): string[] {
  const reaches: string[] = [];
  const seen = new Set([file]);
  const queue: { file: string; chain: string[] }[] = [{ file, chain: [file] }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const absolute = path.join(root, next.file);
    if (!/\.(ts|mts|js|mjs)$/.test(absolute) || !fs.existsSync(absolute)) continue;
    for (const specifier of runtimeImports(fs.readFileSync(absolute, 'utf8'))) {
      const local = resolveLocal(next.file, specifier);
      if (forbidden(specifier, local)) {
        reaches.push([...next.chain, local ?? specifier].join(' > '));
      } else if (local && !seen.has(local)) {
        seen.add(local);
        queue.push({ file: local, chain: [...next.chain, local] });
      }
    }
  }
  return reaches;
}

/**
 * Whether a test file leaves module mocks, stubbed globals or a changed environment behind for
 * the next file of its worker (vitest.config.ts runs files unisolated). A module mocked with
 * vi.doMock is allowed when the file undoes it (vi.doUnmock) and resets the module registry.
 */
function leaks(source: string): boolean {
  if (
    /\bvi\.(?:mock|stubEnv|stubGlobal)\(|process\.env\.\w+\s*=(?!=)|process\.chdir\(/.test(source)
  )
    return true;
  return (
    /\bvi\.doMock\(/.test(source) &&
    !(/\bvi\.doUnmock\(/.test(source) && /\bvi\.resetModules\(/.test(source))
  );
}

const unitFiles = globSync(UNIT_TESTS, { cwd: root, ignore: ['**/node_modules/**'] }).sort();

describe('test tiers (vitest.config.ts)', () => {
  it('every unit pattern names at least one test file of the normal suite', () => {
    const all = new Set(globSync(ALL_TESTS, { cwd: root, ignore: ['**/node_modules/**'] }));
    for (const pattern of UNIT_TESTS) {
      const matched = globSync(pattern, { cwd: root, ignore: ['**/node_modules/**'] });
      expect(matched.length, pattern).toBeGreaterThan(0);
      for (const file of matched) expect(all.has(file), file).toBe(true);
    }
    expect(unitFiles).toContain('test/architecture/tiers.unit.test.ts');
  });

  it('a test file is unit exactly when it is named *.unit.test.ts', () => {
    const named = globSync('**/*.unit.test.ts', {
      cwd: root,
      ignore: ['**/node_modules/**', '**/dist/**'],
    }).sort();
    expect(named, 'name these files *.test.ts or move them under a unit pattern').toEqual(
      unitFiles,
    );
    const misnamed = unitFiles.filter((file) => !file.endsWith('.unit.test.ts'));
    expect(misnamed, 'a unit pattern matches only *.unit.test.ts').toEqual([]);
  });

  it('the unit project runs the unit files and the integration project none of them', () => {
    const projects = (config.test?.projects ?? []).flatMap((project) =>
      typeof project === 'object' && 'test' in project ? [project.test] : [],
    );
    const unit = projects.find((test) => test?.name === 'unit');
    const integration = projects.find((test) => test?.name === 'integration');
    expect(unit?.include).toEqual(UNIT_TESTS);
    expect(integration?.include).toEqual(ALL_TESTS);
    expect(integration?.exclude).toEqual(expect.arrayContaining(UNIT_TESTS));
  });

  it('no unit file reaches a store, the app, a child process or a browser', () => {
    const offending = unitFiles.flatMap(forbiddenReaches);
    expect(offending, 'move these files to the integration tier').toEqual([]);
  });

  it('no test file mocks modules or stubs globals for good (both tiers share workers, unisolated)', () => {
    const all = globSync(ALL_TESTS, { cwd: root, ignore: ['**/node_modules/**'] }).sort();
    const offending = all.filter((file) => leaks(fs.readFileSync(path.join(root, file), 'utf8')));
    expect(offending, 'undo the mock or stub in the same file').toEqual([]);
  });

  it('the leak check sees what it is meant to see', () => {
    // split, so that this file's own scan does not see them
    const vi = 'vi.';
    expect(leaks(`${vi}mock('../x.js');`)).toBe(true);
    expect(leaks(`${vi}stubEnv('A', 'b');`)).toBe(true);
    expect(leaks(`process.env.${'DATABASE_URL'} = x;`)).toBe(true);
    expect(leaks('if (process.env.DATABASE_URL === x) {}')).toBe(false);
    expect(leaks(`${vi}doMock('node:crypto', f);`)).toBe(true);
    expect(
      leaks(`${vi}doMock('node:crypto', f); ${vi}doUnmock('node:crypto'); ${vi}resetModules();`),
    ).toBe(false);
  });

  it('the check sees what it is meant to see', () => {
    const source = [
      "import type { Knex } from 'knex';",
      "import { spawn } from 'node:child_process';",
      'import {',
      '  createTestContext,',
      "} from '../helpers/context.js';",
      "export { x } from './x.js';",
      "export type { Y } from './y.js';",
      // split, so that this file's own scan does not see it
      'const later = await imp' + "ort('playwright-core');",
    ].join('\n');
    expect(runtimeImports(source).sort()).toEqual(
      ['../helpers/context.js', './x.js', 'node:child_process', 'playwright-core'].sort(),
    );
    expect(forbiddenReaches('test/helpers/cli.ts')).toContain(
      'test/helpers/cli.ts > test/helpers/context.ts',
    );
    expect(forbiddenReaches('test/architecture/engines.unit.test.ts')).toEqual([]);
  });
});
