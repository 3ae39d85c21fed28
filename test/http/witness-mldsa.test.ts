import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '@verification-receipts/verify';
import { formatVerifierKey, parseLogPolicy } from '@verification-receipts/verify/log';
import { createTestContext, ed25519Pem, type TestContext } from '../helpers/context.js';
import { startWitness, type TestWitness } from '../helpers/witness.js';
import { ciRequest } from './hostile/requests.js';

/**
 * ML-DSA-44 witness cosignatures (c2sp.org/tlog-cosignature, type 0x06) end to end: a witness
 * signing with OpenSSL's ML-DSA (test/helpers/mldsa-witness.py) beside an Ed25519 one; the log
 * keeps and serves both lines, its tlog-policy names both keys, and the verifier package counts
 * both toward a quorum of two, and not a corrupted or missing one.
 */

const ORIGIN = 'witness.test/pq-log';
const signingPem = ed25519Pem();
const logKey = Buffer.from(
  createPublicKey(signingPem).export({ format: 'jwk' }).x as string,
  'base64url',
);
const logVkey = formatVerifierKey(ORIGIN, new Uint8Array(logKey));
const started: TestWitness[] = [];
afterAll(async () => Promise.all(started.map((w) => w.stop())));

async function witness(name: string, options: { mlDsa?: boolean; mode?: 'corrupt' } = {}) {
  const seed = Buffer.from(name.padEnd(32, '.').slice(0, 32)).toString('hex');
  const w = await startWitness({ name, seed, logVkey, ...options });
  started.push(w);
  return w;
}

interface Bundle {
  logEntry: { checkpoint: string };
}

/** A copy of `bundle` whose checkpoint note is changed by `edit` (one line at a time). */
function withNote(bundle: Bundle, edit: (line: string) => string | undefined) {
  const note = bundle.logEntry.checkpoint;
  const blank = note.lastIndexOf('\n\n');
  const lines = note.slice(blank + 2, -1).split('\n');
  const edited = lines.map(edit).filter((l): l is string => l !== undefined);
  const checkpoint = `${note.slice(0, blank + 2)}${edited.join('\n')}\n`;
  return { ...bundle, logEntry: { ...bundle.logEntry, checkpoint } };
}

function flipSignatureBit(line: string): string {
  const [dash, name, b64] = line.split(' ');
  const blob = Buffer.from(b64 as string, 'base64');
  blob.writeUInt8((blob.at(-500) as number) ^ 0x01, blob.length - 500);
  return `${dash} ${name} ${blob.toString('base64')}`;
}

describe('an ML-DSA-44 witness beside an Ed25519 one', () => {
  let ctx: TestContext;
  let ed: TestWitness;
  let pq: TestWitness;
  let bundle: Bundle;
  let policy: string;
  beforeAll(async () => {
    ed = await witness('witness.test/ed');
    pq = await witness('witness.test/pq', { mlDsa: true });
    ctx = await createTestContext({
      SIGNING_KEY: signingPem,
      LOG_ORIGIN: ORIGIN,
      WITNESSES: [`${ed.vkey}@${ed.url}`, `${pq.vkey}@${pq.url}`].join(','),
      WITNESS_QUORUM: '2',
    });
    const id = (await ctx.app.services.receipts.issueCi('tenant-a', ciRequest())).record.id;
    await ctx.app.services.anchoring.sealAll();
    const outcomes = await ctx.app.services.anchoring.cosignLatest();
    expect(outcomes.map((o) => [o.witness, o.ok, o.detail])).toEqual([
      [ed.name, true, 'cosigned size 1'],
      [pq.name, true, 'cosigned size 1'],
    ]);
    const key = await ctx.apiKey(['read']);
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode, res.body).toBe(200);
    bundle = res.json();
    policy = (await ctx.app.inject({ url: '/log/policy' })).body;
  }, 30_000);
  afterAll(async () => ctx.close());

  const verify = (b: unknown) => {
    const parsed = parseLogPolicy(policy);
    if (!parsed.ok) throw new Error(parsed.reason);
    const verdict = verifyBundle(b, { trust: { log: parsed.log }, acceptUnknownStatus: true });
    return verdict.steps.find((s) => s.id === 'witnesses');
  };

  it('the served checkpoint carries a 2420-byte ML-DSA cosignature and the policy names its key', () => {
    const note = bundle.logEntry.checkpoint;
    const pqLine = note.split('\n').find((l) => l.startsWith(`\u2014 ${pq.name} `)) as string;
    expect(Buffer.from(pqLine.split(' ')[2] as string, 'base64').length).toBe(4 + 8 + 2420);
    expect(policy).toContain(`witness ${pq.name} ${pq.vkey}\n`);
    expect(policy).toContain(`witness ${ed.name} ${ed.vkey}\n`);
    expect(policy).toContain(`group witnesses 2 ${ed.name} ${pq.name}\n`);
  });

  it('meets a quorum of two with one Ed25519 and one ML-DSA cosignature', () => {
    expect(verify(bundle)).toMatchObject({
      status: 'PASS',
      detail: `cosigned by 2 of 2 pinned witnesses (quorum 2): ${ed.name}, ${pq.name}`,
    });
  });

  it('a corrupt ML-DSA cosignature does not count: the quorum fails', () => {
    const corrupt = withNote(bundle, (l) =>
      l.startsWith(`\u2014 ${pq.name} `) ? flipSignatureBit(l) : l,
    );
    expect(verify(corrupt)).toMatchObject({
      status: 'FAIL',
      detail: `invalid cosignature by ${pq.name}`,
    });
  });

  it('without the ML-DSA cosignature the Ed25519 one alone is short of the quorum', () => {
    const missing = withNote(bundle, (l) => (l.startsWith(`\u2014 ${pq.name} `) ? undefined : l));
    expect(verify(missing)).toMatchObject({
      status: 'FAIL',
      detail: 'cosigned by 1 pinned witnesses, the policy needs 2',
    });
  });
});

describe('an ML-DSA witness that answers a corrupt cosignature', () => {
  it('is refused by the log: nothing is stored and the checkpoint is not witnessed', async () => {
    const bad = await witness('witness.test/pq-corrupt', { mlDsa: true, mode: 'corrupt' });
    const ctx = await createTestContext({
      SIGNING_KEY: signingPem,
      LOG_ORIGIN: ORIGIN,
      WITNESSES: `${bad.vkey}@${bad.url}`,
    });
    try {
      await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
      await ctx.app.services.anchoring.sealAll();
      const outcomes = await ctx.app.services.anchoring.cosignLatest();
      expect(outcomes).toEqual([
        { witness: bad.name, ok: false, detail: 'no valid cosignature by its key' },
      ]);
      const rows = await ctx.db.knex('log_cosignatures').select('witness');
      expect(rows).toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 30_000);
});
