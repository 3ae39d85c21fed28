import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The product speaks of itself: code, comments, tests, docs and benchmarks say why things are as
 * they are, in the present tense. A tracker's item number or a mention of the working sitting a
 * line was written in means nothing to a reader outside the project, and the history of a change
 * lives in git. The pattern is built from parts so that this file does not match it.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

const phrase = (...words: string[]) => `\\b${words.join(' ')}\\b`;
const NOTE = new RegExp(
  [
    `\\b[Ss]${'tops?'} [0-9]+`,
    `\\b[Ii]${'ssues?'} [0-9]+`,
    phrase('this', 'stop'),
    phrase('this', 'session'),
  ].join('|'),
);

/** Folders whose tracked text files are read, and root-level Markdown files. */
const FOLDERS = ['src/', 'test/', 'docs/', 'bench/', 'packages/', 'action/', 'scripts/', '.ci/'];
const BINARY = /\.(pdf|png|jpe?g|gif|ico|webp|woff2?|ttf|otf|zip|gz|tgz|wasm)$/i;

function scannedFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  return tracked.filter((file) => {
    if (BINARY.test(file) || path.basename(file) === 'package-lock.json') return false;
    return FOLDERS.some((folder) => file.startsWith(folder)) || /^[^/]+\.md$/.test(file);
  });
}

function notesIn(file: string): string[] {
  const full = path.join(root, file);
  // A tracked file deleted in the working tree has nothing left to say.
  if (!existsSync(full)) return [];
  const text = readFileSync(full, 'utf8');
  if (text.includes('\0')) return [];
  return text
    .split(/\r?\n/)
    .flatMap((line, i) => (NOTE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

describe('process notes', () => {
  it('the pattern catches references to work items and sittings, not ordinary prose', () => {
    const words = (...w: string[]) => w.join(' ');
    expect(NOTE.test(words('measured at', 'stop', '32'))).toBe(true);
    expect(NOTE.test(words('Stops', '26 to 28'))).toBe(true);
    expect(NOTE.test(words('see', 'issue', '12'))).toBe(true);
    expect(NOTE.test(words('changed in', 'this', 'session'))).toBe(true);
    expect(NOTE.test('SIGTERM stops every worker, then the primary exits')).toBe(false);
    expect(NOTE.test('a bus stop is not a number')).toBe(false);
  });

  it('no tracked source, test, doc or benchmark line refers to them', () => {
    const files = scannedFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap(notesIn);
    expect(
      found,
      `rewrite these lines in the present tense, without the reference:\n${found.join('\n')}`,
    ).toEqual([]);
  });
});
