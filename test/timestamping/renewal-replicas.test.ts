import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { trustedTsaCertificates } from '../../src/timestamping/index.js';
import { renewDuePdfs } from '../../src/timestamping/pdf-renewal.js';
import { signatureTimestamper } from '../../src/timestamping/signature-timestamper.js';
import {
  closeStore,
  ed25519Pem,
  isPostgres,
  tempDir,
  testConfig,
  testStore,
} from '../helpers/context.js';
import { openssl } from '../helpers/pades.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { startTsa, type TestTsa } from '../helpers/tsa.js';

/**
 * Two replicas on one store renew each due PDF once: each run leases the rows it claims
 * (`for update skip locked` in a materialized CTE), so the second replica's run at the same time
 * takes other rows, and the renewing authority is asked once per file. On PostgreSQL the two
 * replicas have pools of their own; the embedded store (one process) shares one handle.
 */

const DAY = 24 * 60 * 60 * 1000;
const FILES = 6;
const store = testStore();
let dir: string;
let short: TestTsa;
let long: TestTsa;
let dbs: Database[];
let apps: FastifyInstance[];

beforeAll(async () => {
  dir = tempDir('renewal-replicas-');
  short = await startTsa(path.join(dir, 'short'), 'ok', { name: 'Short TSA', days: 30 });
  long = await startTsa(path.join(dir, 'long'), 'ok', { name: 'Long TSA' });
  const env = {
    SIGNING_KEY: ed25519Pem(),
    PUBLIC_URL: 'https://receipts.example.com',
    TSA_URLS: short.url,
    TSA_CERT_FILES: `${short.caFile},${long.caFile}`,
    TSA_TIMEOUT_MS: '5000',
    PDF_LONG_TERM: 'true',
  };
  const first = await openDatabase(store);
  const second = isPostgres() ? await openDatabase(store) : first;
  dbs = [first, second];
  apps = [];
  for (const db of dbs) {
    const app = await buildApp({ config: testConfig(env, store), db, logger: false });
    await app.ready();
    apps.push(app);
  }
});
afterAll(async () => {
  for (const app of apps) await app.close();
  if (dbs[1] !== dbs[0]) await dbs[1]!.close();
  await closeStore(dbs[0]!, store);
  await short.close();
  await long.close();
});

async function issueAndDownload(
  app: FastifyInstance,
  key: string,
  notary: Notary,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary) as object,
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().receiptId as string;
  const pdf = await app.inject({ url: `/api/v1/receipt/${id}/pdf`, headers: { 'x-api-key': key } });
  expect(pdf.statusCode).toBe(200);
  return id;
}

describe('archive time-stamp renewal on two replicas', () => {
  it('renews each due file once, each by one replica, asking the authority once per file', async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const key = (
      await a.repos.apiKeys.create({ tenant: 't', name: 'r', scopes: ['verify', 'read'] })
    ).token;
    const notary = await registerNotary(a.repos);
    const ids: string[] = [];
    for (let i = 0; i < FILES; i++) ids.push(await issueAndDownload(apps[i % 2]!, key, notary));

    const shortEnd = new Date(
      openssl(['x509', '-noout', '-enddate', '-in', short.certFile]).replace('notAfter=', ''),
    );
    const now = new Date(shortEnd.getTime() - 5 * DAY);
    const trusted = trustedTsaCertificates([short.caFile, long.caFile]);
    const job = (app: FastifyInstance) => ({
      store: app.repos.receiptPdfs,
      timestamper: signatureTimestamper([{ url: long.url, trusted, timeoutMs: 5000 }]),
      tsaCertificates: trusted,
      marginMs: 10 * DAY,
      now: () => now,
      batch: 2,
    });
    const asked = long.requests;
    /** One replica's runs until a run finds nothing due (or leased by the other). */
    const drain = async (app: FastifyInstance) => {
      let renewed = 0;
      for (;;) {
        const run = await renewDuePdfs(job(app));
        expect(run.failed).toEqual([]);
        if (run.renewed === 0) return renewed;
        renewed += run.renewed;
      }
    };
    const [byA, byB] = await Promise.all([drain(a), drain(b)]);
    expect(byA + byB).toBe(FILES);
    expect(byA).toBeGreaterThan(0);
    expect(byB).toBeGreaterThan(0);
    expect(long.requests - asked).toBe(FILES);

    const versions = (await dbs[0]!
      .knex('receipt_pdf_versions')
      .whereIn('receipt_id', ids)
      .select('receipt_id')) as { receipt_id: string }[];
    expect(versions.map((v) => v.receipt_id).sort()).toEqual([...ids].sort());
    expect(await a.repos.receiptPdfs.dueForRenewal(new Date(now.getTime() + 10 * DAY), 10)).toEqual(
      [],
    );
  });
});
