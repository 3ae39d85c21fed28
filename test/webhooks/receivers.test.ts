import { createPublicKey, verify as cryptoVerify } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyBundle, verifyWebhook } from '@verification-receipts/verify';
import {
  DeploymentDecidedEvent,
  ReceiptAnchoredEvent,
  ReceiptIssuedEvent,
  ReceiptRevokedEvent,
} from '../../src/contract/webhooks.js';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { issueValidRon } from '../helpers/ron.js';
import { startReceiver, type ReceivedWebhook, type Receiver } from '../helpers/webhook-receiver.js';
import { jwksKeys } from '../verifier/helpers.js';

/**
 * Every event reaches a real receiver: v1 verified by the `standardwebhooks` package, v1a by an
 * independent Ed25519 check (node:crypto) under the key published at
 * /.well-known/webhook-jwks.json; a tampered body or an old timestamp is refused by both.
 */

let ctx: TestContext;
let receiver: Receiver;
let key: string;
let secret: string;
let publicX: string;

/** The independent v1a check a receiver writes: node:crypto, the published key, 5 min tolerance. */
function v1aValid(w: ReceivedWebhook, nowSeconds = Date.now() / 1000): boolean {
  const id = w.headers['webhook-id']!;
  const ts = w.headers['webhook-timestamp']!;
  if (Math.abs(nowSeconds - Number(ts)) > 300) return false;
  const publicKey = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: publicX },
    format: 'jwk',
  });
  const content = Buffer.from(`${id}.${ts}.${w.body}`);
  return w.headers['webhook-signature']!.split(' ').some((part) => {
    const [version, signature] = part.split(',');
    return (
      version === 'v1a' && cryptoVerify(null, content, publicKey, Buffer.from(signature!, 'base64'))
    );
  });
}

async function deliverAll(expected: number) {
  const dispatcher = ctx.app.services.webhooks.dispatcher();
  for (let i = 0; i < 20 && receiver.received.length < expected; i++) await dispatcher.runOnce();
}

beforeAll(async () => {
  ctx = await createTestContext({
    WEBHOOK_DELIVERY_INTERVAL_MS: '0',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  });
  receiver = await startReceiver();
  key = await ctx.apiKey(['verify', 'read', 'revoke', 'webhooks']);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { 'x-api-key': key },
    payload: {
      url: receiver.url,
      eventTypes: ['receipt.issued', 'receipt.anchored', 'receipt.revoked', 'deployment.decided'],
      schemes: ['v1', 'v1a'],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  secret = created.json().secret;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const jwks = (await ctx.app.inject({ url: '/.well-known/webhook-jwks.json' })).json();
  expect(jwks.keys).toHaveLength(1);
  publicX = jwks.keys[0].x;

  // the four changes: issuance, seal, revocation, a deployment decision
  const issued = await issueValidRon(ctx, key);
  const receiptId = issued.json().receiptId as string;
  await ctx.app.services.anchoring.sealAll();
  const issuerPem = ed25519Pem();
  await registerIssuer(ctx.repos, issuerPem);
  expect((await revokeVia(ctx.app, key, receiptId, issuerPem)).statusCode).toBe(200);
  const gateId = randomUUID();
  await ctx.repos.deploymentGates.open(
    {
      id: gateId,
      tenant: 'tenant-a',
      installationId: 1,
      repository: 'octo-org/octo-repo',
      environment: 'production',
      sha: 'a'.repeat(40),
      callbackUrl:
        'https://api.github.com/repos/octo-org/octo-repo/actions/runs/1/deployment_protection_rule',
      deploymentId: 7,
      requestedAt: new Date(),
      policy: undefined,
      policyHash: undefined,
    },
    new Date(),
  );
  const record = {
    statement: {
      type: 'verification-receipt-deployment-decision/v1',
      gateId,
      repository: 'octo-org/octo-repo',
      environment: 'production',
      sha: 'a'.repeat(40),
      state: 'approved',
      reason: 'a receipt meets the policy',
      receipts: [],
      requestedAt: new Date().toISOString(),
      decidedAt: new Date().toISOString(),
    },
    canonicalStatement: '{}',
    signature: null,
  };
  await ctx.repos.deploymentGates.finish(gateId, {
    state: 'approved',
    reason: 'a receipt meets the policy',
    record,
    at: new Date(),
  });
  await deliverAll(4);
});

afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

describe('a receiver of every event', () => {
  it('gets the four events, each once, with distinct webhook-ids', () => {
    expect(receiver.received.map((r) => JSON.parse(r.body).type).sort()).toEqual([
      'deployment.decided',
      'receipt.anchored',
      'receipt.issued',
      'receipt.revoked',
    ]);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(4);
  });

  it('verifies every v1 delivery with the standardwebhooks package', () => {
    const wh = new Webhook(secret);
    for (const r of receiver.received) expect(() => wh.verify(r.body, r.headers)).not.toThrow();
  });

  it('verifies every v1a delivery with node:crypto and the published key, and with verifyWebhook()', async () => {
    const jwks = (await ctx.app.inject({ url: '/.well-known/webhook-jwks.json' })).json();
    for (const r of receiver.received) {
      expect(v1aValid(r)).toBe(true);
      const verified = verifyWebhook({ body: r.body, headers: r.headers, keys: jwks });
      expect(verified.id).toBe(r.headers['webhook-id']);
    }
  });

  it('refuses a tampered body with both schemes', async () => {
    const jwks = (await ctx.app.inject({ url: '/.well-known/webhook-jwks.json' })).json();
    const wh = new Webhook(secret);
    for (const r of receiver.received) {
      const tampered = { ...r, body: r.body.replace('"data":{', '"data":{"x":1,') };
      expect(tampered.body).not.toBe(r.body);
      expect(() => wh.verify(tampered.body, r.headers)).toThrow(/No matching signature/);
      expect(v1aValid(tampered)).toBe(false);
      expect(() => verifyWebhook({ body: tampered.body, headers: r.headers, keys: jwks })).toThrow(
        /no v1a signature verifies/,
      );
    }
  });

  it('refuses an old timestamp with both schemes (a capture replayed ten minutes later)', async () => {
    const jwks = (await ctx.app.inject({ url: '/.well-known/webhook-jwks.json' })).json();
    const wh = new Webhook(secret);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 10 * 60_000);
      for (const r of receiver.received) {
        expect(() => wh.verify(r.body, r.headers)).toThrow(/too old/);
        expect(v1aValid(r)).toBe(false);
        expect(() => verifyWebhook({ body: r.body, headers: r.headers, keys: jwks })).toThrow(
          /too old/,
        );
      }
    } finally {
      vi.useRealTimers();
    }
    // the signatures themselves are good: only the age refuses them
    for (const r of receiver.received) expect(v1aValid(r)).toBe(true);
  });

  it('carries small bodies that match the published schemas, never document bytes', async () => {
    const schemas = {
      'receipt.issued': ReceiptIssuedEvent,
      'receipt.anchored': ReceiptAnchoredEvent,
      'receipt.revoked': ReceiptRevokedEvent,
      'deployment.decided': DeploymentDecidedEvent,
    } as const;
    for (const r of receiver.received.slice(0, 4)) {
      expect(Buffer.byteLength(r.body)).toBeLessThan(20 * 1024);
      expect(r.body).not.toContain('JVBERi0'); // base64 of %PDF-
      const event = JSON.parse(r.body) as { type: keyof typeof schemas };
      expect(() => schemas[event.type].parse(event)).not.toThrow();
    }
  });

  it("receipt.anchored carries the bundle's logEntry: the receipt verifies offline at once", async () => {
    const anchored = receiver.received.find((r) => JSON.parse(r.body).type === 'receipt.anchored')!;
    const { data } = JSON.parse(anchored.body);
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${data.receiptId}/bundle`,
      headers: { 'x-api-key': key },
    });
    const bare = res.json() as Record<string, unknown>;
    delete bare.logEntry;
    const verdict = verifyBundle(
      { ...bare, logEntry: data.logEntry },
      {
        trust: { keys: await jwksKeys(ctx) },
      },
    );
    const steps = Object.fromEntries(verdict.steps.map((s) => [s.id, s.status]));
    expect(steps['log-inclusion']).toBe('PASS');
    expect(steps.checkpoint).toBe('PASS');
  });

  it('lists the deliveries as delivered, with one attempt each', async () => {
    const [sub] = (
      await ctx.app.inject({ url: '/api/v1/webhooks', headers: { 'x-api-key': key } })
    ).json();
    const res = await ctx.app.inject({
      url: `/api/v1/webhooks/${sub.id}/deliveries`,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode).toBe(200);
    const deliveries = res.json() as { state: string; attempts: number; lastStatus: number }[];
    expect(deliveries).toHaveLength(4);
    for (const d of deliveries)
      expect(d).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200 });
  });
});
