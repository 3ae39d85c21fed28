import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every runtime dependency of the service is used by what runs (src/, scripts/): one that only
 * tests use belongs in devDependencies, and one nothing uses is attack surface and install time
 * for nothing.
 */

const root = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** Dependencies loaded by name rather than imported, each with where. */
const LOADED_BY_NAME: Record<string, RegExp> = {
  pg: /client: 'pg'/, // knex's PostgreSQL driver (src/storage/database.ts)
};

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((entry) =>
      entry.isFile() && /\.(ts|mjs|js)$/.test(entry.name)
        ? [fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')]
        : [],
    );
}

describe('package.json dependencies', () => {
  const code = [...sources(path.join(root, 'src')), ...sources(path.join(root, 'scripts'))].join(
    '\n',
  );

  it('each one is imported (or loaded by name) by src/ or scripts/', () => {
    const unused = Object.keys(manifest.dependencies).filter((name) => {
      const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      const imported = new RegExp(`(from |import\\()'${escaped}(/[^']*)?'`).test(code);
      return !imported && !(LOADED_BY_NAME[name]?.test(code) ?? false);
    });
    expect(unused).toEqual([]);
  });
});
