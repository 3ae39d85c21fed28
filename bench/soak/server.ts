import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { buildApp } from '../../src/app.js';
import { rawEd25519PublicKey } from '../../src/receipts/revocation.js';
import { openDatabase } from '../../src/storage/database.js';
import { createRepositories, type Repositories } from '../../src/storage/repositories.js';
import { closeStore, ed25519Pem, tempDir, testConfig } from '../../test/helpers/context.js';
import { samplePdf } from '../../test/helpers/requests.js';
import { registerNotary, validRequest, type Notary } from '../../test/helpers/ron.js';
import type { SoakSettings } from './settings.js';

/** The service under soak: a real listening server on a fresh PostgreSQL schema. */

export const TENANT = 'soak';
export const ISSUER_ID = 'soak-issuer';

export interface SoakServer {
  app: FastifyInstance;
  knex: Knex;
  baseUrl: string;
  /** An API key of TENANT with the scopes verify, read and revoke. */
  token: string;
  notary: Notary;
  /** The private key of ISSUER_ID. */
  issuerPem: string;
  /** Receipts issued during setup: targets for reads and revocations from the first second. */
  seedIds: string[];
}

/** The tenant's API key, notary and issuer. */
async function registerTenant(repos: Repositories) {
  const { token } = await repos.apiKeys.create({
    tenant: TENANT,
    name: 'soak',
    scopes: ['verify', 'read', 'revoke'],
  });
  const notary = await registerNotary(repos, TENANT);
  const issuerPem = ed25519Pem();
  await repos.issuers.add({
    issuerId: ISSUER_ID,
    tenant: TENANT,
    publicKey: rawEd25519PublicKey(issuerPem),
  });
  return { token, notary, issuerPem };
}

async function seedReceipts(
  app: FastifyInstance,
  token: string,
  notary: Notary,
  count: number,
): Promise<string[]> {
  const seedIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': token },
      payload: validRequest(notary, samplePdf(`seed ${i}`)),
    });
    if (res.statusCode !== 200) throw new Error(`seeding failed: ${res.statusCode} ${res.body}`);
    seedIds.push((res.json() as { receiptId: string }).receiptId);
  }
  return seedIds;
}

/**
 * Starts the server (the in-process sealer on, as in production), seeds it and runs `use` with
 * it and a scratch directory; afterwards closes it, drops the schema and removes the directory.
 */
export async function withSoakServer<T>(
  settings: SoakSettings,
  use: (server: SoakServer, scratch: string) => Promise<T>,
): Promise<T> {
  const { url, schema, poolMax, anchorMs } = settings;
  const store = { kind: 'postgres' as const, url, schema, poolMax };
  const config = testConfig(
    { RATE_LIMIT_MAX: '1000000000', ANCHOR_INTERVAL_MS: String(anchorMs) },
    store,
  );
  const db = await openDatabase(store);
  const repos = createRepositories(db);
  const scratch = tempDir('soak-');
  let app: FastifyInstance | undefined;
  try {
    const { token, notary, issuerPem } = await registerTenant(repos);
    app = await buildApp({ config, db, logger: { level: 'warn' } });
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const seedIds = await seedReceipts(app, token, notary, settings.seedCount);
    return await use({ app, knex: db.knex, baseUrl, token, notary, issuerPem, seedIds }, scratch);
  } finally {
    await app?.close();
    await closeStore(db, store);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
