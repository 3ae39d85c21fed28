import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, ed25519Pem, tempDir, testConfig } from '../helpers/context.js';
import { SAMPLE_LISTS_DIR, registerNotary, validRequest } from '../helpers/ron.js';
import { samplePdf } from '../helpers/requests.js';
import { spawnServer } from '../helpers/server-process.js';
import {
  auditReceipts,
  call,
  eventually,
  faultStore,
  freePort,
  postgresFaultsEnabled,
  sleep,
} from './helpers.js';

const IN_FLIGHT = 24;

let server: ChildProcess | undefined;
let db: Database | undefined;
let dataDir: string | undefined;
const store = postgresFaultsEnabled() ? faultStore('sigterm', 10) : undefined;
afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  if (db && store) await closeStore(db, store);
  else await db?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Pending {
  /** Resolves once the server has read the headers (it answered 100 Continue). */
  started: Promise<void>;
  finish(): void;
  answer: Promise<{ status: number; body: string } | { error: string }>;
}

/**
 * A POST /verify the server has started handling but not finished: headers sent with
 * `Expect: 100-continue`, the server's `100 Continue` received, half the body written. The
 * rest of the body goes out on `finish()`.
 */
function halfSentVerify(port: number, key: string, body: string): Pending {
  const bytes = Buffer.from(body);
  const half = Math.floor(bytes.length / 2);
  let onContinue: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (onContinue = resolve));
  let req: http.ClientRequest | undefined;
  const answer = new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/verify',
        agent: false,
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          'content-length': bytes.length,
          expect: '100-continue',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ error: err.code ?? err.message }),
        );
      },
    );
    req.on('continue', () => {
      req?.write(bytes.subarray(0, half));
      onContinue();
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.setTimeout(30_000, () =>
      req?.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
    );
    req.flushHeaders();
  });
  return { started, finish: () => req?.end(bytes.subarray(half)), answer };
}

describe.runIf(postgresFaultsEnabled())('SIGTERM on the real server', () => {
  it('drains in-flight requests, refuses new connections, exits 0', async () => {
    if (!store) throw new Error('unreachable');
    db = await openDatabase(store);
    const repos = createRepositories(db);
    const tenant = 'tenant-a';
    const { token } = await repos.apiKeys.create({
      tenant,
      name: 'sigterm',
      scopes: ['verify', 'read'],
    });
    const notary = await registerNotary(repos, tenant);
    const signingKey = ed25519Pem();
    const port = await freePort();
    dataDir = tempDir('faults-sigterm-');

    const spawned = spawnServer(port, {
      DATABASE_URL: store.url,
      DATABASE_SCHEMA: store.schema,
      LOG_LEVEL: 'info',
      SIGNING_KEY: signingKey,
      DATA_DIR: dataDir,
      SCREENING_LISTS_DIR: SAMPLE_LISTS_DIR,
      RATE_LIMIT_MAX: '1000000',
      // the sealer runs (and must be waited for) during the shutdown too
      ANCHOR_INTERVAL_MS: '300',
    });
    server = spawned.child;
    const { child, exited, baseUrl } = spawned;
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited early:\n${spawned.output()}`);
        return (await call(baseUrl, 'GET', '/healthz', {}, undefined, 1_000)).status === 200
          ? true
          : undefined;
      },
      45_000,
      200,
    ).catch((err: unknown) => {
      throw new Error(`server did not come up: ${String(err)}\n${spawned.output()}`);
    });

    // a completed request on a keep-alive socket: that idle socket must not hold up the exit
    const keepAlive = new http.Agent({ keepAlive: true });
    const warm = await new Promise<number>((resolve, reject) =>
      http
        .get({ host: '127.0.0.1', port, path: '/healthz', agent: keepAlive }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject),
    );
    expect(warm).toBe(200);

    const pending = Array.from({ length: IN_FLIGHT }, (_, i) =>
      halfSentVerify(
        port,
        token,
        JSON.stringify(validRequest(notary, samplePdf(`in flight ${i}`))),
      ),
    );
    await Promise.all(pending.map((p) => p.started));
    await sleep(200);

    const signalledAt = Date.now();
    child.kill('SIGTERM');
    await sleep(500);
    expect(child.exitCode, 'still running while requests are in flight').toBeNull();

    // a new connection after SIGTERM: refused (the listener is closed) or a 503
    const late = await call(baseUrl, 'GET', '/healthz', {}, undefined, 5_000);
    expect(late.status === 503 || late.status === 0, JSON.stringify(late)).toBe(true);
    if (late.status === 0) expect(late.error).toBe('ECONNREFUSED');

    for (const p of pending) p.finish();
    const answers = await Promise.all(pending.map((p) => p.answer));
    const exit = await Promise.race([
      exited,
      sleep(30_000).then(() => ({ code: null, signal: 'still running after 30 s', at: 0 })),
    ]);
    keepAlive.destroy();
    console.log(
      `SIGTERM: ${answers.filter((a) => 'status' in a && a.status === 200).length}/${IN_FLIGHT} ` +
        `in-flight requests answered 200; late request ${late.status || late.error}; ` +
        `exit ${exit.code ?? exit.signal} ${exit.at ? exit.at - signalledAt : '?'} ms after SIGTERM`,
    );
    expect(
      answers.map((a) => ('status' in a ? a.status : a.error)),
      spawned.output(),
    ).toEqual(Array(IN_FLIGHT).fill(200));
    expect(exit, spawned.output()).toMatchObject({ code: 0, signal: null });
    expect(spawned.output()).toMatch(/shutting down: draining in-flight requests/);

    // every acknowledged receipt was committed before the exit, and verifies
    const acknowledged = answers.map(
      (a) => (JSON.parse('body' in a ? a.body : '{}') as { receiptId: string }).receiptId,
    );
    const config = testConfig({ SIGNING_KEY: signingKey }, store);
    const app = await buildApp({ config, db, logger: false });
    try {
      const audit = await auditReceipts(app, db.knex, token, acknowledged);
      expect(audit).toMatchObject({
        rows: IN_FLIGHT,
        missing: [],
        unacknowledged: [],
        unlogged: [],
        notVerifying: [],
      });
    } finally {
      await app.close();
    }
  });
});
