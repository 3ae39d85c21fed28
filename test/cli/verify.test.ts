import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../helpers/cli.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import {
  createTestContext,
  ed25519Pem,
  listenLocally,
  tempDir,
  type TestContext,
} from '../helpers/context.js';
import { samplePdf } from '../helpers/requests.js';
import { registerNotary, validRequest, type Notary } from '../helpers/ron.js';

/**
 * `receipts verify`: issue -> bundle or PDF -> verify, offline, with pinned keys; tampering
 * named by step; unreadable input; --online against a listening service.
 */

/** The parts of a bundle these tests change. */
interface BundleJson {
  receipt: { decision: string; receiptSignature: { signature: string } };
  logEntry: { checkpoint: string; logIndex: number };
  verificationMaterial: { publicKey: { kid: string } };
}

let ctx: TestContext;
let key: string;
let notary: Notary;
let baseUrl: string;
const dir = tempDir('receipts-verify-');
const issuerPem = ed25519Pem();
let jwksFile: string;

beforeAll(async () => {
  ctx = await createTestContext();
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  notary = await registerNotary(ctx.repos);
  await registerIssuer(ctx.repos, issuerPem);
  baseUrl = await listenLocally(ctx.app);
  jwksFile = write('jwks.json', (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
});
afterAll(async () => ctx.close());

function write(name: string, data: string | Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}

const verify = (...argv: string[]) => runCaptured(['verify', ...argv]);

async function issueAnchored(): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary),
  });
  expect(res.statusCode, res.body).toBe(200);
  await ctx.app.services.anchoring.sealAll();
  return res.json().receiptId;
}

async function bundleOf(id: string): Promise<BundleJson> {
  return (
    await ctx.app.inject({ url: `/api/v1/receipt/${id}/bundle`, headers: { 'x-api-key': key } })
  ).json();
}

describe('receipts verify', () => {
  it('verifies a bundle offline with pinned keys: every step PASS, exit 0', async () => {
    const file = write('ok.json', JSON.stringify(await bundleOf(await issueAnchored())));
    const res = await verify(file, '--jwks', jwksFile);
    expect(res.code, res.out + res.err).toBe(0);
    expect(res.out).toMatch(/VERIFIED$/);
    for (const step of [
      'format',
      'canonical-form',
      'receipt-hash',
      'key-id',
      'key-trust',
      'signature',
      'log-inclusion',
      'checkpoint',
    ]) {
      expect(res.out).toMatch(new RegExp(`^PASS  ${step} `, 'm'));
    }
    // unpinned: still verified, and says where the key came from
    const unpinned = await verify(file);
    expect(unpinned.code).toBe(0);
    expect(unpinned.out).toMatch(
      /^WARN {2}key-trust +the key came from the bundle itself and was not pinned/m,
    );
  });

  it('verifies the PDF receipt through its attached bundle, and --json gives one object', async () => {
    const id = await issueAnchored();
    const pdf = await ctx.app.inject({
      url: `/api/v1/receipt/${id}/pdf`,
      headers: { 'x-api-key': key },
    });
    const file = write('receipt.pdf', pdf.rawPayload);
    const res = await verify(file, '--jwks', jwksFile, '--json');
    expect(res.code, res.out).toBe(0);
    const report = JSON.parse(res.out);
    expect(report).toMatchObject({ verified: true, unreadable: false, receipt: { receiptId: id } });
    expect(report.trust).toContain('JWKS');
  });

  it('names the failing step of each tampering, exit 1', async () => {
    const good = await bundleOf(await issueAnchored());
    const cases: [string, (b: BundleJson) => void][] = [
      [
        'canonical-form',
        (b) => (b.receipt.decision = b.receipt.decision === 'ALLOW' ? 'BLOCK' : 'ALLOW'),
      ],
      [
        'signature',
        (b) =>
          (b.receipt.receiptSignature.signature = b.receipt.receiptSignature.signature.replace(
            /^./,
            (c: string) => (c === 'A' ? 'B' : 'A'),
          )),
      ],
      [
        'checkpoint',
        (b) =>
          (b.logEntry.checkpoint = b.logEntry.checkpoint.replace(
            /\n(\d+)\n/,
            (_: string, n: string) => `\n${Number(n) + 1}\n`,
          )),
      ],
      ['key-id', (b) => (b.verificationMaterial.publicKey.kid = 'x')],
      ['log-inclusion', (b) => (b.logEntry.logIndex = b.logEntry.logIndex + 1)],
    ];
    for (const [step, mutate] of cases) {
      const b = structuredClone(good);
      mutate(b);
      const res = await verify(write(`${step}.json`, JSON.stringify(b)), '--jwks', jwksFile);
      expect(res.code, `${step}: ${res.out}`).toBe(1);
      expect(res.out).toContain(`NOT VERIFIED: failed at step ${step}`);
    }
  });

  it('exit 2 for unreadable input and bad usage', async () => {
    const good = JSON.stringify(await bundleOf(await issueAnchored()));
    const inputs = {
      'truncated.json': good.slice(0, good.length / 2),
      'not-json.txt': 'hello',
      'future.json': good.replace('version=1', 'version=2'),
      'plain.pdf': samplePdf(),
    };
    for (const [name, data] of Object.entries(inputs)) {
      const res = await verify(write(name, data));
      expect(res.code, name).toBe(2);
      expect(res.out, name).toContain('UNREADABLE');
    }
    expect((await verify(write('plain2.pdf', samplePdf()))).out).toContain(
      'no receipt-bundle.json attachment',
    );
    expect((await verify()).code).toBe(2);
    expect((await verify('a', 'b')).code).toBe(2);
    expect((await verify(path.join(dir, 'missing.json'))).code).toBe(2);
    expect((await verify(write('x.json', good), '--bogus')).code).toBe(2);
  });

  it('--online: checks the signed public status and that the log only grew; revoked is exit 1', async () => {
    const id = await issueAnchored();
    const file = write('online.json', JSON.stringify(await bundleOf(id)));
    await issueAnchored(); // the log grows past the bundle's checkpoint
    const active = await verify(file, '--jwks', jwksFile, '--online', baseUrl);
    expect(active.code, active.out).toBe(0);
    expect(active.out).toMatch(/^PASS {2}status-signature /m);
    expect(active.out).toMatch(/^PASS {2}status +active/m);
    expect(active.out).toMatch(
      /^PASS {2}log-consistency +the log grew from \d+ to \d+ consistently/m,
    );

    const revoked = await revokeVia(ctx.app, key, id, issuerPem);
    expect(revoked.statusCode).toBe(200);
    const after = await verify(file, '--jwks', jwksFile, '--online', baseUrl);
    expect(after.code).toBe(1);
    expect(after.out).toMatch(/^FAIL {2}status +revoked at .* by issuer escrow-co/m);
    expect(after.out).toContain('NOT VERIFIED: failed at step status');
  });
});
