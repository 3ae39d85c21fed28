import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The verifier as a relying party gets it: `npm pack` of packages/verify, installed into an empty
 * folder (no clone of this repository), run with no network at all. Its installed dependency
 * closure holds only what verification needs.
 */
const pkg = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(pkg, 'test/fixtures');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-pack-'));
const app = path.join(work, 'app');
const bin = path.join(app, 'node_modules/.bin/receipt-verify');
let tarball = '';

/** What the verifier may pull in: its own dependencies and theirs, nothing of the service. */
const ALLOWED = [
  '@verification-receipts/verify',
  '@noble/ed25519',
  '@noble/hashes',
  // ML-DSA-44 (hybrid receipt signatures, witness cosignatures) and what it is built on
  '@noble/post-quantum',
  '@noble/curves',
  '@noble/ciphers',
  'canonicalize',
  'pdf-lib',
  '@pdf-lib/standard-fonts',
  '@pdf-lib/upng',
  'pako',
  'tslib',
];

/** `unshare -n` gives a network namespace with only a loopback that is down, where permitted. */
const isolated = spawnSync('unshare', ['-n', 'true']).status === 0;

beforeAll(() => {
  const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
    cwd: pkg,
    encoding: 'utf8',
  }).trim();
  tarball = path.join(work, packed);
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{"name":"relying-party","private":true}\n');
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(work, packed)],
    { cwd: app, stdio: 'pipe' },
  );
}, 180_000);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function run(...args: string[]) {
  const argv = isolated ? ['-n', bin, ...args] : args;
  const res = spawnSync(isolated ? 'unshare' : bin, isolated ? argv : args, {
    cwd: app,
    encoding: 'utf8',
  });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

describe('the packed verifier, installed on its own', () => {
  it('ships its licence, its changelog, its README, its glossary and its --json schema beside the code', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    // a tarball's entries sit under its package/ folder
    const shipped = [
      'LICENSE',
      'CHANGELOG.md',
      'README.md',
      'GLOSSARY.md',
      'verify-result.schema.json',
    ];
    expect(listed).toEqual(expect.arrayContaining(shipped.map((f) => `package/${f}`)));
    const licence = fs.readFileSync(
      path.join(app, 'node_modules/@verification-receipts/verify/LICENSE'),
      'utf8',
    );
    expect(licence).toMatch(/Apache License\s+Version 2\.0, January 2004/);
    // the glossary --help points to is the repository's docs/glossary.md, as it is now
    const installed = path.join(app, 'node_modules/@verification-receipts/verify');
    expect(fs.readFileSync(path.join(installed, 'GLOSSARY.md'), 'utf8')).toBe(
      fs.readFileSync(path.join(pkg, '../../docs/glossary.md'), 'utf8'),
    );
    expect(run('--help').out).toContain('GLOSSARY.md in this package');
  });

  it('installs only what verification needs: no service dependency', () => {
    const lock = JSON.parse(
      fs.readFileSync(path.join(app, 'node_modules/.package-lock.json'), 'utf8'),
    );
    const installed = Object.keys(lock.packages as Record<string, unknown>).map((p) =>
      p.replace(/^.*node_modules\//, ''),
    );
    expect(installed.filter((name) => !ALLOWED.includes(name))).toEqual([]);
    expect(installed).toContain('@verification-receipts/verify');
  });

  it(`verifies a PDF receipt and a bundle with pinned keys${isolated ? ', with no network' : ' (unshare -n not permitted here: run with the network)'}`, () => {
    const jwks = path.join(fixtures, 'jwks.json');
    const pdf = run(path.join(fixtures, 'receipt.pdf'), '--jwks', jwks, '--offline');
    expect(pdf.code, pdf.out + pdf.err).toBe(0);
    expect(pdf.out).toMatch(/^PASS {2}pdf-binding /m);
    expect(pdf.out).toMatch(
      /^VERIFIED OFFLINE: genuine receipt, decision ALLOW: .*\n {2}authentic, decision ALLOW/m,
    );
    expect(run(path.join(fixtures, 'receipt.pdf'), '--jwks', jwks).code).toBe(3);
    const block = run(path.join(fixtures, 'bundle-block.json'), '--jwks', jwks, '--json');
    expect(block.code).toBe(3);
    expect(JSON.parse(block.out)).toMatchObject({ verdict: 'rejected', authentic: true });
    const unpinned = run(path.join(fixtures, 'bundle.json'));
    expect(unpinned.code).toBe(2);
    expect(unpinned.err).toMatch(/^error: no trust root: /m);
  });

  it.runIf(isolated)('with no network, --online says what failed and exits 2', () => {
    const res = run(path.join(fixtures, 'bundle.json'), '--online', 'https://receipts.example.com');
    expect(res.code).toBe(2);
    expect(res.err).toMatch(
      /^error: https:\/\/receipts\.example\.com\/\.well-known\/jwks\.json: /m,
    );
  });
});
