import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext, isPostgres, type TestContext } from '../helpers/context.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

let ctx: TestContext | undefined;
let proxy: TcpProxy | undefined;
afterAll(async () => {
  await proxy?.start().catch(() => undefined);
  await ctx?.close();
  await proxy?.stop();
});

async function eventually(fn: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('condition not met in time');
}

describe.runIf(isPostgres())('PostgreSQL going away mid-flight', () => {
  it('answers 503 dependency_unavailable, then recovers by itself', async () => {
    const url = new URL(process.env.DATABASE_URL ?? '');
    proxy = new TcpProxy(url.hostname, Number(url.port || 5432));
    await proxy.start();
    url.host = `127.0.0.1:${proxy.port}`;
    ctx = await createTestContext(
      {},
      {
        kind: 'postgres',
        url: url.toString(),
        schema: `t_${randomBytes(6).toString('hex')}`,
        poolMax: 4,
      },
    );
    const key = await ctx.apiKey(['read']);
    const list = () => ctx!.app.inject({ url: '/api/v1/receipts', headers: { 'x-api-key': key } });
    expect((await list()).statusCode).toBe(200);

    await proxy.stop();
    const down = await list();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ error: 'dependency_unavailable' });
    expect(down.body).not.toMatch(/select|ECONN|stack/i);
    expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(503);

    await proxy.start();
    await eventually(async () => (await list()).statusCode === 200);
    expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});
