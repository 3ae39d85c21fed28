import fs from 'node:fs';
import path from 'node:path';
import { main } from '@verification-receipts/verify/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointTimestamper, type TimestampOutcome } from '../../src/timestamping/index.js';
import { trustedTsaCertificates } from '../../src/timestamping/index.js';
import { RESTING, signatureTimestamper } from '../../src/timestamping/signature-timestamper.js';
import { createTestContext, tempDir, type TestContext } from '../helpers/context.js';
import { run, signatureOf, unsignedTimestampOf } from '../helpers/pades.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';
import { startTsa, type TestTsa } from '../helpers/tsa.js';

/**
 * RFC 3161 time on the log and on PDF signatures, against a real authority: `openssl ts -reply`
 * behind HTTP with its own test CA. Every token kept is checked again with `openssl ts -verify`.
 */

let dir: string;
let tsa: TestTsa;
let ctx: TestContext;
let key: string;
let notary: Notary;

beforeAll(async () => {
  dir = tempDir('tsa-');
  tsa = await startTsa(path.join(dir, 'tsa'));
  ctx = await createTestContext({
    PUBLIC_URL: 'https://receipts.example.com',
    TSA_URLS: tsa.url,
    TSA_CERT_FILES: tsa.caFile,
    TSA_TIMEOUT_MS: '5000',
  });
  key = await ctx.apiKey(['verify', 'read']);
  notary = await registerNotary(ctx.repos);
});
afterAll(async () => {
  await ctx.close();
  await tsa.close();
});

async function issue(app = ctx.app, apiKey = key): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': apiKey },
    payload: validRequest(notary) as object,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().receiptId as string;
}

function write(name: string, bytes: Buffer | string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

function tsVerify(dataFile: string, tokenFile: string, tokenIn = true, caFile = tsa.caFile) {
  return run('openssl', [
    'ts',
    '-verify',
    '-data',
    dataFile,
    '-in',
    tokenFile,
    ...(tokenIn ? ['-token_in'] : []),
    '-CAfile',
    caFile,
  ]);
}

describe('RFC 3161 tokens over checkpoints', () => {
  it('stamps every new checkpoint; openssl ts -verify accepts the token over the exact note', async () => {
    await issue();
    const { treeSize } = await ctx.app.services.anchoring.sealAll();
    await ctx.app.services.timestamping?.checkpoints.idle();
    const note = (await ctx.app.inject({ url: '/log/checkpoint' })).body;
    expect((await ctx.repos.log.latestCheckpoint())?.note).toBe(note);

    const res = await ctx.app.inject({ url: `/log/timestamps/${treeSize}` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      treeSize: number;
      timestamps: { tsa: string; genTime: string; token: string }[];
    };
    expect(body.treeSize).toBe(treeSize);
    expect(body.timestamps).toHaveLength(1);
    expect(body.timestamps[0]?.tsa).toBe('Test TSA');
    const token = Buffer.from(body.timestamps[0]?.token ?? '', 'base64');
    const noteFile = write('note.txt', note);
    const ok = tsVerify(noteFile, write('token.der', token));
    expect(ok.out).toContain('Verification: OK');

    // the same token as a TimeStampResp for clients that ask for RFC 3161's media type
    const reply = await ctx.app.inject({
      url: `/log/timestamps/${treeSize}`,
      headers: { accept: 'application/timestamp-reply' },
    });
    expect(reply.headers['content-type']).toBe('application/timestamp-reply');
    const replyFile = write('reply.tsr', reply.rawPayload);
    expect(tsVerify(noteFile, replyFile, false).out).toContain('Verification: OK');
    expect(run('openssl', ['ts', '-reply', '-in', replyFile, '-text']).out).toContain(
      'Status: Granted.',
    );

    // other data: openssl refuses the token (the check is not vacuous)
    expect(tsVerify(write('other.txt', `${note}x`), write('token2.der', token)).out).not.toContain(
      'Verification: OK',
    );
  });

  it('carries the tokens in the bundle of a receipt in that checkpoint', async () => {
    const id = await issue();
    await ctx.app.services.anchoring.sealAll();
    await ctx.app.services.timestamping?.checkpoints.idle();
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': key },
    });
    const bundle = res.json() as { logEntry: { checkpoint: string; timestamps?: string[] } };
    expect(bundle.logEntry.timestamps).toHaveLength(1);
    const token = Buffer.from(bundle.logEntry.timestamps?.[0] ?? '', 'base64');
    expect(
      tsVerify(write('b-note.txt', bundle.logEntry.checkpoint), write('b-token.der', token)).out,
    ).toContain('Verification: OK');
  });

  it('answers 404 for a size without tokens and 400 for a malformed size', async () => {
    expect((await ctx.app.inject({ url: '/log/timestamps/999999' })).statusCode).toBe(404);
    const bad = await ctx.app.inject({ url: '/log/timestamps/abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_failed');
  });
});

describe('receipt-verify --tsa-cert', () => {
  async function verify(file: string, ...extra: string[]) {
    const out: string[] = [];
    const jwks = write('jwks.json', (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
    const code = await main([file, '--jwks', jwks, ...extra], {
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    return { code, text: out.join('\n') };
  }

  type Stamped = { logEntry: { checkpoint: string; timestamps?: string[] } };

  async function stampedBundle(): Promise<Stamped> {
    const id = await issue();
    await ctx.app.services.anchoring.sealAll();
    await ctx.app.services.timestamping?.checkpoints.idle();
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/bundle`,
      headers: { 'x-api-key': key },
    });
    return res.json();
  }

  it('reports the earliest independent time from a pinned TSA, and fails a token over another checkpoint', async () => {
    const bundle = await stampedBundle();
    const file = write('stamped.json', JSON.stringify(bundle));
    const pinned = await verify(file, '--tsa-cert', tsa.caFile, '--offline');
    expect(pinned.text).toMatch(/timestamps.*the receipt existed by \d{4}-\d\d-\d\dT.*Test TSA/);
    expect(pinned.code).toBe(0);

    const unpinned = await verify(file);
    expect(unpinned.text).toMatch(/not checked: pin the authority's certificate/);

    // a token of an earlier checkpoint moved into this bundle: not over its checkpoint
    const other = await stampedBundle();
    const swapped = structuredClone(bundle);
    swapped.logEntry.timestamps = [
      other.logEntry.timestamps?.[0] ?? '',
      bundle.logEntry.timestamps?.[0] ?? '',
    ];
    const bad = await verify(
      write('swapped.json', JSON.stringify(swapped)),
      '--tsa-cert',
      tsa.caFile,
    );
    expect(bad.text).toMatch(/time-stamp token 1 does not match its checkpoint: .*imprint/);
    expect(bad.code).toBe(1);
  });

  it('refuses a token whose authority is not the pinned one', async () => {
    const bundle = await stampedBundle();
    const stranger = await startTsa(path.join(dir, 'stranger'));
    await stranger.close();
    const res = await verify(
      write('stranger.json', JSON.stringify(bundle)),
      '--tsa-cert',
      stranger.caFile,
    );
    expect(res.text).toMatch(/not pinned/);
    expect(res.code).toBe(1);
  });
});

describe('PDF signatures with a TSA (PAdES B-T)', () => {
  it('the signature carries a signature time-stamp token over its value that openssl ts -verify accepts', async () => {
    const id = await issue();
    const res = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/pdf`,
      headers: { 'x-api-key': key },
    });
    const { cms } = signatureOf(res.rawPayload);
    const { signature, token } = unsignedTimestampOf(cms);
    const ok = tsVerify(write('sigvalue.bin', signature), write('sig-token.der', token));
    expect(ok.out).toContain('Verification: OK');
    const wrong = tsVerify(
      write('sigvalue2.bin', Buffer.concat([signature, Buffer.from([0])])),
      write('sig-token2.der', token),
    );
    expect(wrong.out).not.toContain('Verification: OK');
  });
});

describe('a TSA that fails', () => {
  async function attempt(
    mode: TestTsa['mode'],
    options: { timeoutMs?: number; trust?: string } = {},
  ) {
    const bad = await startTsa(
      path.join(dir, `tsa-${mode}-${Math.random().toString(36).slice(2)}`),
      mode,
    );
    const outcomes: TimestampOutcome[] = [];
    const timestamper = new CheckpointTimestamper({
      tsas: [
        {
          url: bad.url,
          trusted: trustedTsaCertificates([options.trust ?? bad.caFile]),
          timeoutMs: options.timeoutMs ?? 5000,
        },
      ],
      store: ctx.repos.checkpointTimestamps,
      retry: { attempts: 3, initialMs: 20, factor: 1, maxMs: 20, jitter: 0 },
    });
    timestamper.onOutcome((o) => outcomes.push(o));
    const treeSize = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    timestamper.onSealed({ treeSize, note: `example.com/log\n${treeSize}\nAAAA\n\n— x y\n` });
    await timestamper.idle();
    await bad.close();
    return { outcomes, stored: await ctx.repos.checkpointTimestamps.timestampsAt(treeSize), bad };
  }

  it.each([
    ['garbage', /not a TimeStampResp/],
    ['wrong-imprint', /message imprint mismatch/],
    ['refuse', /HTTP 503/],
  ] as const)('answering %s: retried, reported, never stored', async (mode, reason) => {
    const { outcomes, stored, bad } = await attempt(mode);
    expect(bad.requests).toBe(3);
    expect(outcomes.map((o) => o.ok)).toEqual([false, false, false]);
    expect(outcomes.at(-1)?.final).toBe(true);
    expect(outcomes[0]?.detail).toMatch(reason);
    expect(stored).toEqual([]);
  });

  it('slow: each attempt ends at the timeout, nothing stored', async () => {
    const { outcomes, stored } = await attempt('slow', { timeoutMs: 200 });
    expect(outcomes[0]?.detail).toMatch(/no answer within 200 ms/);
    expect(stored).toEqual([]);
  });

  it('signed by a TSA whose CA is not pinned: refused, never stored', async () => {
    const other = await startTsa(path.join(dir, 'other-ca'));
    await other.close();
    const { outcomes, stored } = await attempt('ok', { trust: other.caFile });
    expect(outcomes[0]?.detail).toMatch(/not pinned/);
    expect(stored).toEqual([]);
  });

  it('for PDF signatures, an authority that failed rests (30 s, doubling) before it is asked again', async () => {
    const flaky = await startTsa(path.join(dir, 'resting'), 'refuse');
    let clock = 1_000_000;
    const stamper = signatureTimestamper(
      [{ url: flaky.url, trusted: trustedTsaCertificates([flaky.caFile]), timeoutMs: 5000 }],
      () => {},
      () => clock,
    );
    const value = Buffer.from('signature value');
    try {
      expect(await stamper.stamp(value)).toBeUndefined();
      expect(await stamper.stamp(value)).toBeUndefined(); // resting: not asked, B-B at once
      expect(flaky.requests).toBe(1);
      clock += RESTING.initialMs + 1;
      expect(await stamper.stamp(value)).toBeUndefined();
      expect(flaky.requests).toBe(2);
      clock += RESTING.initialMs + 1; // the second back-off is twice as long
      expect(await stamper.stamp(value)).toBeUndefined();
      expect(flaky.requests).toBe(2);
      clock += RESTING.initialMs;
      flaky.mode = 'ok'; // back: the next download after the back-off gets B-T
      expect(await stamper.stamp(value)).toBeInstanceOf(Buffer);
      expect(await stamper.stamp(value)).toBeInstanceOf(Buffer); // a success resets the rest
      expect(flaky.requests).toBe(4);
    } finally {
      await flaky.close();
    }
  });

  it('down: issuance and sealing go on, nothing stored', async () => {
    const down = await startTsa(path.join(dir, 'down'));
    await down.close(); // nothing listens on its port any more
    const app = await createTestContext({
      TSA_URLS: down.url,
      TSA_CERT_FILES: down.caFile,
      TSA_TIMEOUT_MS: '500',
    });
    try {
      const id = await issue(app.app, await app.apiKey(['verify', 'read']));
      const { treeSize } = await app.app.services.anchoring.sealAll();
      expect(treeSize).toBeGreaterThan(0);
      const pdf = await app.app.inject({
        url: `/api/v1/receipt/${id}/pdf`,
        headers: { 'x-api-key': await app.apiKey(['read']) },
      });
      expect(pdf.statusCode).toBe(200); // B-B, not kept: made again once the TSA answers
      expect(await app.repos.receiptPdfs.get(id, 'anchored')).toBeUndefined();
      expect(await app.repos.checkpointTimestamps.timestampsAt(treeSize)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
