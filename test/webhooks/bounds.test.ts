import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract/limits.js';
import {
  DEPLOYMENT_DECISION_TYPE,
  signDeploymentDecision,
  type DeploymentDecisionStatement,
} from '../../src/receipts/deployment-gates/decision-record.js';
import { TargetPolicy } from '../../src/webhooks/target.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

/**
 * What bounds a tenant's webhooks: how many subscriptions it holds, how large a body may be,
 * that a disabled subscription gets nothing more, and that a name server that never answers
 * costs an attempt no more than its timeout.
 */

let ctx: TestContext;
let receiver: Receiver;
let key: string;

beforeAll(async () => {
  ctx = await createTestContext({
    WEBHOOK_DELIVERY_INTERVAL_MS: '0',
    WEBHOOK_TIMEOUT_MS: '300',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  });
  receiver = await startReceiver();
  key = await ctx.apiKey(['webhooks']);
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

const subscribe = (apiKey: string, eventTypes = ['receipt.issued']) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { 'x-api-key': apiKey },
    payload: { url: receiver.url, eventTypes },
  });

const deliveries = async (subscription: string) =>
  (await ctx.repos.webhooks.listDeliveries(subscription, 10, undefined)).items;

describe('subscriptions per tenant', () => {
  it(`are at most ${LIMITS.webhookSubscriptions}, even asked for all at once`, async () => {
    const tenantKey = await ctx.apiKey(['webhooks'], 'tenant-many');
    const answers = await Promise.all(
      Array.from({ length: LIMITS.webhookSubscriptions + 5 }, () => subscribe(tenantKey)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(LIMITS.webhookSubscriptions);
    const refused = answers.filter((a) => a.statusCode === 400);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json()).toMatchObject({
      error: 'validation_failed',
      details: { limitSubscriptions: LIMITS.webhookSubscriptions },
    });
    const list = await ctx.app.inject({
      url: '/api/v1/webhooks',
      headers: { 'x-api-key': tenantKey },
    });
    expect(list.json()).toHaveLength(LIMITS.webhookSubscriptions);
    // another tenant is not held back, and a deletion makes room
    expect((await subscribe(key)).statusCode).toBe(201);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/webhooks/${list.json()[0].id}`,
      headers: { 'x-api-key': tenantKey },
    });
    expect(removed.statusCode).toBe(200);
    expect((await subscribe(tenantKey)).statusCode).toBe(201);
    expect((await subscribe(tenantKey)).statusCode).toBe(400);
  });
});

describe('a body over 20 KB', () => {
  it('is never sent: its delivery fails at once, saying why', async () => {
    const subscription = (await subscribe(key, ['deployment.decided'])).json().id as string;
    const gateId = randomUUID();
    await ctx.repos.deploymentGates.open(
      {
        id: gateId,
        tenant: 'tenant-a',
        installationId: 1,
        repository: 'octo-org/octo-repo',
        environment: 'production',
        sha: 'b'.repeat(40),
        callbackUrl:
          'https://api.github.com/repos/octo-org/octo-repo/actions/runs/2/deployment_protection_rule',
        deploymentId: 8,
        requestedAt: new Date(),
        policy: undefined,
        policyHash: undefined,
      },
      new Date(),
    );
    const reason = 'a reason far longer than any judgement writes '.repeat(500);
    const statement: DeploymentDecisionStatement = {
      type: DEPLOYMENT_DECISION_TYPE,
      gateId,
      repository: 'octo-org/octo-repo',
      environment: 'production',
      sha: 'b'.repeat(40),
      state: 'rejected',
      reason,
      receipts: [],
      requestedAt: new Date().toISOString(),
      decidedAt: new Date().toISOString(),
    };
    await ctx.repos.deploymentGates.finish(gateId, {
      state: 'rejected',
      reason,
      record: signDeploymentDecision(statement, undefined),
      at: new Date(),
    });
    receiver.received.length = 0;
    await ctx.app.services.webhooks.dispatcher().runOnce();
    expect(receiver.received).toHaveLength(0);
    const [d] = await deliveries(subscription);
    expect(d).toMatchObject({ state: 'failed', attempts: 1, nextAttemptAt: null });
    expect(d!.lastError).toMatch(/not sent: the deployment.decided body is \d+ bytes, over 20480/);
  });
});

describe('a disabled subscription', () => {
  it('gets no test event, and a delivery recorded as it was disabled is failed unsent', async () => {
    const subscription = (await subscribe(key)).json().id as string;
    const test = () =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/webhooks/${subscription}/test`,
        headers: { 'x-api-key': key },
      });
    expect((await test()).statusCode).toBe(202);
    receiver.mode = 'gone';
    receiver.received.length = 0;
    await ctx.app.services.webhooks.dispatcher().runOnce();
    expect(receiver.received).toHaveLength(1);
    receiver.mode = 'ok';
    const refused = await test();
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toMatch(/disabled/);
    // an event whose transaction saw the subscription still active commits after the 410
    const disabled = await ctx.repos.webhooks.findSubscription('tenant-a', subscription);
    expect(disabled?.disabledAt).not.toBeNull();
    await ctx.repos.webhooks.recordTestEvent(disabled!, { subscriptionId: subscription });
    await ctx.app.services.webhooks.dispatcher().runOnce();
    expect(receiver.received).toHaveLength(1);
    const [latest] = await deliveries(subscription);
    expect(latest).toMatchObject({ state: 'failed', lastStatus: null, nextAttemptAt: null });
    expect(latest!.lastError).toMatch(/not sent: the subscription is disabled/);
  });
});

describe('a name server that never answers', () => {
  it('ends the attempt within its timeout, the delivery to be tried again', async () => {
    const created = await ctx.repos.webhooks.createSubscription(
      {
        id: randomUUID(),
        tenant: 'tenant-a',
        url: `http://stalled.invalid:${receiver.port}/hooks`,
        eventTypes: ['receipt.issued'],
        schemes: ['v1a'],
        secret: null,
      },
      LIMITS.webhookSubscriptions,
    );
    await ctx.repos.webhooks.recordTestEvent(created!, { subscriptionId: created!.id });
    const stalled = new TargetPolicy(['127.0.0.1/32'], () => new Promise(() => undefined));
    receiver.received.length = 0;
    // never resolving, the attempt would hold its lease and the round for good
    expect(await ctx.app.services.webhooks.dispatcher({ targets: stalled }).runOnce()).toBe(1);
    const [d] = await deliveries(created!.id);
    expect(d).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null });
    expect(d!.lastError).toMatch(/stalled.invalid did not resolve within 300 ms/);
    expect(receiver.received).toHaveLength(0);
  });
});
