import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every reference from one document to another resolves: a relative Markdown link
 * `[text](path)` and every `something.md` named in prose or code (a comment's `docs/log.md`)
 * point at a tracked file. A link resolves against its own file's folder; a bare `name.md`
 * may also name a file from the repository root, a README of its folder or, inside a package,
 * a file of that package. The README stays short enough to finish.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Files a build makes from tracked ones, which documents may name: the verifier package's
 * GLOSSARY.md is docs/glossary.md, copied in by the package's prepack. Named, never scanned.
 */
const BUILT = ['packages/verify/GLOSSARY.md'];

/** Folders whose tracked text files are read, and root-level Markdown files. */
const FOLDERS = ['src/', 'docs/', 'packages/', 'action/'];
const BINARY = /\.(pdf|png|jpe?g|gif|ico|webp|woff2?|ttf|otf|zip|gz|tgz|wasm)$/i;
const README_MAX_LINES = 250;

/**
 * `git ls-files`: the tracked files, and those about to be (untracked, not ignored), so a new
 * document and the links to it are checked together before they are committed.
 */
function trackedFiles(): string[] {
  const args = ['ls-files', '-z', '--cached', '--others', '--exclude-standard'];
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
}

function scannedFiles(tracked: readonly string[]): string[] {
  return tracked.filter((file) => {
    if (BINARY.test(file) || path.basename(file) === 'package-lock.json') return false;
    // tests name files of their own making (a tarball's entries): not scanned, as test/ is not
    if (/^packages\/[^/]+\/test\//.test(file)) return false;
    return FOLDERS.some((folder) => file.startsWith(folder)) || /^[^/]+\.md$/.test(file);
  });
}

export interface Reference {
  line: number;
  target: string;
  /** A Markdown link resolves only against its file; a named file also from the root. */
  kind: 'link' | 'name';
}

const LINK = /\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const MD_NAME = /(?<![\w./-])((?:\.{1,2}\/)*[\w][\w.-]*(?:\/[\w.-]+)*\.md)(?:#[\w-]*)?(?![\w/-])/g;
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * The relative links and `*.md` names of one file's text. In code (`markdown` false) a link's
 * target must look like a path (a `/` or a `.`, no `${`), so `fns[id](ctx)` is not a link.
 */
export function referencesIn(text: string, markdown = true): Reference[] {
  const refs: Reference[] = [];
  text.split(/\r?\n/).forEach((lineText, i) => {
    const line = i + 1;
    const linked = new Set<string>();
    for (const m of lineText.matchAll(LINK)) {
      const raw = m[1] ?? '';
      linked.add(raw);
      if (EXTERNAL.test(raw) || raw.startsWith('#') || raw.includes('${')) continue;
      if (!markdown && !/[./]/.test(raw)) continue;
      const target = decodeURI(raw.split('#')[0] ?? '').split('?')[0] ?? '';
      if (target) refs.push({ line, target, kind: 'link' });
    }
    // prose and code names, outside URLs and outside the links already taken
    const prose = lineText.replace(LINK, ' ').replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ');
    for (const m of prose.matchAll(MD_NAME)) {
      const target = m[1] ?? '';
      if (!linked.has(target)) refs.push({ line, target, kind: 'name' });
    }
  });
  return refs;
}

/** Whether `ref`, found in `file`, names a tracked file (or folder of tracked files). */
export function resolves(ref: Reference, file: string, tracked: ReadonlySet<string>): boolean {
  const here = path.posix.dirname(file);
  const candidates = [path.posix.normalize(path.posix.join(here, ref.target))];
  if (ref.kind === 'name') {
    candidates.push(path.posix.normalize(ref.target));
    // inside a package, a name may be the package's own file (what its user sees)
    const pkg = /^packages\/[^/]+\//.exec(file)?.[0];
    if (pkg) candidates.push(path.posix.normalize(`${pkg}${ref.target}`));
  }
  return candidates.some((c) => {
    const clean = c.replace(/\/$/, '');
    if (tracked.has(clean)) return true;
    // a link to a folder is fine when the folder holds tracked files
    for (const t of tracked) if (t.startsWith(`${clean}/`)) return true;
    return false;
  });
}

export function brokenReferences(
  files: readonly string[],
  tracked: ReadonlySet<string>,
  read: (file: string) => string | undefined,
): string[] {
  const broken: string[] = [];
  for (const file of files) {
    const text = read(file);
    if (text === undefined || text.includes('\0')) continue;
    for (const ref of referencesIn(text, /\.mdx?$/i.test(file))) {
      if (!resolves(ref, file, tracked)) broken.push(`${file}:${ref.line}: ${ref.target}`);
    }
  }
  return broken;
}

function readTracked(file: string): string | undefined {
  const full = path.join(root, file);
  // A tracked file deleted in the working tree has nothing left to say.
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
}

describe('links between documents', () => {
  const tracked = trackedFiles().filter((file) => !BUILT.includes(file));
  const trackedSet = new Set([...tracked, ...BUILT]);

  it('finds links and .md names, and skips URLs and pure anchors', () => {
    const refs = referencesIn(
      [
        'See [the log](docs/log.md#proof-files), [top](#top), [site](https://x.example/a.md).',
        'A comment names `docs/checks.md` and plain src/pdf/README.md too; <https://c2sp.org/x.md>',
        '[img](docs/verify-page.png "title") and ./CONTRIBUTING.md.',
      ].join('\n'),
    );
    expect(refs.map((r) => `${r.kind}:${r.target}`)).toEqual([
      'link:docs/log.md',
      'name:docs/checks.md',
      'name:src/pdf/README.md',
      'link:docs/verify-page.png',
      'name:./CONTRIBUTING.md',
    ]);
  });

  it('fails on a planted broken link', () => {
    const files = ['docs/planted.md'];
    const read = () => '[gone](no-such-file.md) and [ok](log.md) and `docs/nowhere.md`';
    expect(brokenReferences(files, trackedSet, read)).toEqual([
      'docs/planted.md:1: no-such-file.md',
      'docs/planted.md:1: docs/nowhere.md',
    ]);
  });

  it('every relative link and .md reference resolves to a tracked file', () => {
    expect(brokenReferences(scannedFiles(tracked), trackedSet, readTracked)).toEqual([]);
  });

  it(`README.md has at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(path.join(root, 'README.md'), 'utf8').replace(/\n$/, '').split('\n');
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
  });
});
