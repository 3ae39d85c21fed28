import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { rawEd25519PublicKey } from '../../../src/receipts/revocation.js';
import {
  ALL_SCOPES,
  createTestContext,
  ed25519Pem,
  type TestContext,
} from '../../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../../helpers/ron.js';
import { ciRequest } from './requests.js';

/** BODY_LIMIT_BYTES of the `small` app. */
export const LIMIT = 65_536;

/** The service under hostile input, with what the requests need; filled in by beforeAll. */
export interface HostileApp {
  ctx: TestContext;
  /** Same store, BODY_LIMIT_BYTES 64 KiB: for oversize bodies. */
  small: FastifyInstance;
  /** An API key holding every scope, so requests get past authentication. */
  key: string;
  /** A tenant of its own with a few receipts, so that listing stays cheap. */
  listKey: string;
  notary: Notary;
  /** A receipt of `key`'s tenant. */
  receiptId: string;
  /** The private key of issuer 'escrow-co', registered for `key`'s tenant. */
  issuerPem: string;
}

async function setUp(app: HostileApp): Promise<void> {
  app.ctx = await createTestContext({ RATE_LIMIT_MAX: '1000000' });
  const { ctx } = app;
  app.key = await ctx.apiKey(ALL_SCOPES);
  app.notary = await registerNotary(ctx.repos);
  await ctx.repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 'tenant-a',
    publicKey: rawEd25519PublicKey(app.issuerPem),
  });
  const issued = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': app.key },
    payload: validRequest(app.notary),
  });
  expect(issued.statusCode, issued.body).toBe(200);
  app.receiptId = issued.json().receiptId;
  app.listKey = await ctx.apiKey(['verify', 'read'], 'tenant-list');
  for (let i = 0; i < 3; i++) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verifications/ci',
      headers: { 'x-api-key': app.listKey },
      payload: ciRequest(),
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  // a checkpoint, so that the anchor and log endpoints have proofs to compute
  await ctx.app.services.anchoring.sealOnce();
  app.small = await buildApp({
    config: { ...ctx.config, bodyLimitBytes: LIMIT },
    db: ctx.db,
    logger: false,
  });
  await app.small.ready();
}

/**
 * Builds the service on a fresh store in beforeAll and closes it in afterAll (after
 * `beforeClose`, when given). The returned object is filled in by beforeAll.
 */
export function useHostileApp(
  options: { beforeClose?: (app: HostileApp) => Promise<void> } = {},
): HostileApp {
  const app = { issuerPem: ed25519Pem() } as HostileApp;
  beforeAll(() => setUp(app), 120_000);
  afterAll(async () => {
    try {
      if (app.ctx && app.small && options.beforeClose) await options.beforeClose(app);
    } finally {
      await app.small?.close();
      await app.ctx?.close();
    }
  });
  return app;
}
