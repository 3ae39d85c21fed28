import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs';
import canonicalize from 'canonicalize';
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
import { jwkThumbprint } from '../../packages/verify/src/primitives.js';
import { samplePdf } from '../helpers/requests.js';
import { issueSealed, registerNotary, type Decision, type Notary } from '../helpers/ron.js';

/**
 * `receipts verify` (the verifier package's command): issue -> bundle or PDF -> verify, offline,
 * with pinned keys; nothing verified without a trust root; tampering named by step; the
 * decision and the current status in the exit code; the document itself; --online against a
 * listening service.
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

const DEED = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/sample-deed.pdf'));

async function issueAnchored(decision: Decision = 'ALLOW'): Promise<string> {
  return (await issueSealed(ctx, key, notary, decision, DEED)).receiptId;
}

async function bundleOf(id: string): Promise<BundleJson> {
  return (
    await ctx.app.inject({ url: `/api/v1/receipt/${id}/bundle`, headers: { 'x-api-key': key } })
  ).json();
}

async function pdfOf(id: string): Promise<Buffer> {
  const res = await ctx.app.inject({
    url: `/api/v1/receipt/${id}/pdf`,
    headers: { 'x-api-key': key },
  });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** The bundle rewritten to ALLOW and re-signed, consistently, with a key of the forger's own. */
function forge(bundle: BundleJson): BundleJson {
  const forged = structuredClone(bundle) as BundleJson & { canonicalReceipt: string };
  const receipt = forged.receipt as unknown as Record<string, unknown>;
  receipt.decision = 'ALLOW';
  receipt.reasons = [];
  const unsigned = { ...receipt };
  delete unsigned.receiptHash;
  delete unsigned.receiptSignature;
  forged.canonicalReceipt = canonicalize(unsigned) as string;
  receipt.receiptHash = `sha256:${createHash('sha256').update(forged.canonicalReceipt).digest('hex')}`;
  const other = generateKeyPairSync('ed25519');
  const x = String(other.publicKey.export({ format: 'jwk' }).x);
  const kid = jwkThumbprint(new Uint8Array(Buffer.from(x, 'base64url')));
  Object.assign(forged.verificationMaterial.publicKey, { x, kid });
  const signature = sign(null, Buffer.from(forged.canonicalReceipt), other.privateKey);
  receipt.receiptSignature = { alg: 'EdDSA', kid, signature: signature.toString('base64url') };
  delete (forged as { logEntry?: unknown }).logEntry;
  return forged;
}

describe('receipts verify', () => {
  it('verifies a bundle offline with pinned keys: every step PASS, exit 3 (status unknown) unless --offline accepts it', async () => {
    const file = write('ok.json', JSON.stringify(await bundleOf(await issueAnchored())));
    const unknown = await verify(file, '--jwks', jwksFile);
    expect(unknown.code, unknown.out + unknown.err).toBe(3);
    expect(unknown.out).toMatch(
      /^CAUTION: the receipt is genuine .*\n {2}authentic, decision ALLOW, but the current status/m,
    );
    const res = await verify(file, '--jwks', jwksFile, '--offline');
    expect(res.code, res.out + res.err).toBe(0);
    expect(res.out).toMatch(/^VERIFIED OFFLINE: genuine receipt, decision ALLOW: /m);
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
    expect(res.out).toMatch(/^current status: offline: no status was fetched/m);
  });

  it('verifies nothing without a trust root: a usage error (exit 2) naming what to pass', async () => {
    const file = write('unpinned.json', JSON.stringify(await bundleOf(await issueAnchored())));
    const res = await verify(file);
    expect(res.code).toBe(2);
    expect(res.out).toBe('');
    expect(res.err).toMatch(/^error: no trust root: pin the issuing service with --jwks/m);
  });

  it('refuses a bundle forged to ALLOW and re-signed with another key, whatever the trust root', async () => {
    const blocked = await bundleOf(await issueAnchored('BLOCK'));
    const file = write('forged.json', JSON.stringify(forge(blocked)));
    expect((await verify(file)).code).toBe(2);
    for (const trust of [
      ['--jwks', jwksFile],
      ['--online', baseUrl],
    ]) {
      const res = await verify(file, ...trust);
      expect(res.code, `${trust.join(' ')}: ${res.out}`).toBe(1);
      expect(res.out).toMatch(/^FAIL {2}key-trust /m);
      expect(res.out).toMatch(/^NOT VERIFIED/m);
    }
    const json = JSON.parse((await verify(file, '--online', baseUrl, '--json')).out);
    expect(json).toMatchObject({
      verdict: 'rejected',
      authentic: false,
      exitCode: 1,
      failedStep: 'key-trust',
    });
    // only an explicit, loud opt-out accepts it: integrity, not origin
    const insecure = await verify(file, '--insecure-ignore-trust', '--offline');
    expect(insecure.code).toBe(0);
    expect(insecure.out).toMatch(
      /^WARN {2}key-trust +Nothing you trust vouches for the key that signed this receipt: .*\n +TRUST IGNORED/m,
    );
    expect(insecure.out).toMatch(/^INSECURE \(trust ignored/m);
    expect(insecure.err).toContain('WARNING: --insecure-ignore-trust');
  });

  it('verifies the PDF receipt through its attached bundle, and --json gives the three facts', async () => {
    const id = await issueAnchored();
    const file = write('receipt.pdf', await pdfOf(id));
    const res = await verify(file, '--jwks', jwksFile, '--json');
    expect(res.code, res.out).toBe(3);
    const report = JSON.parse(res.out);
    expect(report).toMatchObject({
      verdict: 'caution',
      exitCode: 3,
      authentic: true,
      decision: { decision: 'ALLOW', status: 'clean', reasons: [] },
      currentStatus: { state: 'not-checked' },
      receipt: { receiptId: id },
    });
    expect(report.steps.find((s: { id: string }) => s.id === 'pdf-binding').status).toBe('PASS');
    expect(report.trust).toContain('JWKS');
  });

  it('--online pins the PDF certificate the service publishes at /.well-known/pdf-signing-cert.pem', async () => {
    const id = await issueAnchored();
    const file = write('online-receipt.pdf', await pdfOf(id));
    const report = JSON.parse((await verify(file, '--online', baseUrl, '--json')).out);
    const step = report.steps.find((s: { id: string }) => s.id === 'pdf-signature');
    expect(step.status, step.detail).toBe('PASS');
    expect(step.detail).toContain('the whole file is signed (PAdES) by the pinned certificate');
    expect(report.trust).toContain('1 pinned PDF certificate(s)');
  });

  it('exit 3 for an authentic BLOCK or FLAG receipt: authentic, but not acceptable', async () => {
    for (const decision of ['BLOCK', 'FLAG'] as const) {
      const file = write(
        `${decision}.json`,
        JSON.stringify(await bundleOf(await issueAnchored(decision))),
      );
      const res = await verify(file, '--jwks', jwksFile);
      expect(res.code, res.out).toBe(3);
      expect(res.out).toMatch(new RegExp(`^AUTHENTIC, DECISION ${decision}`, 'm'));
    }
  });

  it('--artifact: the document itself must be the one the receipt is about', async () => {
    const file = write('deed-receipt.json', JSON.stringify(await bundleOf(await issueAnchored())));
    const deed = path.resolve(import.meta.dirname, '../../docs/sample-deed.pdf');
    const ok = await verify(file, '--jwks', jwksFile, '--artifact', deed, '--offline');
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toMatch(
      /^PASS {2}artifact +the file's SHA-256 is the receipt's subject.docHash/m,
    );
    const other = await verify(
      file,
      '--jwks',
      jwksFile,
      '--artifact',
      write('other.pdf', samplePdf('another deed')),
    );
    expect(other.code).toBe(1);
    expect(other.out).toMatch(
      /^FAIL {2}artifact +The document you gave is not the one this receipt is about\.\n +the file's SHA-256 is sha256:[0-9a-f]{64}, the receipt is about/m,
    );
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
      expect(res.out).toMatch(new RegExp(`^NOT VERIFIED: .*\\.\\n {2}${step}: `, 'm'));
    }
  });

  it('exit 2 for unreadable input and bad usage, with one line on what to do', async () => {
    const good = JSON.stringify(await bundleOf(await issueAnchored()));
    const inputs = {
      'truncated.json': good.slice(0, good.length / 2),
      'not-json.txt': 'hello',
      'future.json': good.replace('version=1', 'version=2'),
      'plain.pdf': samplePdf(),
    };
    for (const [name, data] of Object.entries(inputs)) {
      const res = await verify(write(name, data), '--jwks', jwksFile);
      expect(res.code, name).toBe(2);
      expect(res.out, name).toContain('UNREADABLE');
    }
    expect((await verify(write('plain2.pdf', samplePdf()), '--jwks', jwksFile)).out).toContain(
      'no receipt-bundle.json attachment',
    );
    expect((await verify()).code).toBe(2);
    expect((await verify('a', 'b')).code).toBe(2);
    expect((await verify(path.join(dir, 'missing.json'))).code).toBe(2);
    const typo = await verify(write('x.json', good), '--jwsk', jwksFile);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('unknown option --jwsk: did you mean --jwks?');
    const plainHttp = await verify(write('y.json', good), '--jwks', 'http://example.com/jwks.json');
    expect(plainHttp.code).toBe(2);
    expect(plainHttp.err).toContain('only https URLs are fetched (http only to localhost)');
  });

  it('--online: pins the service keys, checks the signed status and that the log only grew; revoked is exit 3', async () => {
    const id = await issueAnchored();
    const file = write('online.json', JSON.stringify(await bundleOf(id)));
    await issueAnchored(); // the log grows past the bundle's checkpoint
    const active = await verify(file, '--online', baseUrl);
    expect(active.code, active.out).toBe(0);
    expect(active.out).toMatch(
      /^trust: JWKS fetched from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json/m,
    );
    expect(active.out).toMatch(/^PASS {2}status-signature /m);
    expect(active.out).toMatch(/^PASS {2}status +active/m);
    expect(active.out).toMatch(
      /^PASS {2}log-consistency +the log grew from \d+ to \d+ consistently/m,
    );
    expect(active.out).toMatch(
      /^VERIFIED: genuine receipt, decision ALLOW: .*\n {2}authentic, decision ALLOW, active/m,
    );

    const revoked = await revokeVia(ctx.app, key, id, issuerPem);
    expect(revoked.statusCode).toBe(200);
    const after = await verify(file, '--online', baseUrl);
    expect(after.code).toBe(3);
    expect(after.out).toMatch(
      /^FAIL {2}status +The receipt was revoked: .*\n +revoked at .* by issuer escrow-co/m,
    );
    expect(after.out).toMatch(
      /^AUTHENTIC BUT REVOKED: the receipt is genuine, but it was revoked: do not rely on it\.\n {2}revoked at .* by issuer escrow-co/m,
    );
  });

  it('--status FILE: the saved signed status decides offline; revoked is exit 3 even with --offline', async () => {
    const id = await issueAnchored();
    const bundle = (await bundleOf(id)) as BundleJson & {
      receipt: { receiptHash: string };
      logEntry: { treeSize: number };
    };
    const file = write('saved.json', JSON.stringify(bundle));
    const saveStatus = async (name: string) => {
      const url = `/status/${bundle.receipt.receiptHash}?treeSize=${bundle.logEntry.treeSize}`;
      return write(name, (await ctx.app.inject({ url })).body);
    };
    const active = await verify(file, '--jwks', jwksFile, '--status', await saveStatus('a.json'));
    expect(active.code, active.out).toBe(0);
    expect(active.out).toMatch(/^PASS {2}status-signature .*\(supplied with --status /m);
    expect(active.out).toMatch(
      /^VERIFIED: genuine receipt, decision ALLOW: .*\n {2}authentic, decision ALLOW, active/m,
    );
    expect((await revokeVia(ctx.app, key, id, issuerPem)).statusCode).toBe(200);
    const revoked = await saveStatus('r.json');
    for (const extra of [[], ['--offline']]) {
      const res = await verify(file, '--jwks', jwksFile, '--status', revoked, ...extra);
      expect(res.code, res.out).toBe(3);
      expect(res.out).toMatch(/^AUTHENTIC BUT REVOKED: .*\n {2}revoked at .* by issuer escrow-co/m);
    }
  });

  it('--max-status-age: a statement older than the bound is not current', async () => {
    const file = write('aged.json', JSON.stringify(await bundleOf(await issueAnchored())));
    await new Promise((r) => setTimeout(r, 1100));
    const res = await verify(file, '--online', baseUrl, '--max-status-age', '0', '--json');
    const report = JSON.parse(res.out);
    // the service signs a fresh statement per request, so only a zero bound can make it stale
    expect(report.steps.find((s: { id: string }) => s.id === 'status-age').status).toMatch(
      /PASS|WARN/,
    );
    expect((await verify(file, '--online', baseUrl, '--max-status-age', 'soon')).code).toBe(2);
  });
});
