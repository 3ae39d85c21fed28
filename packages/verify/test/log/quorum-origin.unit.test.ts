import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseLogPolicy } from '../../src/log/policy.js';
import type { PinnedLog, TrustRoot } from '../../src/trust.js';
import { verifyBundle } from '../../src/verify.js';
import { fixture, pinnedKeys, type Json } from '../helpers.js';
import { cosignatureLine, ORIGIN, serviceLog } from './service-log.js';

/**
 * The pinned log's two promises, on a log the service's own code builds around the recorded
 * receipt (entry 1 of 5): a checkpoint counts only with cosignatures of as many distinct pinned
 * witnesses as the quorum asks, and only when its origin is exactly the pinned one.
 */
const receipt = fixture<Json>('bundle.json');
const receiptHash = Buffer.from(String(receipt.receipt.receiptHash).slice(7), 'hex');
const stepOf = (v: { steps: { id: string; status: string; detail: string }[] }, id: string) =>
  v.steps.find((s) => s.id === id);

async function setup(witnesses: number, quorum: number) {
  const log = await serviceLog(5, witnesses, quorum, [new Uint8Array(32), receiptHash]);
  const policy = parseLogPolicy(log.policy);
  if (!policy.ok) throw new Error(policy.reason);
  const verify = (logEntry: Json, trust: TrustRoot = { log: policy.log }) =>
    verifyBundle(
      { ...fixture<Json>('bundle.json'), logEntry },
      { trust, acceptUnknownStatus: true },
    );
  return { log, pinned: policy.log, verify };
}

describe('the witness quorum', () => {
  it('2 of 3: one cosignature is not enough, whatever else is pinned; two distinct ones are', async () => {
    const { log, pinned, verify } = await setup(3, 2);
    expect(pinned.quorum).toBe(2);
    for (const trust of [{ log: pinned }, { keys: pinnedKeys(), log: pinned }]) {
      for (const cosigners of [0, 1]) {
        const v = verify(await log.logEntry(1, { cosigners }), trust);
        expect(v, `${cosigners} cosigner(s)`).toMatchObject({ authentic: false, exitCode: 1 });
        expect(stepOf(v, 'witnesses')).toMatchObject({
          status: 'FAIL',
          detail: `cosigned by ${cosigners} pinned witnesses, the policy needs 2`,
        });
      }
      const two = verify(await log.logEntry(1, { cosigners: 2 }), trust);
      expect(two).toMatchObject({ authentic: true, exitCode: 0 });
      expect(stepOf(two, 'witnesses')?.status).toBe('PASS');
    }
  });

  it('the same witness cosigning twice counts once', async () => {
    const { log, verify } = await setup(3, 2);
    const entry = await log.logEntry(1, { cosigners: 1 });
    const checkpoint = String(entry.checkpoint);
    const text = checkpoint.slice(0, checkpoint.indexOf('\n\n') + 1);
    const again = cosignatureLine(log.witnesses[0] as never, text, 1_800_000_000n);
    const v = verify({ ...entry, checkpoint: `${checkpoint}${again}\n` });
    expect(v.authentic).toBe(false);
    expect(stepOf(v, 'witnesses')).toMatchObject({
      status: 'FAIL',
      detail: 'cosigned by 1 pinned witnesses, the policy needs 2',
    });
  });

  it('3 of 3: two are not enough', async () => {
    const { log, verify } = await setup(3, 3);
    const two = verify(await log.logEntry(1, { cosigners: 2 }));
    expect(two.authentic).toBe(false);
    expect(stepOf(two, 'witnesses')?.status).toBe('FAIL');
    expect(verify(await log.logEntry(1, { cosigners: 3 })).authentic).toBe(true);
  });
});

describe('the pinned origin', () => {
  const others = [`${ORIGIN}-staging`, `${ORIGIN}/2`, ORIGIN.slice(0, -1), 'receipts.test'];

  it('a checkpoint of another origin signed by the same key is refused, even one that shares a prefix', async () => {
    const { log, pinned, verify } = await setup(3, 2);
    expect(verify(await log.logEntry(1)).authentic).toBe(true);
    for (const origin of others) {
      for (const trust of [{ log: pinned }, { keys: pinnedKeys(), log: pinned }]) {
        const v = verify(await log.logEntry(1, { origin }), trust);
        expect(v.authentic, origin).toBe(false);
        expect(stepOf(v, 'checkpoint')).toMatchObject({
          status: 'FAIL',
          detail: `the checkpoint is of the log ${origin}, not of the pinned log ${ORIGIN}`,
        });
      }
    }
  });

  it('an entry naming the pinned origin whose checkpoint names another is refused', async () => {
    const { log, verify } = await setup(3, 2);
    for (const origin of others) {
      const v = verify(await log.logEntry(1, { origin, claimed: ORIGIN }));
      expect(v.authentic, origin).toBe(false);
      expect(stepOf(v, 'checkpoint')).toMatchObject({
        status: 'FAIL',
        detail: 'the checkpoint is of another log',
      });
    }
  });

  it('a pinned origin alone (--log-origin) refuses a prefix or an extension of it', () => {
    // the recorded checkpoint is signed by a key the JWKS lists: only the origin can refuse it
    const recorded = String(receipt.logEntry.origin);
    const keysOnly = verifyBundle(fixture<Json>('bundle.json'), { trust: { keys: pinnedKeys() } });
    expect(stepOf(keysOnly, 'checkpoint')?.status).toBe('PASS');
    for (const pinnedOrigin of [recorded, `${recorded}-staging`, recorded.slice(0, -1)]) {
      const trust: TrustRoot = {
        keys: pinnedKeys(),
        log: { origin: pinnedOrigin, witnesses: [], quorum: 0 } satisfies PinnedLog,
      };
      const v = verifyBundle(fixture<Json>('bundle.json'), { trust });
      expect(stepOf(v, 'checkpoint')?.status, pinnedOrigin).toBe(
        pinnedOrigin === recorded ? 'PASS' : 'FAIL',
      );
    }
  });

  it("the status's latest checkpoint must be of the bundle's log, not one whose origin shares a prefix with it", async () => {
    const { log, pinned } = await setup(3, 2);
    const entry = await log.logEntry(1, { cosigners: 2 });
    const statusKey = generateKeyPairSync('ed25519');
    const x = String(statusKey.publicKey.export({ format: 'jwk' }).x);
    const kid = createHash('sha256')
      .update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`)
      .digest('base64url');
    const trust: TrustRoot = {
      keys: [...pinnedKeys(), new Uint8Array(Buffer.from(x, 'base64url'))],
      log: pinned,
    };
    const now = new Date();
    // the statement in RFC 8785 form, written by hand: members sorted, no whitespace
    const canonical =
      `{"anchor":{"logIndex":1,"status":"ANCHORED"},"producedAt":"${now.toISOString()}",` +
      `"receiptHash":"${String(receipt.receipt.receiptHash)}","status":"active",` +
      `"type":"verification-receipt-status/v1"}`;
    const signature = sign(null, Buffer.from(canonical), statusKey.privateKey).toString(
      'base64url',
    );
    const statusWith = (checkpoint: string) => ({
      mediaType: 'application/vnd.verification-receipt.status+json;version=1',
      statement: JSON.parse(canonical),
      canonicalStatement: canonical,
      signature: { alg: 'EdDSA', kid, signature },
      log: { checkpoint: { checkpoint } },
    });
    const check = (checkpoint: string) =>
      verifyBundle(
        { ...fixture<Json>('bundle.json'), logEntry: entry },
        { trust, status: { document: statusWith(checkpoint) }, now },
      );
    const same = check(String(entry.checkpoint));
    expect(stepOf(same, 'status-signature')?.status).toBe('PASS');
    expect(stepOf(same, 'log-consistency')?.status).toBe('PASS');
    expect(same.exitCode).toBe(0);
    for (const origin of others) {
      const v = check(String((await log.logEntry(1, { origin })).checkpoint));
      expect(stepOf(v, 'log-consistency'), origin).toMatchObject({
        status: 'FAIL',
        detail: 'the latest checkpoint is not signed by this log',
      });
      expect(v.exitCode).toBe(1);
    }
  });
});
