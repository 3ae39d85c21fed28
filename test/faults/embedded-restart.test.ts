import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { openDatabase } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { embeddedLeg, ed25519Pem, tempDir, testConfig } from '../helpers/context.js';
import { minimalRequest, samplePdf } from '../helpers/requests.js';
import { spawnServer } from '../helpers/server-process.js';
import { SAMPLE_LISTS_DIR, registerNotary, validRequest } from '../helpers/ron.js';
import { call, eventually, freePort } from './helpers.js';

/**
 * The embedded store (PGlite on disk) across restarts: no DATABASE_URL needed, so this file runs in
 * the normal suite, on its embedded leg (`embeddedLeg`). Each test owns a fresh DATA_DIR.
 */
const open: FastifyInstance[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const app of open) await app.close().catch(() => undefined);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function embeddedConfig(dataDir: string): Config {
  // no SIGNING_KEY: the key is generated in DATA_DIR on first start and must be found again
  return testConfig({ DATA_DIR: dataDir, SIGNING_KEY: '' }, { kind: 'embedded', dataDir });
}

async function start(config: Config): Promise<FastifyInstance> {
  const app = await buildApp({ config, logger: false });
  open.push(app);
  await app.ready();
  return app;
}

async function stop(app: FastifyInstance): Promise<void> {
  await app.close();
  open.splice(open.indexOf(app), 1);
}

describe.runIf(embeddedLeg())('embedded store restart', () => {
  it('keeps every receipt, revocation and anchor across a close and reopen', async () => {
    const dataDir = tempDir('faults-embedded-');
    dirs.push(dataDir);
    const config = embeddedConfig(dataDir);
    const issuerPem = ed25519Pem();

    const first = await start(config);
    const key = (
      await first.repos.apiKeys.create({
        tenant: 'tenant-a',
        name: 'restart',
        scopes: ['verify', 'read', 'revoke'],
      })
    ).token;
    const headers = { 'x-api-key': key };
    const notary = await registerNotary(first.repos);
    await first.repos.issuers.add({
      issuerId: 'escrow-co',
      tenant: 'tenant-a',
      publicKey: rawEd25519PublicKey(issuerPem),
    });
    const issue = async (payload: object) => {
      const res = await first.inject({ method: 'POST', url: '/api/v1/verify', headers, payload });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { receiptId: string }).receiptId;
    };
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(await issue(validRequest(notary, samplePdf(`doc ${i}`))));
    ids.push(await issue(minimalRequest())); // no proof artifact: stays PENDING
    // anchor what we have, then issue more that stay pending
    expect((await first.services.anchoring.sealAll()).sealed).toBe(8);
    for (let i = 8; i < 11; i++) ids.push(await issue(validRequest(notary, samplePdf(`doc ${i}`))));
    const revoked = [ids[1], ids[9]] as string[];
    for (const id of revoked) {
      const h = signRevocation(issuerPem, 'escrow-co', id, new Date().toISOString());
      const res = await first.inject({
        method: 'POST',
        url: `/api/v1/receipt/${id}/revoke`,
        headers: {
          ...headers,
          'x-issuer-id': h.issuerId,
          'x-signature-timestamp': h.timestamp,
          'x-issuer-signature': h.signature,
        },
      });
      expect(res.json()).toMatchObject({ result: 'REVOKED' });
    }
    const snapshot = async (app: FastifyInstance) => {
      const out: Record<string, unknown> = {};
      for (const id of ids) {
        const [receipt, status] = await Promise.all([
          app.inject({ url: `/api/v1/receipt/${id}`, headers }),
          app.inject({ method: 'POST', url: `/api/v1/receipt/${id}/verify`, headers }),
        ]);
        out[id] = { receipt: receipt.json(), status: status.json() };
      }
      const jwks = await app.inject({ url: '/.well-known/jwks.json' });
      const checkpoint = await app.inject({ url: '/api/v1/log/checkpoint', headers });
      return { receipts: out, jwks: jwks.json(), checkpoint: checkpoint.body };
    };
    const before = await snapshot(first);
    await stop(first);
    expect(fs.existsSync(path.join(dataDir, 'receipts.lock'))).toBe(false);

    const second = await start(embeddedConfig(dataDir));
    const after = await snapshot(second);
    expect(after).toEqual(before);
    for (const id of ids) {
      const { status } = after.receipts[id] as { status: Record<string, unknown> };
      expect(status).toMatchObject({
        integrityVerified: true,
        signatureVerified: true,
        revoked: revoked.includes(id),
        verified: !revoked.includes(id),
        proofVerified: ids.indexOf(id) < 8,
      });
    }
    const list = await second.inject({ url: '/api/v1/receipts?limit=200', headers });
    expect((list.json() as { receiptId: string }[]).map((r) => r.receiptId).sort()).toEqual(
      [...ids].sort(),
    );
    // the store is still writable after the reopen
    const more = await second.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers,
      payload: validRequest(notary),
    });
    expect(more.statusCode).toBe(200);
  }, 120_000);

  it('keeps every acknowledged receipt when the server process is killed (SIGKILL)', async () => {
    const dataDir = tempDir('faults-embedded-kill-');
    dirs.push(dataDir);
    // the embedded store is single-process: set up keys before the server starts
    const setup = await openDatabase({ kind: 'embedded', dataDir });
    const repos = createRepositories(setup);
    const key = (
      await repos.apiKeys.create({ tenant: 'tenant-a', name: 'kill', scopes: ['verify', 'read'] })
    ).token;
    const notary = await registerNotary(repos);
    await setup.close();

    const port = await freePort();
    const server = spawnServer(port, {
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      SCREENING_LISTS_DIR: SAMPLE_LISTS_DIR,
      ANCHOR_INTERVAL_MS: '0',
    });
    const { child, exited, baseUrl } = server;
    try {
      await eventually(
        async () => {
          if (child.exitCode !== null) throw new Error('server exited');
          const res = await call(baseUrl, 'GET', '/healthz', {}, undefined, 1_000);
          return res.status === 200 ? true : undefined;
        },
        45_000,
        200,
      ).catch((err: unknown) => {
        throw new Error(`server did not come up: ${String(err)}\n${server.output()}`);
      });
      const headers = { 'x-api-key': key };
      const acknowledged: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await call(
          baseUrl,
          'POST',
          '/api/v1/verify',
          headers,
          validRequest(notary, samplePdf(`killed ${i}`)),
        );
        expect(res.status, res.body + server.output()).toBe(200);
        acknowledged.push((JSON.parse(res.body) as { receiptId: string }).receiptId);
      }
      child.kill('SIGKILL');
      expect((await exited).signal).toBe('SIGKILL');

      // a lock left by a dead process is stale: the next opener takes over
      const app = await start(embeddedConfig(dataDir));
      for (const id of acknowledged) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/receipt/${id}/verify`,
          headers,
        });
        expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
        expect(res.json()).toMatchObject({ integrityVerified: true, signatureVerified: true });
      }
      const count = Number((await app.db.knex('receipts').count({ n: '*' }).first())?.n);
      expect(count).toBe(acknowledged.length);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
