import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  importCycles,
  importGraph,
  importSpecifiers,
  siblingFolderGraph,
  typeScriptFiles,
} from './import-graph.js';

/**
 * No import loops: two modules that import each other (types included) are one module in two
 * files, and a loop of run-time imports makes one of them see the other half-loaded. Every file
 * of src/ and packages/verify/src/ is read; a loop fails with the files it ties together. The
 * same holds one level up: of two sibling folders (src/receipts/checks and
 * src/receipts/ci-identity), at most one imports the other.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_DIRS = ['src', 'packages/verify/src'];
let sourceGraph: Map<string, string[]> | undefined;
/** The import graph of src/ and packages/verify/src/, read once for the suite. */
function sources(): Map<string, string[]> {
  sourceGraph ??= importGraph(SOURCE_DIRS.flatMap((dir) => typeScriptFiles(path.join(root, dir))));
  return sourceGraph;
}

const relative = (cycles: string[][], base: string): string[][] =>
  cycles.map((cycle) => cycle.map((file) => path.relative(base, file).split(path.sep).join('/')));

/** A scratch folder holding `files` (relative path to content), removed after the suite. */
const scratch: string[] = [];
function plant(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
  scratch.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
afterAll(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

describe('import cycles', () => {
  it('src/ and packages/verify/src/ have none', () => {
    expect(sources().size).toBeGreaterThan(100);
    const cycles = relative(importCycles(sources()), root);
    expect(cycles, `import cycles:\n${cycles.map((c) => c.join(' <-> ')).join('\n')}`).toEqual([]);
  });

  it('no two sibling folders import each other (one depends on the other, or they are one folder)', () => {
    const cycles = relative(importCycles(siblingFolderGraph(sources())), root);
    expect(
      cycles,
      `folders importing each other:\n${cycles.map((c) => c.join(' <-> ')).join('\n')}`,
    ).toEqual([]);
  });

  it('finds two sibling folders planted to import each other', () => {
    const dir = plant({
      'domain/checks/ci.ts':
        "import type { Evidence } from '../identity/evidence.js';\nexport type Ci = Evidence;\n",
      'domain/checks/outcome.ts': 'export const pass = 1;\n',
      'domain/identity/evidence.ts': 'export type Evidence = 1;\n',
      'domain/identity/judge.ts':
        "import { pass } from '../checks/outcome.js';\nexport const judged = pass;\n",
      'domain/types.ts': "import type { Ci } from './checks/ci.js';\nexport type T = Ci;\n",
      'edge/use.ts': "import type { T } from '../domain/types.js';\nexport type U = T;\n",
    });
    const cycles = relative(
      importCycles(siblingFolderGraph(importGraph(typeScriptFiles(dir)))),
      dir,
    );
    expect(cycles).toEqual([['domain/checks', 'domain/identity']]);
  });

  it('every static form of import is an edge, a lazy import() is not', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import './c.js';",
      "export { d } from './d.js';",
      "export type { E } from './e.js';",
      "export * from './f.js';",
      "import g = require('./g.js');",
      "const h = await import('./h.js');",
      "import fs from 'node:fs';",
    ].join('\n');
    expect(importSpecifiers('x.ts', source)).toEqual([
      './a.js',
      './b.js',
      './c.js',
      './d.js',
      './e.js',
      './f.js',
      './g.js',
      'node:fs',
    ]);
  });

  it('finds a loop planted through import type, export from and a plain import', () => {
    const dir = plant({
      'a.ts': "export { b } from './nested/b.js';\n",
      'nested/b.ts': "import type { C } from '../c.js';\nexport const b = 1 as unknown as C;\n",
      'c.ts': "import { a } from './a.js';\nexport type C = typeof a;\n",
      'self.ts': "import { s } from './self.js';\nexport const s = 1;\nvoid s;\n",
      'lazy.ts': "export const l = () => import('./lazy-other.js');\n",
      'lazy-other.ts': "import { l } from './lazy.js';\nexport const o = l;\n",
      'leaf.ts': "import { a } from './a.js';\nexport const leaf = a;\n",
    });
    const cycles = relative(importCycles(importGraph(typeScriptFiles(dir))), dir);
    expect(cycles).toEqual([['a.ts', 'c.ts', 'nested/b.ts'], ['self.ts']]);
  });

  it('finds the configuration loop planted back into a copy of src/config', () => {
    const copy = (name: string) => fs.readFileSync(path.join(root, 'src', name), 'utf8');
    const derived = copy('config/derived.ts');
    const files: Record<string, string> = {
      'config.ts': copy('config.ts'),
      'config/derived.ts': derived,
    };
    for (const name of fs.readdirSync(path.join(root, 'src/config'))) {
      if (name.endsWith('.ts') && name !== 'derived.ts')
        files[`config/${name}`] = copy(`config/${name}`);
    }
    const dir = plant(files);
    expect(importCycles(importGraph(typeScriptFiles(dir)))).toEqual([]);
    // the copy has no loop; with derived.ts importing the types from config.ts again, it has one
    const loop = `import type { Config } from '../config.js';\n${derived}`;
    fs.writeFileSync(path.join(dir, 'config/derived.ts'), loop);
    const planted = relative(importCycles(importGraph(typeScriptFiles(dir))), dir);
    expect(planted).toEqual([['config.ts', 'config/derived.ts']]);
  });
});
