import fs from 'node:fs';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, ed25519Pem, isPostgres, tempDir, testStore } from '../helpers/context.js';
import { samplePdf } from '../helpers/requests.js';
import { spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { registerNotary, SAMPLE_LISTS_DIR, validRequest, type Notary } from '../helpers/ron.js';
import { childrenOf, eventually, freePort } from '../faults/helpers.js';

/**
 * `WORKERS=2`: the built entry point (`src/server.ts`) as a primary with two workers on one
 * port and one PostgreSQL. Each request below opens a connection of its own, so the cluster's
 * round robin spreads them over both workers.
 */
const METRICS_TOKEN = 'cluster-test-metrics';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

function start(env: Record<string, string>, port: number): ServerProcess {
  const server = spawnServer(port, {
    LOG_LEVEL: 'info',
    SCREENING_LISTS_DIR: SAMPLE_LISTS_DIR,
    METRICS_TOKEN,
    ...env,
  });
  cleanups.push(async () => {
    for (const pid of childrenOf(server.child.pid ?? -1)) process.kill(pid, 'SIGKILL');
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
    }
  });
  return server;
}

/** One request on a connection of its own (closed after it). */
function request(
  baseUrl: string,
  method: 'GET' | 'POST',
  urlPath: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${urlPath}`,
      {
        method,
        agent: false,
        headers: {
          ...headers,
          connection: 'close',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${method} ${urlPath}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The sum of `receipts_issued_total` over its decisions, as one scrape reports it. */
async function issuedTotal(server: ServerProcess): Promise<number> {
  const res = await request(server.baseUrl, 'GET', '/metrics', {
    authorization: `Bearer ${METRICS_TOKEN}`,
  });
  expect(res.status, server.output()).toBe(200);
  return res.body
    .split('\n')
    .filter((line) => line.startsWith('receipts_issued_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

interface LogLine {
  msg?: string;
  pid?: number;
  slot?: number;
  workerPid?: number;
  durationMs?: number;
}

/** The service's JSON log lines so far (the primary's and every worker's). */
function logLines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Until `/readyz` answers and the primary has logged `listened` workers listening in all. */
async function ready(server: ServerProcess, listened: number): Promise<void> {
  const done = await eventually(
    async () => {
      if (server.child.exitCode !== null) throw new Error(`exited:\n${server.output()}`);
      const res = await request(server.baseUrl, 'GET', '/readyz', {});
      const logged = server.output().split('"msg":"worker listening"').length - 1;
      return res.status === 200 && logged >= listened ? true : undefined;
    },
    60_000,
    200,
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}; the service's output:\n${server.output()}`);
  });
  expect(done.value).toBe(true);
}

describe('WORKERS > 1', () => {
  it('on the embedded store: the process exits 1 and says to set DATABASE_URL', async () => {
    const server = start({ WORKERS: '2', DATA_DIR: tempDir('cluster-embedded-') }, 0);
    expect((await server.exited).code).toBe(1);
    expect(server.output()).toContain('the embedded store is single-process: set DATABASE_URL');
  }, 30_000);

  it.runIf(isPostgres())(
    'two workers share the port and the metrics, a killed worker is replaced, SIGTERM drains',
    async () => {
      const store = testStore();
      if (store.kind !== 'postgres') throw new Error('PostgreSQL only');
      const setup = await openDatabase(store);
      cleanups.push(async () => {
        await closeStore(setup, store);
      });
      const repos = createRepositories(setup);
      const { token } = await repos.apiKeys.create({
        tenant: 'tenant-a',
        name: 'cluster',
        scopes: ['verify', 'read'],
      });
      const notary: Notary = await registerNotary(repos);
      const dataDir = tempDir('cluster-');
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const server = start(
        {
          WORKERS: '2',
          DATA_DIR: dataDir,
          DATABASE_URL: store.url,
          DATABASE_SCHEMA: store.schema ?? '',
          SIGNING_KEY: ed25519Pem(),
          ANCHOR_INTERVAL_MS: '200',
        },
        await freePort(),
      );
      await ready(server, 2);
      expect(childrenOf(server.child.pid ?? -1)).toHaveLength(2);

      const issue = (n: number) =>
        request(
          server.baseUrl,
          'POST',
          '/api/v1/verify',
          { 'x-api-key': token },
          {
            ...validRequest(notary, samplePdf(`cluster ${n}`)),
          },
        );
      expect(await issuedTotal(server)).toBe(0);
      const issued = await Promise.all([0, 1, 2, 3, 4, 5].map(issue));
      expect(issued.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      // every scrape, whichever worker answers it, counts the receipts of both
      for (let i = 0; i < 4; i++) expect(await issuedTotal(server)).toBe(6);
      const stored = await setup.knex('receipts').count<{ count: string }[]>({ count: '*' });
      expect(Number(stored[0]?.count)).toBe(6);
      // only the first slot seals: every seal is logged by its pid
      const sealers = async () => {
        const lines = logLines(server).filter(
          (l) => l.msg === 'sealed log entries into a checkpoint',
        );
        return lines.length > 0 ? new Set(lines.map((l) => l.pid)) : undefined;
      };
      const slotPid = (slot: number) =>
        logLines(server).find((l) => l.msg === 'worker listening' && l.slot === slot)?.workerPid;
      const slot0 = slotPid(0);
      expect((await eventually(sealers, 30_000)).value).toEqual(new Set([slot0]));

      // a worker killed outright (slot 1's) is replaced in its slot; the service keeps answering
      const victim = slotPid(1) ?? -1;
      expect(childrenOf(server.child.pid ?? -1)).toContain(victim);
      process.kill(victim, 'SIGKILL');
      await eventually(
        async () =>
          server.output().includes('worker exited: starting a new one in its slot') || undefined,
        30_000,
        20,
      );
      // while its replacement starts, a scrape is answered by the worker that serves
      const during = await request(server.baseUrl, 'GET', '/metrics', {
        authorization: `Bearer ${METRICS_TOKEN}`,
      });
      expect(during.status).toBe(200);
      await eventually(async () => {
        const now = childrenOf(server.child.pid ?? -1);
        return now.length === 2 && !now.includes(victim) ? now : undefined;
      }, 30_000);
      await ready(server, 3);
      expect((await issue(6)).status).toBe(200);
      expect((await issue(7)).status).toBe(200);

      await eventually(async () => {
        const sealed = logLines(server).filter(
          (l) => l.msg === 'sealed log entries into a checkpoint',
        );
        return sealed.length >= 2 ? true : undefined;
      }, 30_000);
      expect(await sealers()).toEqual(new Set([slot0]));
      // each seal says how many entries it sealed, the tree's size after it and how long it took
      for (const line of logLines(server).filter(
        (l) => l.msg === 'sealed log entries into a checkpoint',
      )) {
        expect(line).toMatchObject({
          sealed: expect.any(Number),
          treeSize: expect.any(Number),
          durationMs: expect.any(Number),
        });
        expect(line.durationMs).toBeGreaterThanOrEqual(0);
      }

      // SIGTERM: every worker drains and exits, then the primary, with status 0
      const last = childrenOf(server.child.pid ?? -1);
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      expect(last.filter((pid) => fs.existsSync(`/proc/${pid}`))).toEqual([]);
    },
    120_000,
  );

  it.runIf(isPostgres())(
    'a worker that cannot start stops the service (status 1) instead of respawning',
    async () => {
      const closed = await freePort(); // nothing listens there
      const server = start(
        {
          WORKERS: '2',
          DATA_DIR: tempDir('cluster-down-'),
          DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/test`,
          SIGNING_KEY: ed25519Pem(),
        },
        await freePort(),
      );
      expect((await server.exited).code).toBe(1);
      expect(server.output()).toContain('worker exited before it listened: stopping the service');
      expect(server.output()).not.toContain('"slot":1');
    },
    60_000,
  );
});
