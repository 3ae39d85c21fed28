import { execFileSync, spawnSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatVerifierKey } from '../../packages/verify/src/log/note.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { issueValidRon } from '../helpers/ron.js';
import { startWitness, type TestWitness } from '../helpers/witness.js';

/**
 * Interoperability: the service's c2sp.org/tlog-proof files verify with Go's transparency-log
 * code (golang.org/x/mod/sumdb/note and sumdb/tlog, Debian's golang-golang-x-mod-dev), run by
 * test/anchoring/go/main.go. Built offline in GOPATH mode against /usr/share/gocode. Without
 * `go` the suite is skipped, unless CI is set: CI must run it.
 */

const GO_SOURCE = path.resolve(import.meta.dirname, 'go');
const GOPATH = '/usr/share/gocode';
const hasGo = spawnSync('go', ['version']).status === 0;
const hasMod = fs.existsSync(path.join(GOPATH, 'src/golang.org/x/mod/sumdb/tlog'));

if (!hasGo || !hasMod) {
  const missing =
    'needs `go` and golang.org/x/mod in /usr/share/gocode (apt-get install golang-go golang-golang-x-mod-dev)';
  if (process.env.CI) throw new Error(`go-tlog.test.ts ${missing}`);
  console.warn(`skipping go-tlog.test.ts: it ${missing}`);
}

const ORIGIN = 'go-interop.test/log';
const signingPem = ed25519Pem();
const logKey = createPublicKey(signingPem).export({ format: 'jwk' }).x as string;
const logVkey = formatVerifierKey(ORIGIN, new Uint8Array(Buffer.from(logKey, 'base64url')));

let dir: string;
let binary: string;
let ctx: TestContext;
let witness: TestWitness;

/** Builds the checker with its own GOCACHE: GOPATH mode, no module download. */
function buildChecker(): void {
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    GO111MODULE: 'off',
    GOPATH,
    GOCACHE: path.join(dir, 'cache'),
    GOFLAGS: '',
  };
  execFileSync('go', ['build', '-o', binary, '.'], { cwd: GO_SOURCE, env, stdio: 'pipe' });
}

/** Runs the Go checker on `proof`; its exit status and output. */
function goCheck(proof: string, entryHex: string, vkey = logVkey) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.tlog-proof`);
  fs.writeFileSync(file, proof);
  const run = spawnSync(binary, [vkey, entryHex, file], { encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe.skipIf(!hasGo || !hasMod)('tlog-proof files verify with golang.org/x/mod/sumdb', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'go-tlog-'));
    binary = path.join(dir, 'tlogcheck');
    buildChecker();
    const seed = Buffer.from('go-interop-witness'.padEnd(32, '.')).toString('hex');
    witness = await startWitness({ name: 'witness.go-interop.test', seed, logVkey });
    ctx = await createTestContext({
      SIGNING_KEY: signingPem,
      LOG_ORIGIN: ORIGIN,
      WITNESSES: `${witness.vkey}@${witness.url}`,
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await witness?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('checks the signed, cosigned checkpoint and the inclusion of every receipt', async () => {
    const key = await ctx.apiKey(['verify', 'read']);
    const receipts: { id: string; hash: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const body = (await issueValidRon(ctx, key)).json();
      receipts.push({ id: body.receiptId, hash: body.receiptHash.replace(/^sha256:/, '') });
    }
    await ctx.app.services.anchoring.sealAll();
    const cosigned = await ctx.app.services.anchoring.cosignLatest();
    expect(cosigned.map((c) => c.ok)).toEqual([true]);
    for (const [i, r] of receipts.entries()) {
      const res = await ctx.app.inject({
        url: `/api/v1/receipt/${r.id}/tlog-proof`,
        headers: { 'x-api-key': key },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toContain(`\n\u2014 ${witness.name} `);
      // the log signature verifies; the witness's cosignature is a key Go does not know
      expect(goCheck(res.body, r.hash)).toEqual({
        status: 0,
        out: `ok index ${i} size 5 signatures 1 unverified 1\n`,
      });
      const other = receipts[(i + 1) % receipts.length]?.hash ?? '';
      expect(goCheck(res.body, other).out).toContain('inclusion:');
    }
  });

  it('refuses a checkpoint under another key and a tampered proof', async () => {
    const key = await ctx.apiKey(['verify', 'read']);
    const body = (await issueValidRon(ctx, key)).json();
    await ctx.app.services.anchoring.sealAll();
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${body.receiptId}/tlog-proof`,
      headers: { 'x-api-key': key },
    });
    const entry = String(body.receiptHash).replace(/^sha256:/, '');
    expect(goCheck(res.body, entry).status).toBe(0);
    const stranger = formatVerifierKey(ORIGIN, new Uint8Array(32).fill(9));
    expect(goCheck(res.body, entry, stranger).out).toContain('checkpoint:');
    const lines = res.body.split('\n');
    lines[2] = Buffer.alloc(32, 1).toString('base64');
    expect(goCheck(lines.join('\n'), entry).out).toContain('inclusion:');
  });
});
