import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryExports } from './entry-exports.js';

/**
 * The main entry exports what the README's table lists, no more and no less: its values as the
 * module has them at run time, its types as the compiler sees the entry's exports. A name added
 * to the entry without its row, or a row without its name, fails here.
 */
const root = path.resolve(import.meta.dirname, '..');
const entry = path.join(root, 'src/index.ts');

const HEADING = '### What the main entry exports';

/** The rows of the README's "What the main entry exports" table: `name` or `type Name`. */
function readmeNames(): { values: string[]; types: string[] } {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(HEADING);
  expect(start, 'the README has its exports section').toBeGreaterThan(0);
  const end = readme.indexOf('\n#', start + HEADING.length);
  const body = readme.slice(start, end === -1 ? undefined : end);
  const rows = [...body.matchAll(/^\| `(type )?([A-Za-z_$][\w$]*)` +\|/gm)];
  return {
    values: rows.filter((r) => !r[1]).map((r) => r[2] as string),
    types: rows.filter((r) => r[1]).map((r) => r[2] as string),
  };
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe('the main entry and the README', () => {
  it('exports at run time exactly the values the README lists', async () => {
    const listed = readmeNames();
    expect(listed.values.length).toBeGreaterThan(0);
    expect(sorted(Object.keys(await import('../src/index.js')))).toEqual(sorted(listed.values));
  });

  it('exports exactly the types the README lists', async () => {
    const listed = readmeNames();
    const runtime = new Set(Object.keys(await import('../src/index.js')));
    const types = entryExports(entry).filter((name) => !runtime.has(name));
    expect(sorted(types)).toEqual(sorted(listed.types));
  });
});
