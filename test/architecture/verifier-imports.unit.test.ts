import fs from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { entryExports } from '../../packages/verify/test/entry-exports.js';

/**
 * What the service takes from its verifier package is the list in CONTRIBUTING.md, entry by
 * entry: a name `src/` starts importing, or stops importing, fails here until the list says so;
 * and `./internals` exports only names the service imports, so it cannot grow into a second
 * public entry.
 */
const root = path.resolve(import.meta.dirname, '../..');
const PACKAGE = '@verification-receipts/verify';

type ByEntry = Record<string, string[]>;

/** The names each `import { ... } from '@verification-receipts/verify...'` of `src/` takes. */
function serviceImports(): { byEntry: ByEntry; unnamed: string[] } {
  const byEntry: Record<string, Set<string>> = {};
  const unnamed: string[] = [];
  const named =
    /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(@verification-receipts\/verify[^']*)'/g;
  const any = /(?:from|import)\s*\(?\s*'(@verification-receipts\/verify[^']*)'/g;
  for (const file of globSync(['src/**/*.ts'], { cwd: root })) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const matches = [...text.matchAll(named)];
    for (const [, names, entry] of matches) {
      for (const part of (names as string).split(',').map((p) => p.trim())) {
        if (!part) continue;
        const name = part.replace(/^type\s+/, '').split(/\s+as\s+/)[0] as string;
        (byEntry[entry as string] ??= new Set()).add(name);
      }
    }
    // `import * as`, a default import, a side-effect or dynamic import: no names to list
    const all = [...text.matchAll(any)].length;
    if (all > matches.length) unnamed.push(file);
  }
  return {
    byEntry: Object.fromEntries(Object.entries(byEntry).map(([k, v]) => [k, [...v].sort()])),
    unnamed,
  };
}

/** CONTRIBUTING.md's list: one bullet per entry, `- \`entry\`: \`name\`, \`name\` (why)`. */
function listedImports(): ByEntry {
  const text = fs.readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
  const bullets = text.split('\n- ').filter((b) => b.startsWith(`\`${PACKAGE}`));
  const listed: ByEntry = {};
  for (const bullet of bullets) {
    const [head, ...rest] = (bullet.split('\n\n')[0] as string).split(':');
    const entry = (head as string).replaceAll('`', '');
    const names = rest.join(':').replace(/\([^)]*\)/g, '');
    listed[entry] = [...names.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1] as string).sort();
  }
  return listed;
}

describe("the service's use of the verifier package", () => {
  it('is the list in CONTRIBUTING.md, entry by entry', () => {
    const { byEntry, unnamed } = serviceImports();
    expect(unnamed, 'imports of the package that name nothing').toEqual([]);
    const listed = listedImports();
    expect(Object.keys(listed).length).toBeGreaterThan(0);
    expect(byEntry).toEqual(listed);
  });

  it('./internals exports only what the service imports from it', () => {
    const internals = path.join(root, 'packages/verify/src/internals.ts');
    const exported = entryExports(internals).sort();
    expect(exported).toEqual(listedImports()[`${PACKAGE}/internals`]);
  });
});
