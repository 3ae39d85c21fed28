import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../packages/verify/src/cli/main.js';
import { createTestContext, tempDir, type TestContext } from '../helpers/context.js';
import { ciRequest } from '../http/hostile/requests.js';

/**
 * Hybrid receipt signatures (PQ_SIGNATURES): the bundle carries an ML-DSA-44 signature over the
 * same canonical bytes as the Ed25519 one, its key is the AKP key of the JWKS, and the verifier
 * checks it: it counts under --require-pq, and a missing or corrupt one is reported and ignored
 * without. The signature is checked by OpenSSL too (Python's cryptography), a second ML-DSA.
 */

interface Bundle {
  receipt: { receiptHash: string; receiptSignature: unknown };
  canonicalReceipt: string;
  pqSignature?: { signature: string; kid: string; publicKey: { pub: string; kid: string } };
}

let ctx: TestContext;
let bundle: Bundle;
let stored: Record<string, unknown>;
let jwks: { keys: Record<string, string>[] };
const dir = tempDir('pq-receipt-');

beforeAll(async () => {
  ctx = await createTestContext({ PQ_SIGNATURES: 'true' });
  const id = (await ctx.app.services.receipts.issueCi('tenant-a', ciRequest())).record.id;
  const key = await ctx.apiKey(['read']);
  const get = async (url: string) => {
    const res = await ctx.app.inject({ url, headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  bundle = await get(`/api/v1/receipt/${id}/bundle`);
  stored = await get(`/api/v1/receipt/${id}`);
  jwks = (await ctx.app.inject({ url: '/.well-known/jwks.json' })).json();
});
afterAll(async () => ctx.close());

function write(name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

async function verify(b: unknown, ...flags: string[]) {
  const out: string[] = [];
  const args = [
    write('b.json', b),
    '--jwks',
    write('jwks.json', jwks),
    '--offline',
    '--json',
    ...flags,
  ];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => out.push(l) });
  const result = JSON.parse(out.join('\n')) as {
    authentic: boolean;
    steps: { id: string; status: string; detail: string }[];
  };
  // the test receipt is FLAG (exit 3 when authentic): authenticity is what the signature decides
  expect(code === 1).toBe(!result.authentic);
  return { authentic: result.authentic, pq: result.steps.find((s) => s.id === 'pq-signature') };
}

describe('hybrid receipt signatures', () => {
  it('the JWKS publishes the ML-DSA-44 key as an AKP JWK named by its RFC 7638 thumbprint', () => {
    const akp = jwks.keys.find((k) => k.kty === 'AKP');
    expect(akp).toMatchObject({ alg: 'ML-DSA-44', use: 'sig' });
    expect(Buffer.from(akp?.pub as string, 'base64url').length).toBe(1312);
    const members = `{"alg":"ML-DSA-44","kty":"AKP","pub":"${akp?.pub}"}`;
    expect(akp?.kid).toBe(createHash('sha256').update(members).digest('base64url'));
    expect(bundle.pqSignature?.kid).toBe(akp?.kid);
    expect(jwks.keys.some((k) => k.kty === 'OKP')).toBe(true);
  });

  it('the receipt, its hash and so its log entry are those of the receipt without it', () => {
    expect(bundle.receipt.receiptHash).toBe(stored.receiptHash);
    expect(bundle.canonicalReceipt).toBe(stored.canonicalReceipt);
    expect(JSON.stringify(bundle.receipt)).not.toContain('ML-DSA');
    const hash = createHash('sha256').update(bundle.canonicalReceipt).digest('hex');
    expect(bundle.receipt.receiptHash).toBe(`sha256:${hash}`);
  });

  it('OpenSSL verifies the ML-DSA-44 signature over the canonical receipt', () => {
    const check = `
import base64, sys
from cryptography.hazmat.primitives.asymmetric import mldsa
pub, sig, msg = (base64.urlsafe_b64decode(a + '=' * (-len(a) % 4)) for a in sys.argv[1:4])
mldsa.MLDSA44PublicKey.from_public_bytes(pub).verify(sig, msg)
print('verified')`;
    const msg = Buffer.from(bundle.canonicalReceipt).toString('base64url');
    const pq = bundle.pqSignature;
    const run = (sig: string) =>
      execFileSync('python3', ['-c', check, pq?.publicKey.pub as string, sig, msg], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    expect(run(pq?.signature as string).trim()).toBe('verified');
    const bad = Buffer.from(pq?.signature as string, 'base64url');
    bad.writeUInt8((bad.at(10) as number) ^ 1, 10);
    expect(() => run(bad.toString('base64url'))).toThrow();
  });

  it('verifies with both signatures, with and without --require-pq', async () => {
    const plain = await verify(bundle);
    expect(plain).toMatchObject({ authentic: true, pq: { status: 'PASS' } });
    expect((await verify(bundle, '--require-pq')).authentic).toBe(true);
  });

  it('without the ML-DSA signature: accepted and reported, rejected under --require-pq', async () => {
    const without: Bundle = { ...bundle };
    delete without.pqSignature;
    const plain = await verify(without);
    // a bundle without one verifies as bundles always did: no post-quantum step
    expect(plain).toEqual({ authentic: true, pq: undefined });
    const required = await verify(without, '--require-pq');
    expect(required).toMatchObject({ authentic: false, pq: { status: 'FAIL' } });
  });

  it('a corrupt ML-DSA signature: reported and ignored, rejected under --require-pq', async () => {
    const sig = Buffer.from(bundle.pqSignature?.signature as string, 'base64url');
    sig.writeUInt8((sig.at(2000) as number) ^ 1, 2000);
    const corrupt = {
      ...bundle,
      pqSignature: { ...bundle.pqSignature, signature: sig.toString('base64url') },
    };
    const plain = await verify(corrupt);
    expect(plain).toMatchObject({ authentic: true, pq: { status: 'WARN' } });
    expect(plain.pq?.detail).toContain('does not verify');
    const required = await verify(corrupt, '--require-pq');
    expect(required).toMatchObject({ authentic: false, pq: { status: 'FAIL' } });
  });

  it('an ML-DSA key that is not pinned does not count under --require-pq', async () => {
    const saved = jwks;
    jwks = { keys: saved.keys.filter((k) => k.kty !== 'AKP') };
    try {
      const required = await verify(bundle, '--require-pq');
      expect(required.authentic).toBe(false);
      expect(required.pq?.detail).toContain('is not a pinned key');
    } finally {
      jwks = saved;
    }
  });
});
