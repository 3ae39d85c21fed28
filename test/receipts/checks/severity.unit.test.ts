import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_REASONS } from '../../../src/receipts/checks/catalogue.js';
import { REPO_ROOT } from './helpers.js';

/**
 * The status column of docs/checks.md's reason tables says what the code emits: a label the
 * checks only ever `fail(...)` is documented FAIL, one they only `warn(...)` is WARN, and one
 * whose status a policy knob chooses (`judged(...)`) is documented as a choice ("WARN / FAIL",
 * "PASS / WARN" or "profile"), never as one fixed status. Integrations branch on these; a label
 * documented WARN that blocks, or FAIL that only flags, misleads them.
 */
const CHECKS_DIR = path.join(REPO_ROOT, 'src/receipts/checks');
const docs = readFileSync(path.join(REPO_ROOT, 'docs/checks.md'), 'utf8');

type Emitted = 'FAIL' | 'WARN' | 'judged';

/** `checkId reason` -> how the code emits it, from the outcome constructors' literal labels. */
export function emittedStatuses(sources: readonly string[]): Map<string, Set<Emitted>> {
  const found = new Map<string, Set<Emitted>>();
  const add = (key: string, how: Emitted) => found.set(key, (found.get(key) ?? new Set()).add(how));
  for (const source of sources) {
    const own = /const CHECK_ID = '([a-z]+\.[a-z]+)'/.exec(source)?.[1];
    const checkOf = (arg: string) => (arg === 'CHECK_ID' ? own : /^'(.+)'$/.exec(arg)?.[1]);
    const call = /\b(fail|warn|judged)\(\s*(CHECK_ID|'[a-z]+\.[a-z]+')\s*,([^;]*?)'([a-z_]+)'/g;
    for (const m of source.matchAll(call)) {
      const [, fn, checkArg = '', between = '', reason] = m;
      const checkId = checkOf(checkArg);
      // fail/warn take the label second; judged takes a status first, then the label
      const direct = fn !== 'judged' && between.trim() === '';
      const chosen = fn === 'judged' && /^\s*[^,]+,\s*$/.test(between);
      if (!checkId || !(direct || chosen)) continue;
      add(`${checkId} ${reason}`, fn === 'fail' ? 'FAIL' : fn === 'warn' ? 'WARN' : 'judged');
    }
  }
  return found;
}

/** `checkId reason` -> the status column of its row in docs/checks.md. */
function documentedStatuses(): Map<string, string> {
  const row = /^\|\s*`([a-z]+\.[a-z]+)`\s*\|\s*`([a-z_]+)`\s*\|\s*([^|]+?)\s*\|/gm;
  return new Map([...docs.matchAll(row)].map(([, c, r, s]) => [`${c} ${r}`, s ?? '']));
}

describe("docs/checks.md's status column and the checks", () => {
  const sources = readdirSync(CHECKS_DIR)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(path.join(CHECKS_DIR, f), 'utf8'));
  const emitted = emittedStatuses(sources);
  const documented = documentedStatuses();

  it('reads how most labels are emitted from the code itself', () => {
    const catalogued = Object.values(CHECK_REASONS).flat().length;
    expect(emitted.size).toBeGreaterThan(catalogued * 0.75);
    expect(emittedStatuses(["const CHECK_ID = 'x.y';\nfail(CHECK_ID, 'a_b', 't');"])).toEqual(
      new Map([['x.y a_b', new Set(['FAIL'])]]),
    );
    expect(emittedStatuses(["judged('x.y', knob, 'a_b', t)"])).toEqual(
      new Map([['x.y a_b', new Set(['judged'])]]),
    );
  });

  it('documents each label with the status the code gives it', () => {
    const wrong: string[] = [];
    for (const [key, how] of emitted) {
      const status = documented.get(key);
      const choice = status !== undefined && (status.includes(' / ') || status === 'profile');
      const fixed = how.has('judged') ? undefined : [...how].sort().join(' / ');
      const ok = fixed === undefined ? choice : status === fixed;
      if (!ok)
        wrong.push(
          `${key}: documented ${status ?? '(missing)'}, emitted ${[...how].join(' and ')}`,
        );
    }
    expect(wrong).toEqual([]);
  });
});
