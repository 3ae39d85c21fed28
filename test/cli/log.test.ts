import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { formatVerifierKey } from '@verification-receipts/verify/log';
import { runCaptured } from '../helpers/cli.js';
import { createTestContext, listenLocally, tempDir, type TestContext } from '../helpers/context.js';
import { rewriteLogInReverse } from '../helpers/log-rewrite.js';
import { ciRequest } from '../http/hostile/requests.js';

/**
 * `receipts log verify` monitors a served log over HTTP with no store and no key: it passes on
 * an honest log that grows, and fails, naming why, on a log rewritten in the database, a
 * tampered tile, or a checkpoint signed by another key. `receipts log info` prints its identity.
 */

const dir = tempDir('receipts-log-');

const run = (...argv: string[]) => runCaptured(argv);

async function logOf(ctx: TestContext, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
  }
  await ctx.app.services.anchoring.sealAll();
}

describe('receipts log verify', () => {
  let ctx: TestContext;
  let prefix: string;
  beforeAll(async () => {
    ctx = await createTestContext({ LOG_RATE_LIMIT_MAX: '100000' });
    prefix = `${await listenLocally(ctx.app)}/log`;
  });
  afterAll(async () => ctx.close());

  it('passes on an honest log, and again once it grew, remembering it in the state file', async () => {
    await logOf(ctx, 300);
    const state = path.join(dir, 'honest.json');
    const first = await run('log', 'verify', '--url', prefix, '--state', state);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain('at size 300');
    expect(first.out).toContain('not pinned');
    expect(first.out).toContain('log consistent');
    const saved = JSON.parse(fs.readFileSync(state, 'utf8'));
    expect(saved).toMatchObject({ origin: ctx.config.logOrigin, treeSize: 300 });
    expect(saved.vkey).toBe(ctx.app.services.anchoring.verifierKey);

    await logOf(ctx, 40);
    const second = await run('log', 'verify', '--url', prefix, '--state', state, '--json');
    expect(second.code).toBe(0);
    const report = JSON.parse(second.out);
    expect(report).toMatchObject({
      consistent: true,
      trust: 'the key pinned by the state file',
      checkpoint: { treeSize: 340 },
      tiles: 5, // entries 000, 001.p/84; level 0: 000, 001.p/84; level 1: 000.p/1
    });
  });

  it('fails when the checkpoint is not signed by the pinned key', async () => {
    const other = formatVerifierKey(ctx.config.logOrigin, new Uint8Array(32).fill(7));
    const res = await run('log', 'verify', '--url', prefix, '--vkey', other);
    expect(res.code).toBe(1);
    expect(res.out).toContain('FAIL  checkpoint signature');
  });

  it('fails when the checkpoint carries the log key name and ID but a signature that does not verify', async () => {
    // a proxy that serves the real log with one bit of the checkpoint signature flipped
    const proxy = http.createServer(async (req, res) => {
      const upstream = await fetch(`${prefix}${(req.url ?? '').replace(/^\/log/, '')}`);
      let body = Buffer.from(await upstream.arrayBuffer());
      if (req.url === '/log/checkpoint') {
        body = Buffer.from(
          body
            .toString('utf8')
            .replace(/^(\u2014 \S+ )(\S+)$/mu, (_, head: string, sig: string) => {
              const blob = Buffer.from(sig, 'base64');
              blob[20] = (blob[20] as number) ^ 1; // after the 4-byte key ID: the signature itself
              return `${head}${blob.toString('base64')}`;
            }),
        );
      }
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? '',
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as { port: number };
    try {
      const vkey = ctx.app.services.anchoring.verifierKey as string;
      const res = await run(
        'log',
        'verify',
        '--url',
        `http://127.0.0.1:${port}/log`,
        '--vkey',
        vkey,
      );
      expect(res.code, res.out + res.err).toBe(1);
      expect(res.out).toContain('FAIL  checkpoint signature');
    } finally {
      proxy.close();
    }
  });

  it('prints the log identity from a served log', async () => {
    const res = await run('log', 'info', '--url', prefix);
    expect(res.code).toBe(0);
    expect(res.out).toContain(`origin     ${ctx.config.logOrigin}`);
    expect(res.out).toContain(`vkey       ${ctx.app.services.anchoring.verifierKey}`);
    expect(res.out).toContain('tree size  340');
  });

  it('log info says the same from the store as from the served log: the root as the checkpoint writes it, no placeholders', async () => {
    const served = await run('log', 'info', '--url', prefix);
    const stored = await runCaptured(['log', 'info'], {}, ctx.app.services);
    expect(stored.code, stored.err).toBe(0);
    const line = (out: string, label: string) => out.split('\n').find((l) => l.startsWith(label));
    const checkpoint = await (await fetch(`${prefix}/checkpoint`)).text();
    const root = checkpoint.split('\n')[2] ?? '';
    const hex = Buffer.from(root, 'base64').toString('hex');
    for (const out of [served.out, stored.out]) {
      expect(line(out, 'root hash')).toBe(`root hash  ${root} (hex ${hex})`);
      expect(out).not.toMatch(/<[A-Z_]+>/);
    }
    for (const label of ['origin', 'vkey', 'tree size', 'root hash']) {
      expect(line(stored.out, label)).toBe(line(served.out, label));
    }
    expect(line(served.out, 'checkpoint')).toBe(`checkpoint ${prefix}/checkpoint`);
    expect(line(stored.out, 'checkpoint')).toBe(
      `checkpoint ${ctx.config.serviceUrl}/log/checkpoint`,
    );
  });

  it('log verify says which key the checkpoint is signed by, pinned or not, in a sentence', async () => {
    const own = await run('log', 'verify', '--url', prefix);
    expect(own.out.split('\n')[0]).toMatch(
      /^PASS {2}checkpoint of \S+ at size \d+ signed by the log's own served key \(not pinned: pass --vkey or --state to pin it\)$/,
    );
    const vkey = ctx.app.services.anchoring.verifierKey ?? '';
    const pinned = await run('log', 'verify', '--url', prefix, '--vkey', vkey);
    expect(pinned.out.split('\n')[0]).toMatch(/ signed by the key pinned by --vkey$/);
    expect(pinned.out).toMatch(
      /PASS {2}the tree's root is the checkpoint's: \S+ \(hex [0-9a-f]{64}\)/,
    );
  });

  it('says what is wrong with its flags (exit 2), or that the log cannot be read (exit 2)', async () => {
    expect((await run('log', 'verify')).code).toBe(2);
    expect((await run('log', 'verify', '--url', 'ftp://x')).code).toBe(2);
    expect((await run('log', 'verify', '--url', prefix, '--vkey', 'nonsense')).code).toBe(2);
    expect((await run('log', 'verify', '--url', prefix, '--bogus')).code).toBe(2);
    const down = await run('log', 'verify', '--url', 'http://127.0.0.1:9/log');
    expect(down.code).toBe(2);
    expect(down.err).toMatch(/^error: /);
    expect((await run('log', 'verify', '--help')).code).toBe(0);
  });
});

describe('receipts log verify on a log changed in the database', () => {
  let ctx: TestContext;
  let prefix: string;
  let vkey: string;
  beforeEach(async () => {
    ctx = await createTestContext({ LOG_RATE_LIMIT_MAX: '100000' });
    prefix = `${await listenLocally(ctx.app)}/log`;
    await logOf(ctx, 20); // partial tiles only: nothing the server caches
    vkey = ctx.app.services.anchoring.verifierKey as string;
  });
  afterEach(async () => ctx.close());

  it('fails when the log was rebuilt with its entries in another order and re-signed', async () => {
    const state = path.join(dir, `rewrite-${Date.now()}.json`);
    expect(
      (await run('log', 'verify', '--url', prefix, '--vkey', vkey, '--state', state)).code,
    ).toBe(0);
    await rewriteLogInReverse(ctx.db.knex);
    await ctx.app.services.anchoring.sealAll();
    const res = await run('log', 'verify', '--url', prefix, '--vkey', vkey, '--state', state);
    expect(res.code).toBe(1);
    expect(res.out).toContain('the log was rewritten');
    // the state still holds the last consistent checkpoint
    expect(JSON.parse(fs.readFileSync(state, 'utf8')).treeSize).toBe(20);
  });

  it('fails when a stored leaf hash was changed', async () => {
    await ctx.db
      .knex('log_nodes')
      .where({ level: 0, idx: 3 })
      .update({ hash: Buffer.alloc(32, 1) });
    const res = await run('log', 'verify', '--url', prefix, '--vkey', vkey);
    expect(res.code).toBe(1);
    expect(res.out).toContain('hash tile 0/0 differs from the entries');
  });
});
