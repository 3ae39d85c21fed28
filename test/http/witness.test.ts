import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatVerifierKey, openNote, parseVerifierKey } from '@verification-receipts/verify/log';
import { runCli } from '../../src/cli/run.js';
import {
  createTestContext,
  ed25519Pem,
  listenLocally,
  type TestContext,
} from '../helpers/context.js';
import { rewriteLogInReverse } from '../helpers/log-rewrite.js';
import { freePort, startWitness, type TestWitness } from '../helpers/witness.js';
import { ciRequest } from './hostile/requests.js';

/**
 * Witness cosigning (c2sp.org/tlog-witness, tlog-cosignature) against witnesses written for the
 * tests from the specs, each in its own process: they cosign, lag and catch up (409), refuse a
 * rewritten log, and misbehaving ones are ignored and counted against the quorum.
 */

const ORIGIN = 'witness.test/log';
const signingPem = ed25519Pem();
const logKey = Buffer.from(
  createPublicKey(signingPem).export({ format: 'jwk' }).x as string,
  'base64url',
);
const logVkey = formatVerifierKey(ORIGIN, new Uint8Array(logKey));
const witnesses: TestWitness[] = [];

async function witness(
  name: string,
  mode?: Parameters<typeof startWitness>[0]['mode'],
  port?: number,
) {
  const seed = Buffer.from(name.padEnd(32, '.').slice(0, 32)).toString('hex');
  const w = await startWitness({
    name,
    seed,
    logVkey,
    ...(mode ? { mode } : {}),
    ...(port ? { port } : {}),
  });
  witnesses.push(w);
  return w;
}
afterAll(async () => Promise.all(witnesses.map((w) => w.stop())));

function context(list: string[], extra: Record<string, string> = {}) {
  return createTestContext({
    SIGNING_KEY: signingPem,
    LOG_ORIGIN: ORIGIN,
    WITNESSES: list.join(','),
    ...extra,
  });
}

async function issueAndSeal(ctx: TestContext, count = 1): Promise<string> {
  let id = '';
  for (let i = 0; i < count; i++) {
    id = (await ctx.app.services.receipts.issueCi('tenant-a', ciRequest())).record.id;
  }
  await ctx.app.services.anchoring.sealAll();
  return id;
}

/** The cosignature lines of the served checkpoint that verify for `w` (checked here, by hand). */
async function cosignedBy(ctx: TestContext, w: TestWitness): Promise<boolean> {
  const note = (await ctx.app.inject({ url: '/log/checkpoint' })).body;
  const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: w.publicKey.toString('base64url') },
    format: 'jwk',
  });
  return note.split('\n').some((line) => {
    const m = /^\u2014 (\S+) (\S+)$/u.exec(line);
    if (!m || m[1] !== w.name) return false;
    const blob = Buffer.from(m[2] as string, 'base64');
    const time = blob.readBigUInt64BE(4);
    const message = Buffer.from(`cosignature/v1\ntime ${time}\n${text}`);
    return verify(null, message, key, blob.subarray(12));
  });
}

describe('witnesses', () => {
  let ctx: TestContext;
  let w1: TestWitness;
  let w2: TestWitness;
  let w3port: number;
  let w3: TestWitness | undefined;
  beforeAll(async () => {
    w1 = await witness('witness.test/w1');
    w2 = await witness('witness.test/w2');
    w3port = await freePort();
    const w3vkey = (await witness('witness.test/w3', 'normal', w3port)).vkey;
    await witnesses.pop()?.stop(); // w3 is down until the lag test starts it
    ctx = await context(
      [`${w1.vkey}@${w1.url}`, `${w2.vkey}@${w2.url}`, `${w3vkey}@http://127.0.0.1:${w3port}`],
      { WITNESS_QUORUM: '2' },
    );
  });
  afterAll(async () => ctx.close());

  it('cosign each new checkpoint; the served note carries their lines and still opens with the log key', async () => {
    const id = await issueAndSeal(ctx, 3);
    const outcomes = await ctx.app.services.anchoring.cosignLatest();
    expect(
      outcomes
        .filter((o) => o.ok)
        .map((o) => o.witness)
        .sort(),
    ).toEqual([w1.name, w2.name]);
    expect(outcomes.find((o) => o.witness === 'witness.test/w3')).toMatchObject({ ok: false });
    expect(await cosignedBy(ctx, w1)).toBe(true);
    expect(await cosignedBy(ctx, w2)).toBe(true);
    const note = (await ctx.app.inject({ url: '/log/checkpoint' })).body;
    expect(openNote(note, parseVerifierKey(logVkey)!).ok).toBe(true);
    const key = await ctx.apiKey(['anchor']);
    const state = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/anchor/${id}`,
      headers: { 'x-api-key': key },
    });
    expect(state.json()).toMatchObject({ status: 'ANCHORED', treeSize: 3, witnessed: true });
    expect(state.json().checkpoint).toBe(note);

    // a monitor that requires the witnesses' cosignatures
    const prefix = `${await listenLocally(ctx.app)}/log`;
    const monitor = async (...witnessKeys: string[]) => {
      const out: string[] = [];
      const args = ['log', 'verify', '--url', prefix, '--vkey', logVkey];
      for (const k of witnessKeys) args.push('--witness', k);
      const code = await runCli(args, { out: (l) => out.push(l), err: (l) => out.push(l) }, {});
      return { code, out: out.join('\n') };
    };
    const both = await monitor(w1.vkey, w2.vkey);
    expect(both.code, both.out).toBe(0);
    expect(both.out).toContain(`PASS  cosigned by ${w1.name}, ${w2.name}`);
    const w3vkey = ctx.config.witnesses.list[2]?.vkey as string;
    const missing = await monitor(w1.vkey, w3vkey);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('no valid cosignature by witness witness.test/w3');
  });

  it('a witness that was down cosigns the latest checkpoint once it is back', async () => {
    w3 = await witness('witness.test/w3', 'normal', w3port);
    const outcomes = await ctx.app.services.anchoring.cosignLatest();
    expect(outcomes).toEqual([expect.objectContaining({ witness: w3.name, ok: true })]);
    expect(await cosignedBy(ctx, w3)).toBe(true);
  });

  it('a witness at another size than recorded (409) is caught up with a proof from its size', async () => {
    await ctx.db.knex('witness_state').delete(); // the log forgot what the witnesses hold
    await issueAndSeal(ctx, 2);
    const outcomes = await ctx.app.services.anchoring.cosignLatest();
    expect(outcomes.map((o) => [o.witness, o.ok])).toEqual([
      [w1.name, true],
      [w2.name, true],
      [w3?.name, true],
    ]);
    const sizes = await ctx.db.knex('witness_state').orderBy('witness');
    expect(sizes.map((r) => Number(r.tree_size))).toEqual([5, 5, 5]);
  });

  it('refuse a rewritten log, and the checkpoint is not witnessed', async () => {
    await rewriteLogInReverse(ctx.db.knex);
    const id = await issueAndSeal(ctx);
    const outcomes = await ctx.app.services.anchoring.cosignLatest();
    expect(outcomes.every((o) => !o.ok && o.detail.startsWith('HTTP 422'))).toBe(true);
    const key = await ctx.apiKey(['anchor']);
    const state = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/anchor/${id}`,
      headers: { 'x-api-key': key },
    });
    expect(state.json()).toMatchObject({ treeSize: 6, witnessed: false });
  });
});

describe('misbehaving witnesses', () => {
  it('are ignored and count against the quorum; issuance is not affected', async () => {
    const good = await witness('witness.test/good');
    const bad = await Promise.all(
      (['refuse', 'garbage', 'slow', 'wrong-key'] as const).map((mode) =>
        witness(`witness.test/${mode}`, mode),
      ),
    );
    const ctx = await context(
      [good, ...bad].map((w) => `${w.vkey}@${w.url}`),
      { WITNESS_QUORUM: '2', WITNESS_TIMEOUT_MS: '500' },
    );
    try {
      const id = await issueAndSeal(ctx, 2);
      let cosigned = false;
      const cosigning = ctx.app.services.anchoring.cosignLatest().finally(() => (cosigned = true));
      // the slow witness holds cosigning for 500 ms; a receipt is issued meanwhile
      await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
      expect(cosigned).toBe(false);
      const outcomes = await cosigning;
      const byName = Object.fromEntries(outcomes.map((o) => [o.witness, o]));
      expect(byName['witness.test/good']).toMatchObject({ ok: true });
      expect(byName['witness.test/refuse']).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/^HTTP 403/),
      });
      expect(byName['witness.test/garbage']).toMatchObject({
        ok: false,
        detail: 'no valid cosignature by its key',
      });
      expect(byName['witness.test/slow']).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/timeout|aborted/i),
      });
      expect(byName['witness.test/wrong-key']).toMatchObject({
        ok: false,
        detail: 'no valid cosignature by its key',
      });
      const key = await ctx.apiKey(['anchor', 'read']);
      const state = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/anchor/${id}`,
        headers: { 'x-api-key': key },
      });
      expect(state.json()).toMatchObject({ status: 'ANCHORED', witnessed: false });
      const note = (await ctx.app.inject({ url: '/log/checkpoint' })).body;
      expect(note.match(/\u2014 /g)).toHaveLength(2); // the log's line and the good witness's
    } finally {
      await ctx.close();
    }
  });

  it('WITNESSES must be <vkey>@<url> with an Ed25519 cosigner key', async () => {
    await expect(context(['nonsense'])).rejects.toThrow(/WITNESSES/);
    await expect(context([`${logVkey}@http://127.0.0.1:1`])).rejects.toThrow(/type 0x04/);
    const w = await witness('witness.test/one');
    await expect(context([`${w.vkey}@${w.url}`], { WITNESS_QUORUM: '2' })).rejects.toThrow(
      /WITNESS_QUORUM/,
    );
  });

  it('a slow witness does not delay the next seal; its cosignature is stored when it arrives', async () => {
    // the slow witness answers after 5 s; the sealer seals every 250 ms (the quiet-log interval
    // is far off, so every round here follows a seal)
    const slow = await witness('witness.test/overlap', 'slow');
    const ctx = await context([`${slow.vkey}@${slow.url}`], {
      ANCHOR_INTERVAL_MS: '60000',
      WITNESS_TIMEOUT_MS: '20000',
    });
    const size = async () => (await ctx.repos.log.latestCheckpoint())?.treeSize ?? 0;
    const within = async (ms: number, what: () => Promise<boolean>) => {
      const end = Date.now() + ms;
      while (!(await what()) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      return what();
    };
    try {
      await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
      expect(await within(2_000, async () => (await size()) >= 1)).toBe(true);
      const firstSealed = Date.now();
      // the witness round of that checkpoint now waits for the slow witness; seals go on
      await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
      expect(await within(2_000, async () => (await size()) >= 2)).toBe(true);
      expect(Date.now() - firstSealed).toBeLessThan(4_000);
      expect(await cosignedBy(ctx, slow)).toBe(false);
      // the first round's cosignature (size 1) arrives, then one more round for the latest
      expect(await within(15_000, async () => (await size()) === 2 && cosignedBy(ctx, slow))).toBe(
        true,
      );
      // the size-1 cosignature was stored when it arrived, before the round for size 2
      const stored = (await ctx.db.knex('log_cosignatures').select('tree_size')) as {
        tree_size: string | number;
      }[];
      expect(stored.map((r) => Number(r.tree_size)).sort()).toEqual([1, 2]);
    } finally {
      await ctx.close();
    }
  }, 40_000);
});
