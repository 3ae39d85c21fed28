import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseLogPolicy } from '../../src/log/policy.js';
import { verifyBundle } from '../../src/verify.js';
import { fixture, pinnedKeys, type Json } from '../helpers.js';

/**
 * The exit status a deploy script gates on: 0 only for an authentic ALLOW receipt known not to
 * be revoked (a signed status no older than --max-status-age, fetched, supplied or carried in
 * the bundle), or whose unknown status the caller accepts with --offline. The statements are the
 * service's own recorded answers; a bundle carrying one is made by adding it as JSON.
 */
const fixtures = path.join(import.meta.dirname, '../fixtures');
const at = (name: string) => path.join(fixtures, name);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-exit-'));

function write(name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  // the verdict line in plain words, then the technical line indented under it
  const technical = out.at(-1)?.trim() ?? '';
  return { code, out: out.join('\n'), err: err.join('\n'), verdict: out.at(-2) ?? '', technical };
}

/** The age in seconds of a recorded statement now, so a limit can sit just above or below it. */
const ageOf = (name: string): number =>
  Math.ceil((Date.now() - Date.parse(fixture<Json>(name).statement.producedAt)) / 1000);

const jwks = ['--jwks', at('jwks.json')];

describe('an authentic ALLOW receipt whose status was not checked', () => {
  it('the revoked receipt checked offline: exit 3 (caution), exit 0 only with --offline, which the verdict says', async () => {
    const plain = await run(at('bundle-revoked.json'), ...jwks);
    expect(plain.code, plain.out).toBe(3);
    expect(plain.verdict).toBe(
      'CAUTION: the receipt is genuine and the checks passed, but whether it was revoked since is not known.',
    );
    expect(plain.technical).toMatch(
      /^authentic, decision ALLOW, but the current status was not checked/,
    );
    expect(plain.technical).toContain('--offline');
    const offline = await run(at('bundle-revoked.json'), ...jwks, '--offline');
    expect(offline.code, offline.out).toBe(0);
    expect(offline.verdict).toMatch(
      /^VERIFIED OFFLINE: genuine receipt, decision ALLOW: .*not checked/,
    );
    expect(offline.technical).toMatch(/not checked.*accepted as unknown by --offline/);
    const json = JSON.parse((await run(at('bundle-revoked.json'), ...jwks, '--json')).out);
    expect(json).toMatchObject({
      verdict: 'caution',
      exitCode: 3,
      authentic: true,
      currentStatus: { state: 'not-checked' },
    });
  });

  it('a PDF receipt alike: exit 3, or 0 with --offline', async () => {
    expect((await run(at('receipt.pdf'), ...jwks)).code).toBe(3);
    expect((await run(at('receipt.pdf'), ...jwks, '--offline')).code).toBe(0);
  });
});

describe('a signed status statement carried in the bundle', () => {
  const active = fixture<Json>('status-active.json');

  it('fresh (within --max-status-age): exit 0, accepted; stale: exit 3', async () => {
    const file = write('with-status.json', { ...fixture<Json>('bundle.json'), status: active });
    const age = ageOf('status-active.json');
    const fresh = await run(file, ...jwks, '--max-status-age', String(age + 600), '--json');
    expect(fresh.code, fresh.out).toBe(0);
    const report = JSON.parse(fresh.out);
    expect(report).toMatchObject({ verdict: 'accepted', currentStatus: { state: 'active' } });
    const signed = report.steps.find((s: Json) => s.id === 'status-signature');
    expect(signed).toMatchObject({ status: 'PASS' });
    expect(signed.detail).toContain('carried in the bundle');
    const stale = await run(file, ...jwks, '--max-status-age', String(Math.max(age - 600, 0)));
    expect(stale.code, stale.out).toBe(3);
    expect(stale.out).toMatch(
      /^WARN {2}status-age +The status statement is too old .*\n +produced \d+ s ago, older than the limit/m,
    );
    expect(stale.verdict).toMatch(/^CAUTION: .*whether it was revoked since is not known/);
    expect(stale.technical).toMatch(/too old to be current/);
    // with the default limit of 300 s the two-day-old recording is stale too
    expect((await run(file, ...jwks)).code).toBe(3);
  });

  it('a revocation it carries is exit 3 even with --offline', async () => {
    const revoked = {
      ...fixture<Json>('bundle-revoked.json'),
      status: fixture<Json>('status-revoked.json'),
    };
    const res = await run(write('revoked-with-status.json', revoked), ...jwks, '--offline');
    expect(res.code, res.out).toBe(3);
    expect(res.verdict).toBe(
      'AUTHENTIC BUT REVOKED: the receipt is genuine, but it was revoked: do not rely on it.',
    );
    expect(res.technical).toMatch(/^revoked at .* by issuer escrow-co/);
    expect(res.out).toMatch(
      /^FAIL {2}status +The receipt was revoked: it no longer vouches for anything\.\n +revoked at /m,
    );
  });

  it('one made to look fresh, or about another receipt, is not accepted (exit 1)', async () => {
    const now = new Date().toISOString();
    const old = String(active.statement.producedAt);
    const redated = {
      ...active,
      statement: { ...active.statement, producedAt: now },
      canonicalStatement: String(active.canonicalStatement).replace(old, now),
    };
    const forged = { ...fixture<Json>('bundle.json'), status: redated };
    const res = await run(write('redated.json', forged), ...jwks);
    expect(res.code, res.out).toBe(1);
    expect(res.out).toMatch(
      /^FAIL {2}status-signature +The receipt's current status could not be confirmed\.\n +the statement signature does not verify/m,
    );
    const other = { ...fixture<Json>('bundle-revoked.json'), status: active };
    const res2 = await run(write('other.json', other), ...jwks, '--max-status-age', '999999999');
    expect(res2.code, res2.out).toBe(1);
    expect(res2.out).toMatch(/status-signature .*\n +the statement is about another receipt/);
  });
});

describe('--status FILE: a saved signed status', () => {
  it('fresh and active: exit 0; revoked: exit 3, with or without --offline', async () => {
    const age = String(ageOf('status-active.json') + 600);
    const ok = await run(
      at('bundle.json'),
      ...jwks,
      '--status',
      at('status-active.json'),
      '--max-status-age',
      age,
    );
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain(`(supplied with --status ${at('status-active.json')})`);
    for (const extra of [[], ['--offline']]) {
      const revoked = await run(
        at('bundle-revoked.json'),
        ...jwks,
        '--status',
        at('status-revoked.json'),
        ...extra,
      );
      expect(revoked.code, revoked.out).toBe(3);
      expect(revoked.verdict).toMatch(/^AUTHENTIC BUT REVOKED: /);
    }
  });

  it('a file that is not a status document, or with --online, is a usage error (exit 2)', async () => {
    const notJson = path.join(dir, 'status.txt');
    fs.writeFileSync(notJson, 'active');
    const res = await run(at('bundle.json'), ...jwks, '--status', notJson);
    expect(res.code).toBe(2);
    expect(res.err).toMatch(/^error: --status .*: not JSON/);
    const both = await run(at('bundle.json'), '--online', 'https://x.test', '--status', notJson);
    expect(both.code).toBe(2);
    expect(both.err).toContain('give --status FILE or --online, not both');
    const offline = await run(at('bundle.json'), '--online', 'https://x.test', '--offline');
    expect(offline.code).toBe(2);
    expect(offline.err).toContain('--offline accepts an unknown status; --online checks it');
  });
});

describe('a pinned log', () => {
  it('an authentic receipt not yet in it is caution, exit 3, even with --offline', async () => {
    const unanchored = fixture<Json>('bundle.json');
    delete unanchored.logEntry;
    const file = write('unanchored.json', unanchored);
    const pinned = await run(file, ...jwks, '--log-policy', at('log.policy'), '--offline');
    expect(pinned.code, pinned.out).toBe(3);
    expect(pinned.verdict).toBe(
      'CAUTION: the receipt is genuine and the checks passed, but it is not in the public log you pinned yet: check again later.',
    );
    expect(pinned.technical).toMatch(
      /^authentic, decision ALLOW, but the receipt is not in the pinned log receipts\.example\.com\/log yet/,
    );
    const origin = await run(
      file,
      ...jwks,
      '--log-origin',
      'receipts.example.com/log',
      '--offline',
    );
    expect(origin.code, origin.out).toBe(3);
    // a log that came with the service's keys (--online, the page) does not hold it back: the
    // service's signed status speaks for its anchoring
    const policy = parseLogPolicy(fs.readFileSync(at('log.policy'), 'utf8'));
    if (!policy.ok) throw new Error(policy.reason);
    const served = { keys: pinnedKeys(), log: policy.log, logFromService: true };
    const opts = { acceptUnknownStatus: true };
    expect(verifyBundle(unanchored, { trust: served, ...opts }).exitCode).toBe(0);
    expect(
      verifyBundle(unanchored, { trust: { ...served, logFromService: false }, ...opts }).exitCode,
    ).toBe(3);
    // without a pinned log, the same receipt is accepted offline on its keys alone
    expect((await run(file, ...jwks, '--offline')).code).toBe(0);
    // anchored, under the same policy: exit 0
    expect(
      (await run(at('bundle.json'), ...jwks, '--log-policy', at('log.policy'), '--offline')).code,
    ).toBe(0);
  });
});

describe('no trust root', () => {
  it('is a usage error, exit 2, naming the options to pin one', async () => {
    for (const extra of [
      [],
      ['--json'],
      ['--offline'],
      ['--log-origin', 'receipts.example.com/log'],
    ]) {
      const res = await run(at('bundle.json'), ...extra);
      expect(res.code, `${extra.join(' ')}: ${res.out}`).toBe(2);
      expect(res.out).toBe('');
      expect(res.err).toMatch(/^error: no trust root: pin .*--jwks.*--key.*--online.*--log-policy/);
    }
  });
});
