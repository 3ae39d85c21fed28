import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The static import graph of TypeScript sources, and its cycles. An edge is every module
 * specifier a file names at its top level: `import`, `import type`, `import '…'`,
 * `export … from` (types included) and `import x = require('…')`. A type-only import is an edge
 * too: a loop of types still ties two modules into one that must be read and changed together.
 * `import('…')` is not: a lazy import runs after both modules have loaded. Only relative
 * specifiers are followed; `./x.js` names `./x.ts` when that file exists (the ESM suffix rule).
 */

/** The module specifiers `source` names statically (see above). */
export function importSpecifiers(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) {
      const spec = statement.moduleSpecifier;
      if (spec && ts.isStringLiteral(spec)) found.push(spec.text);
    } else if (
      ts.isImportEqualsDeclaration(statement) &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteral(statement.moduleReference.expression)
    ) {
      found.push(statement.moduleReference.expression.text);
    }
  }
  return found;
}

/** The `.ts` file a relative specifier names from `fromFile` (absolute paths), if it exists. */
export function resolveRelative(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const target = path.resolve(path.dirname(fromFile), specifier);
  const candidates = target.endsWith('.js')
    ? [target.replace(/\.js$/, '.ts')]
    : [target, `${target}.ts`, path.join(target, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && fs.existsSync(c) && fs.statSync(c).isFile());
}

/** Every `.ts` file (declarations excluded) under `dir`, as absolute paths, sorted. */
export function typeScriptFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...typeScriptFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out.sort();
}

/** Each file's resolved imports among `files` (absolute paths). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importSpecifiers(file, fs.readFileSync(file, 'utf8'))
      .map((spec) => resolveRelative(file, spec))
      .filter((t): t is string => t !== undefined && known.has(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The import cycles of `graph`: Tarjan's strongly connected components with more than one file,
 * or one file that imports itself. Each cycle's files are sorted; cycles are sorted by their first.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];

  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = component.length === 1 && (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) cycles.push(component.sort());
  };

  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/**
 * The graph between the sub-folders of each folder: an edge A -> B when a file anywhere under
 * sub-folder A imports one anywhere under its sibling B (files directly in the parent are not
 * a sub-folder, so `src/errors.ts` ties nothing together). Nodes are the sub-folders' paths.
 */
export function siblingFolderGraph(
  graph: ReadonlyMap<string, readonly string[]>,
): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const fromParts = path.dirname(from).split(path.sep);
      const toParts = path.dirname(to).split(path.sep);
      let shared = 0;
      while (shared < fromParts.length && fromParts[shared] === toParts[shared]) shared += 1;
      // both below their common folder, in two different sub-folders of it
      if (shared >= fromParts.length || shared >= toParts.length) continue;
      const a = fromParts.slice(0, shared + 1).join(path.sep);
      const b = toParts.slice(0, shared + 1).join(path.sep);
      folders.set(a, (folders.get(a) ?? new Set()).add(b));
      if (!folders.has(b)) folders.set(b, new Set());
    }
  }
  return new Map([...folders].map(([folder, to]) => [folder, [...to]]));
}
