import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cosignerKeyId } from '../src/log/cosignature.js';
import { parseLogPolicy } from '../src/log/policy.js';
import { withTlogProof } from '../src/log/tlog-entry.js';
import { readBundle } from '../src/read.js';
import type { TrustRoot } from '../src/trust.js';
import { verifyBundle } from '../src/verify.js';
import {
  fixture,
  fixtureBytes,
  fixtureText,
  pinnedKeys,
  producedAt,
  type Json,
} from './helpers.js';

/**
 * verifyBundle on recorded bundles of a log of five receipts (the receipt is leaf 1, so its
 * inclusion proof has three hashes): each check catches the forgery it exists for.
 */
const keys = pinnedKeys();
const trust: TrustRoot = { keys, source: 'fixtures JWKS' };
const bundle = (): Json => fixture<Json>('bundle.json');
const stepOf = (v: { steps: { id: string; status: string; detail: string }[] }, id: string) =>
  v.steps.find((s) => s.id === id);
const sha = (...parts: Uint8Array[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};
const hexOf = (wire: string) => Buffer.from(wire.slice(7), 'hex');
const wire = (b: Uint8Array) => `sha256:${Buffer.from(b).toString('hex')}`;

describe('the verdict', () => {
  it('authentic ALLOW, status not checked: caution, exit 3, or exit 0 when --offline accepts it; with a fresh active status: accepted', () => {
    const offline = verifyBundle(bundle(), { trust });
    expect(offline).toMatchObject({ authentic: true, verdict: 'caution', exitCode: 3 });
    expect(offline.steps.filter((s) => s.status === 'FAIL')).toEqual([]);
    expect(offline.summary).toMatch(/^CAUTION: .*current status was not checked.*--offline/);
    const accepted = verifyBundle(bundle(), { trust, acceptUnknownStatus: true });
    expect(accepted).toMatchObject({ authentic: true, verdict: 'caution', exitCode: 0 });
    expect(accepted.summary).toMatch(/^VERIFIED OFFLINE: .*not checked.*accepted as unknown/);
    const online = verifyBundle(bundle(), {
      trust,
      status: { document: fixture('status-active.json') },
      now: producedAt('status-active.json'),
    });
    expect(online).toMatchObject({
      verdict: 'accepted',
      exitCode: 0,
      currentStatus: { state: 'active' },
    });
  });

  it('nothing pinned: not authentic, exit 2 (a usage error), key-trust names what to pass', () => {
    const v = verifyBundle(bundle(), { trust: {} });
    expect(v).toMatchObject({
      authentic: false,
      exitCode: 2,
      failedStep: 'key-trust',
      verdict: 'rejected',
    });
    expect(stepOf(v, 'key-trust')?.detail).toMatch(/--jwks.*--online.*--log-policy/);
    // a pinned origin alone proves nothing either
    const origin = verifyBundle(bundle(), {
      trust: { log: { origin: 'receipts.example.com/log', witnesses: [], quorum: 0 } },
    });
    expect(origin).toMatchObject({ exitCode: 2, failedStep: 'key-trust' });
  });

  it('BLOCK is rejected with exit 3; a revoked receipt is rejected with exit 3', () => {
    expect(verifyBundle(fixture('bundle-block.json'), { trust })).toMatchObject({
      authentic: true,
      verdict: 'rejected',
      exitCode: 3,
    });
    const revoked = verifyBundle(fixture('bundle-revoked.json'), {
      trust,
      status: { document: fixture('status-revoked.json') },
      now: producedAt('status-revoked.json'),
    });
    expect(revoked).toMatchObject({
      authentic: true,
      verdict: 'rejected',
      exitCode: 3,
      currentStatus: { state: 'revoked', revokedBy: 'escrow-co' },
    });
  });

  it('a status older than the bound is not current: caution, and a revocation stands however old', () => {
    const later = new Date(producedAt('status-active.json').getTime() + 600_000);
    const stale = verifyBundle(bundle(), {
      trust,
      status: { document: fixture('status-active.json') },
      now: later,
    });
    expect(stale).toMatchObject({
      verdict: 'caution',
      exitCode: 3,
      currentStatus: { state: 'not-checked' },
    });
    expect(stepOf(stale, 'status-age')?.status).toBe('WARN');
    const oldRevoked = verifyBundle(fixture('bundle-revoked.json'), {
      trust,
      status: { document: fixture('status-revoked.json') },
      now: later,
    });
    expect(oldRevoked.verdict).toBe('rejected');
  });
});

describe('the log steps', () => {
  it('one changed proof hash fails log-inclusion', () => {
    for (let i = 0; i < 3; i += 1) {
      const b = bundle();
      const h = hexOf(b.logEntry.inclusionProof[i]);
      h[0] = (h[0] as number) ^ 1;
      b.logEntry.inclusionProof[i] = wire(h);
      expect(verifyBundle(b, { trust }).failedStep, `hash ${i}`).toBe('log-inclusion');
    }
  });

  it('a forged tree whose root and proof agree, beside the real checkpoint, fails checkpoint', () => {
    const b = bundle();
    const e = b.logEntry;
    // leaf 1 of 5: root = H(H(H(p0, leaf), p1), p2); replace p2 and recompute the root from it
    const leaf = sha(Uint8Array.of(0), hexOf(b.receipt.receiptHash));
    const inner = sha(
      Uint8Array.of(1),
      sha(Uint8Array.of(1), hexOf(e.inclusionProof[0]), leaf),
      hexOf(e.inclusionProof[1]),
    );
    const p2 = sha(new TextEncoder().encode('forged'));
    e.inclusionProof[2] = wire(p2);
    e.rootHash = wire(sha(Uint8Array.of(1), inner, p2));
    const v = verifyBundle(b, { trust });
    expect(stepOf(v, 'log-inclusion')?.status).toBe('PASS');
    expect(v.failedStep).toBe('checkpoint');
  });

  it('a checkpoint signature under the right name and key ID that does not verify fails', () => {
    const b = bundle();
    const note: string = b.logEntry.checkpoint;
    const line = note.trimEnd().split('\n').pop() as string;
    const blob = Buffer.from(line.split(' ')[2] as string, 'base64');
    blob[10] = (blob[10] as number) ^ 1;
    const bad = `${line.split(' ').slice(0, 2).join(' ')} ${blob.toString('base64')}`;
    b.logEntry.checkpoint = note.replace(line, bad);
    expect(verifyBundle(b, { trust }).failedStep).toBe('checkpoint');
    // the valid line and the invalid one together: every line of the log's key must verify
    const both = bundle();
    both.logEntry.checkpoint = `${note}${bad}\n`;
    expect(verifyBundle(both, { trust }).failedStep).toBe('checkpoint');
  });

  it('pins the log: another origin is refused; the pinned log alone makes an anchored receipt authentic', () => {
    const policy = parseLogPolicy(fixtureText('log.policy'));
    if (!policy.ok) throw new Error(policy.reason);
    const byLog = verifyBundle(bundle(), { trust: { log: policy.log } });
    expect(byLog.authentic).toBe(true);
    expect(stepOf(byLog, 'key-trust')?.detail).toContain('in the pinned log');
    const other = verifyBundle(bundle(), {
      trust: { keys, log: { ...policy.log, origin: 'other.example/log' } },
    });
    expect(other.failedStep).toBe('checkpoint');
    expect(stepOf(other, 'checkpoint')?.detail).toContain(
      'not of the pinned log other.example/log',
    );
    // not anchored and only the log pinned: nothing proves the key
    const unanchored = bundle();
    delete unanchored.logEntry;
    expect(verifyBundle(unanchored, { trust: { log: policy.log } }).failedStep).toBe('key-trust');
  });

  it('after a key rotation, a checkpoint signed with a retired key the JWKS still lists passes', () => {
    const policy = parseLogPolicy(fixtureText('log.policy'));
    if (!policy.ok) throw new Error(policy.reason);
    const rotated = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const newKey = new Uint8Array(Buffer.from(String(rotated.x), 'base64url'));
    const log = { ...policy.log, publicKey: newKey };
    expect(stepOf(verifyBundle(bundle(), { trust: { keys, log } }), 'checkpoint')?.status).toBe(
      'PASS',
    );
    // with only the new log key pinned, the old checkpoint proves nothing
    expect(verifyBundle(bundle(), { trust: { log } }).failedStep).toBe('key-trust');
  });

  it('a pinned witness quorum without cosignatures fails the witnesses step', () => {
    const policy = parseLogPolicy(fixtureText('log.policy'));
    if (!policy.ok) throw new Error(policy.reason);
    const w = generateKeyPairSync('ed25519');
    const publicKey = new Uint8Array(
      Buffer.from(String(w.publicKey.export({ format: 'jwk' }).x), 'base64url'),
    );
    const witness = {
      name: 'witness.example',
      publicKey,
      keyId: cosignerKeyId('witness.example', publicKey),
    };
    const log = { ...policy.log, witnesses: [witness], quorum: 1 };
    const v = verifyBundle(bundle(), { trust: { keys, log } });
    expect(v.failedStep).toBe('witnesses');
    // a real cosignature by that witness satisfies the quorum
    const b = bundle();
    const text = (b.logEntry.checkpoint as string).slice(
      0,
      b.logEntry.checkpoint.indexOf('\n\n') + 1,
    );
    const time = 1_700_000_000n;
    const stamp = Buffer.alloc(8);
    stamp.writeBigUInt64BE(time);
    const sig = sign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${text}`), w.privateKey);
    const blob = Buffer.concat([witness.keyId, stamp, sig]).toString('base64');
    b.logEntry.checkpoint = `${b.logEntry.checkpoint}\u2014 witness.example ${blob}\n`;
    expect(stepOf(verifyBundle(b, { trust: { keys, log } }), 'witnesses')?.status).toBe('PASS');
  });

  it('a tlog-proof gives a bundle saved before anchoring its log evidence', () => {
    const saved = bundle();
    delete saved.logEntry;
    const merged = withTlogProof(saved, fixtureText('receipt.tlog-proof'), trust);
    const v = verifyBundle(merged, { trust });
    expect(stepOf(v, 'log-inclusion')?.status).toBe('PASS');
    expect(stepOf(v, 'checkpoint')?.status).toBe('PASS');
  });
});

describe('the status steps', () => {
  it('the log grew consistently from the bundle tree of 3 to 5', () => {
    const v = verifyBundle(fixture('bundle-size3.json'), {
      trust,
      status: { document: fixture('status-active.json') },
      now: producedAt('status-active.json'),
    });
    expect(stepOf(v, 'log-consistency')).toMatchObject({
      status: 'PASS',
      detail: 'the log grew from 3 to 5 consistently',
    });
  });

  it('a consistency proof valid for another old root fails', () => {
    const b = fixture<Json>('bundle-size3.json');
    const root = hexOf(b.logEntry.rootHash);
    root[0] = (root[0] as number) ^ 1;
    b.logEntry.rootHash = wire(root);
    const v = verifyBundle(b, {
      trust,
      status: { document: fixture('status-active.json') },
      now: producedAt('status-active.json'),
    });
    expect(stepOf(v, 'log-consistency')?.status).toBe('FAIL');
  });

  it('a status about another receipt, or unavailable, is not a current status', () => {
    const other = verifyBundle(fixture('bundle-block.json'), {
      trust,
      status: { document: fixture('status-active.json') },
    });
    expect(stepOf(other, 'status-signature')).toMatchObject({
      status: 'FAIL',
      detail: 'the statement is about another receipt (fetched from the service)',
    });
    const down = verifyBundle(bundle(), { trust, status: { error: 'connection refused' } });
    expect(down).toMatchObject({
      verdict: 'caution',
      exitCode: 3,
      authentic: true,
      currentStatus: { state: 'not-checked' },
    });
    expect(stepOf(down, 'status')).toMatchObject({ status: 'WARN' });
  });
});

describe('PDF receipts', () => {
  it('the printed page must name the attached receipt', async () => {
    const read = await readBundle(fixtureBytes('receipt.pdf'));
    if (!read.ok) throw new Error(read.reason);
    expect(read.from).toBe('pdf');
    const ok = verifyBundle(read.bundle, {
      trust,
      pdf: { ...(read.printed ? { printed: read.printed } : {}) },
    });
    expect(stepOf(ok, 'pdf-binding')?.status).toBe('PASS');
    // the BLOCK receipt's bundle shown under the ALLOW receipt's page
    const block = await readBundle(fixtureBytes('receipt-block.pdf'));
    if (!block.ok) throw new Error(block.reason);
    const swapped = verifyBundle(block.bundle, {
      trust,
      pdf: { ...(read.printed ? { printed: read.printed } : {}) },
    });
    expect(swapped.failedStep).toBe('pdf-binding');
  });

  it('the recorded PDF is signed as a whole by an endorsed certificate; one changed byte fails', async () => {
    const bytes = fixtureBytes('receipt.pdf');
    const verify = async (file: Uint8Array) => {
      const read = await readBundle(file);
      if (!read.ok) throw new Error(read.reason);
      return verifyBundle(read.bundle, {
        trust,
        pdf: {
          ...(read.printed ? { printed: read.printed } : {}),
          ...(read.signature ? { signature: read.signature } : {}),
        },
      });
    };
    expect(stepOf(await verify(bytes), 'pdf-signature')?.status).toBe('PASS');
    // the document's creation date, inside the signed ranges, changed after signing
    const changed = new Uint8Array(bytes);
    const at = Buffer.from(changed).indexOf('(D:') + 3;
    expect(at).toBeGreaterThan(3);
    changed[at] = changed[at] === 0x31 ? 0x32 : 0x31;
    const tampered = await verify(changed);
    expect(tampered.failedStep).toBe('pdf-signature');
  });
});
