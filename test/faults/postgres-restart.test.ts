import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { registerNotary, validRequest } from '../helpers/ron.js';
import {
  auditReceipts,
  call,
  canControlPostgres,
  captureKnexWarnings,
  eventually,
  faultStore,
  postgresReady,
  sleep,
  startPostgres,
  stopPostgres,
  tally,
  type Outcome,
} from './helpers.js';

let ctx: TestContext | undefined;
afterAll(async () => {
  await startPostgres(); // whatever happened: never leave the shared server down
  await ctx?.close();
});

const receiptIdOf = (o: Outcome) => (JSON.parse(o.body) as { receiptId: string }).receiptId;

describe.runIf(canControlPostgres())('PostgreSQL stopped and started under the service', () => {
  it('answers 503 quickly while it is down and recovers by itself when it is back', async () => {
    ctx = await createTestContext({ RATE_LIMIT_MAX: '1000000' }, faultStore('restart', 10));
    const { app } = ctx;
    const knexWarnings = captureKnexWarnings(ctx.db.knex);
    const key = await ctx.apiKey(['verify', 'read']);
    const headers = { 'x-api-key': key };
    const notary = await registerNotary(ctx.repos);
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const verify = () => call(baseUrl, 'POST', '/api/v1/verify', headers, validRequest(notary));

    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await verify();
      expect(res.status, res.body).toBe(200);
      acknowledged.push(receiptIdOf(res));
    }
    const before = acknowledged[0] as string;

    // background load across the stop and the start: every request bounded, only 200 or 503
    const load: Outcome[] = [];
    let loading = true;
    const loaders = Array.from({ length: 4 }, async () => {
      while (loading) {
        const res = await verify();
        load.push(res);
        if (res.status === 200) acknowledged.push(receiptIdOf(res));
        if (res.status !== 200) await sleep(50);
      }
    });
    await sleep(500);

    const down: Record<string, Outcome> = {};
    let downMs = 0;
    try {
      const stopping = Date.now();
      await stopPostgres();
      downMs = Date.now();
      console.log(`PostgreSQL stopped in ${downMs - stopping} ms`);
      expect(await postgresReady()).toBe(false);

      down.verify = await verify();
      down.retrieve = await call(baseUrl, 'GET', `/api/v1/receipt/${before}`, headers);
      down.reverify = await call(baseUrl, 'POST', `/api/v1/receipt/${before}/verify`, headers);
      down.list = await call(baseUrl, 'GET', '/api/v1/receipts', headers);
      down.readyz = await call(baseUrl, 'GET', '/readyz', {});
      down.healthz = await call(baseUrl, 'GET', '/healthz', {});
    } finally {
      await startPostgres();
      console.log(`PostgreSQL back after ${Date.now() - downMs} ms down`);
    }

    for (const [name, o] of Object.entries(down)) {
      if (name === 'healthz') {
        expect(o.status, 'liveness does not depend on the store').toBe(200);
        continue;
      }
      expect(o.status, `${name} while down: ${o.error ?? o.body}`).toBe(503);
      expect(JSON.parse(o.body), name).toMatchObject({ error: 'dependency_unavailable' });
      expect(o.body).not.toMatch(/select|insert|ECONN|stack/i);
      expect(o.ms, `${name} answered in ${o.ms} ms`).toBeLessThan(10_000);
    }

    // the pool reconnects by itself: no restart of the app
    const recovery = await eventually(async () => {
      const res = await verify();
      if (res.status !== 200) return undefined;
      acknowledged.push(receiptIdOf(res));
      return res;
    }, 30_000);
    loading = false;
    await Promise.all(loaders);
    console.log(
      `recovered ${recovery.ms} ms after the restart (${recovery.attempts} attempts); ` +
        `background load ${JSON.stringify(tally(load))}; ${knexWarnings.length} knex warnings; ` +
        `down: ${Object.entries(down)
          .map(([n, o]) => `${n} ${o.status} in ${o.ms} ms`)
          .join(', ')}`,
    );
    expect(load.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
    expect((await call(baseUrl, 'GET', '/readyz', {})).status).toBe(200);
    expect((await call(baseUrl, 'GET', `/api/v1/receipt/${before}`, headers)).status).toBe(200);

    const audit = await auditReceipts(app, ctx.db.knex, key, acknowledged);
    expect(audit.missing).toEqual([]);
    expect(audit.unlogged).toEqual([]);
    expect(audit.notVerifying).toEqual([]);
    expect(audit.unacknowledged.length).toBeLessThanOrEqual(
      load.filter((o) => o.status !== 200).length,
    );
  });
});
