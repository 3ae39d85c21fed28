import { createPublicKey } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '@verification-receipts/verify';
import { formatVerifierKey, parseLogPolicy } from '@verification-receipts/verify/log';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { startWitness, type TestWitness } from '../helpers/witness.js';
import { jwksKeys } from '../verifier/helpers.js';

/**
 * `Prefer: wait=N, witnessed` against witnesses written for the tests from c2sp.org/tlog-witness
 * (test/helpers/witness-server.mjs), each in its own process, and the service's own sealer at its
 * default batching window: the answer carries a checkpoint cosigned by the policy's quorum, which
 * the verifier package checks under the published policy; a witness that does not answer in time
 * leaves an answer on time that names what is missing; a log without a witness quorum ignores
 * the preference.
 */

const ORIGIN = 'witnessed.test/log';
const signingPem = ed25519Pem();
const logVkey = formatVerifierKey(
  ORIGIN,
  new Uint8Array(
    Buffer.from(createPublicKey(signingPem).export({ format: 'jwk' }).x as string, 'base64url'),
  ),
);
const witnesses: TestWitness[] = [];
const contexts: TestContext[] = [];

async function witness(name: string, mode?: 'slow') {
  const seed = Buffer.from(name.padEnd(32, '.').slice(0, 32)).toString('hex');
  const w = await startWitness({ name, seed, logVkey, ...(mode ? { mode } : {}) });
  witnesses.push(w);
  return w;
}

/** A service with its sealer on (the quiet-log interval far off) and these witnesses. */
async function service(list: TestWitness[], quorum?: number) {
  const ctx = await createTestContext({
    SIGNING_KEY: signingPem,
    LOG_ORIGIN: ORIGIN,
    ANCHOR_INTERVAL_MS: '60000',
    ...(list.length > 0 ? { WITNESSES: list.map((w) => `${w.vkey}@${w.url}`).join(',') } : {}),
    ...(quorum ? { WITNESS_QUORUM: String(quorum) } : {}),
  });
  contexts.push(ctx);
  const key = await ctx.apiKey(['verify', 'read']);
  const notary = await registerNotary(ctx.repos);
  return { ctx, key, notary };
}

function issue(svc: { ctx: TestContext; key: string; notary: Notary }, prefer: string) {
  return svc.ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': svc.key, prefer },
    payload: validRequest(svc.notary),
  });
}

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await Promise.all(witnesses.map((w) => w.stop()));
});

describe('Prefer: wait=N, witnessed', () => {
  // a witness keeps the size it last cosigned of its one log: each service (a new log under the
  // same origin and key) gets witnesses of its own
  const pair = () => Promise.all([witness('witnessed.test/w1'), witness('witnessed.test/w2')]);

  it('answers once the quorum cosigned, with the cosignatures in the bundle, which verify under the published policy', async () => {
    const [w1, w2] = await pair();
    const svc = await service([w1, w2], 2);
    const started = Date.now();
    const res = await issue(svc, 'wait=10, witnessed');
    // woken by the cosignatures as they are stored, before the wait runs out
    expect(Date.now() - started).toBeLessThan(9_000);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['preference-applied']).toBe('wait=10, witnessed');
    const answer = res.json();
    expect(answer.witnessing).toEqual({
      witnessed: true,
      quorum: 2,
      cosignedBy: [w1.name, w2.name],
    });
    expect(answer.anchor.status).toBe('ANCHORED');
    const bundle = (
      await svc.ctx.app.inject({
        url: `/api/v1/receipt/${answer.receiptId}/bundle`,
        headers: { 'x-api-key': svc.key },
      })
    ).json();
    const policy = parseLogPolicy((await svc.ctx.app.inject({ url: '/log/policy' })).body);
    if (!policy.ok) throw new Error(policy.reason);
    expect(policy.log.quorum).toBe(2);
    const trust = { keys: await jwksKeys(svc.ctx), log: policy.log };
    const verdict = verifyBundle({ ...bundle, logEntry: answer.logEntry }, { trust });
    const steps = Object.fromEntries(verdict.steps.map((s) => [s.id, s]));
    expect(steps['log-inclusion']?.status).toBe('PASS');
    expect(steps.checkpoint?.status).toBe('PASS');
    expect(steps.witnesses?.status, steps.witnesses?.detail).toBe('PASS');
    expect(verdict.authentic).toBe(true);
    // the same proof without one witness's line falls short of the policy's quorum
    const lines = (answer.logEntry.checkpoint as string).split('\n');
    const short = lines.filter((l) => !l.startsWith(`\u2014 ${w2.name} `)).join('\n');
    const fewer = verifyBundle(
      { ...bundle, logEntry: { ...answer.logEntry, checkpoint: short } },
      { trust },
    );
    expect(fewer.steps.find((s) => s.id === 'witnesses')?.status).toBe('FAIL');
  }, 60_000);

  it('with a witness that does not answer, answers on time with the signed proof and names what is missing', async () => {
    const [w1, silent] = await Promise.all([
      witness('witnessed.test/w1'),
      witness('witnessed.test/silent', 'slow'),
    ]);
    const svc = await service([w1, silent], 2);
    const started = Date.now();
    const res = await issue(svc, 'wait=2, witnessed');
    const took = Date.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(4_000);
    expect(res.headers['preference-applied']).toBe('wait=2, witnessed');
    const answer = res.json();
    expect(answer.witnessing).toEqual({
      witnessed: false,
      quorum: 2,
      cosignedBy: [w1.name],
      missing: 'cosignatures',
      missingWitnesses: [silent.name],
    });
    // what exists: the proof under the checkpoint the log signed, cosigned by w1 alone
    const policy = parseLogPolicy((await svc.ctx.app.inject({ url: '/log/policy' })).body);
    if (!policy.ok) throw new Error(policy.reason);
    const bundle = (
      await svc.ctx.app.inject({
        url: `/api/v1/receipt/${answer.receiptId}/bundle`,
        headers: { 'x-api-key': svc.key },
      })
    ).json();
    const verdict = verifyBundle(
      { ...bundle, logEntry: answer.logEntry },
      { trust: { keys: await jwksKeys(svc.ctx), log: policy.log } },
    );
    const steps = Object.fromEntries(verdict.steps.map((s) => [s.id, s.status]));
    expect(steps).toMatchObject({ 'log-inclusion': 'PASS', checkpoint: 'PASS', witnesses: 'FAIL' });
  }, 60_000);

  it('a receipt in no checkpoint yet when the time runs out: `missing` is the checkpoint', async () => {
    const [w1, w2] = await pair();
    // a service without its sealer: the receipt is in no checkpoint when the second runs out
    const idle = await createTestContext({
      SIGNING_KEY: signingPem,
      LOG_ORIGIN: ORIGIN,
      WITNESSES: [w1, w2].map((w) => `${w.vkey}@${w.url}`).join(','),
      WITNESS_QUORUM: '2',
    });
    contexts.push(idle);
    const res = await issue(
      { ctx: idle, key: await idle.apiKey(['verify']), notary: await registerNotary(idle.repos) },
      'wait=1, witnessed',
    );
    expect(res.headers['preference-applied']).toBe('wait=1, witnessed');
    const answer = res.json();
    expect(answer.logEntry).toBeUndefined();
    expect(answer.witnessing).toEqual({
      witnessed: false,
      quorum: 2,
      cosignedBy: [],
      missing: 'checkpoint',
      missingWitnesses: [w1.name, w2.name],
    });
    expect(idle.app.services.receipts.witnessQuorum).toEqual({
      witnesses: [w1.name, w2.name],
      quorum: 2,
    });
  }, 60_000);

  it('is ignored where the log policy has no witness quorum: the wait is for the signed checkpoint', async () => {
    const svc = await service([]);
    expect((await svc.ctx.app.inject({ url: '/log/policy' })).body).toMatch(/\nquorum none\n$/);
    const res = await issue(svc, 'wait=8, witnessed');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['preference-applied']).toBe('wait=8');
    const answer = res.json();
    expect(answer.witnessing).toBeUndefined();
    expect(answer.logEntry).toMatchObject({ logIndex: answer.anchor.logIndex });
  }, 60_000);
});
