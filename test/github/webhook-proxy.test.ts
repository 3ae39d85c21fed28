import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { StoreConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { closeStore, testConfig } from '../helpers/context.js';
import { githubEnv, sign } from './helpers.js';
import { TestOctokit } from './test-octokit.js';

/**
 * WEBHOOK_PROXY_URL (development): a smee-style event stream on loopback stands in for smee.io;
 * deliveries it streams reach the real webhook route, whose signature check still applies.
 */
const deliveries: { url: string; status: number }[] = [];
let channel: http.ServerResponse | undefined;
let smee: http.Server;
let app: FastifyInstance;
let db: Database;
let store: StoreConfig;

beforeAll(async () => {
  smee = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': connected\n\n');
    channel = res;
  });
  await new Promise<void>((r) => smee.listen(0, '127.0.0.1', r));
  const source = `http://127.0.0.1:${(smee.address() as AddressInfo).port}/channel`;
  const config = testConfig({ ...githubEnv(), WEBHOOK_PROXY_URL: source });
  store = config.store;
  db = await openDatabase(store);
  app = await buildApp({
    config,
    db,
    logger: false,
    octokit: TestOctokit,
  });
  app.addHook('onResponse', async (request, reply) => {
    deliveries.push({ url: request.url, status: reply.statusCode });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  for (let i = 0; i < 100 && !channel; i++) await new Promise((r) => setTimeout(r, 50));
});
afterAll(async () => {
  await app.close();
  await closeStore(db, store);
  channel?.end();
  smee.closeAllConnections();
  await new Promise<void>((r) => smee.close(() => r()));
});

function stream(payload: object, signature: string): void {
  const message = {
    'x-github-event': 'ping',
    'x-github-delivery': `d-${Date.now()}`,
    'x-hub-signature-256': signature,
    body: payload,
    query: {},
    timestamp: Date.now(),
  };
  channel?.write(`data: ${JSON.stringify(message)}\n\n`);
}

async function nextDelivery(): Promise<{ url: string; status: number }> {
  const seen = deliveries.length;
  for (let i = 0; i < 100; i++) {
    const hit = deliveries.slice(seen).find((d) => d.url.startsWith('/api/github/webhooks'));
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no delivery forwarded');
}

describe('WEBHOOK_PROXY_URL', () => {
  it('forwards signed deliveries to the webhook route', async () => {
    expect(channel, 'the app connected to the channel').toBeDefined();
    const payload = { zen: 'Keep it logically awesome.', hook_id: 1 };
    const next = nextDelivery();
    stream(payload, sign(JSON.stringify(payload)));
    expect(await next).toEqual({ url: '/api/github/webhooks', status: 200 });
  });

  it('a forged delivery is still refused by the signature check', async () => {
    const payload = { zen: 'forged' };
    const next = nextDelivery();
    stream(payload, sign(JSON.stringify(payload), 'not-the-secret'));
    expect(await next).toEqual({ url: '/api/github/webhooks', status: 401 });
  });
});
