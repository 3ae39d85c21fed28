import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

/**
 * The permissions and events a by-hand registration needs are the ones `app.yml` (the manifest
 * the setup page posts) asks for: the table and the events line of docs/github-app.md are
 * checked against it, so an App registered from the docs can do everything the code does,
 * deployment gates included.
 */
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const manifest = load(read('app.yml')) as {
  default_permissions: Record<string, string>;
  default_events: string[];
};
const section = read('docs/github-app.md').split('## 1. Register the app')[1]?.split('\n## ')[0];

const snake = (words: string) => words.trim().toLowerCase().replaceAll(' ', '_');

describe('docs/github-app.md and app.yml', () => {
  it('list the same permissions with the same access', () => {
    const rows = [...(section ?? '').matchAll(/^\| ([A-Z][a-z ]+?) +\| (read|write) +\|/gm)];
    const documented = Object.fromEntries(rows.map((m) => [snake(m[1] ?? ''), m[2]]));
    expect(documented).toEqual(manifest.default_permissions);
  });

  it('list the same events', () => {
    const line = /^Events: (.+)$/m.exec(section ?? '')?.[1] ?? '';
    const documented = [...line.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => snake(m[1] ?? ''));
    expect(documented.sort()).toEqual([...manifest.default_events].sort());
  });
});
