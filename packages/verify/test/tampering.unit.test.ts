import { generateKeyPairSync, sign } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jwkThumbprint } from '../src/primitives.js';
import type { StepId } from '../src/steps.js';
import { verifyBundle } from '../src/verify.js';
import { fixture, pinnedKeys } from './helpers.js';

/**
 * The verifier against tampered copies of a recorded bundle (test/fixtures/bundle.json, a
 * receipt the service issued and anchored): every tampering is caught and names the step that
 * caught it; nothing makes it throw.
 */

const bundle = fixture('bundle.json');
const pinned = pinnedKeys();

type Json = Record<string, unknown>;
const copy = (): Json => structuredClone(bundle);
const at = (b: Json, ...path: string[]): Json => path.reduce((node, k) => node[k] as Json, b);
const failedStep = (b: unknown, keys = pinned): StepId | undefined =>
  verifyBundle(b, { trust: { keys } }).failedStep;

describe('verifyBundle on tampered bundles', () => {
  it('passes the untouched bundle', () => {
    expect(verifyBundle(copy(), { trust: { keys: pinned } }).authentic).toBe(true);
  });

  it('catches a change to any field of the receipt', () => {
    for (const field of Object.keys(at(copy(), 'receipt'))) {
      const b = copy();
      const receipt = at(b, 'receipt');
      receipt[field] = field === 'checks' ? [] : `${JSON.stringify(receipt[field])}x`;
      expect(failedStep(b), field).toBeDefined();
    }
    const b = copy();
    at(b, 'receipt').decision = 'ALLOW' === at(b, 'receipt').decision ? 'BLOCK' : 'ALLOW';
    expect(failedStep(b)).toBe('canonical-form');
  });

  it('names the step: signature, proof hash, checkpoint root, key', () => {
    const sig = copy();
    const s = at(sig, 'receipt', 'receiptSignature');
    s.signature = `${String(s.signature).slice(0, -2)}${String(s.signature).endsWith('AA') ? 'BA' : 'AA'}`;
    expect(failedStep(sig)).toBe('signature');

    const proof = copy();
    const entry = at(proof, 'logEntry');
    const hashes = entry.inclusionProof as string[];
    if (hashes.length > 0) {
      hashes[0] = `sha256:${'0'.repeat(64)}`;
      expect(failedStep(proof)).toBe('log-inclusion');
    }

    const root = copy();
    const note = String(at(root, 'logEntry').checkpoint).split('\n');
    note[2] = Buffer.alloc(32, 7).toString('base64');
    at(root, 'logEntry').checkpoint = note.join('\n');
    expect(failedStep(root)).toBe('checkpoint');

    // a key swapped in without re-signing: the kid no longer matches
    const swapped = copy();
    const stranger = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    at(swapped, 'verificationMaterial', 'publicKey').x = stranger.x;
    expect(failedStep(swapped)).toBe('key-id');

    // another key that re-signs a fully consistent receipt: only pinning catches it
    const forged = copy();
    const other = generateKeyPairSync('ed25519');
    const x = String(other.publicKey.export({ format: 'jwk' }).x);
    const kid = jwkThumbprint(new Uint8Array(Buffer.from(x, 'base64url')));
    Object.assign(at(forged, 'verificationMaterial', 'publicKey'), { x, kid });
    const signature = sign(null, Buffer.from(String(forged.canonicalReceipt)), other.privateKey);
    Object.assign(at(forged, 'receipt', 'receiptSignature'), {
      kid,
      signature: signature.toString('base64url'),
    });
    expect(failedStep(forged)).toBe('key-trust');
    // nothing pinned: not verified either, the verifier asks for a trust root
    expect(failedStep(forged, [])).toBe('key-trust');
    // trust ignored on request: the log checkpoint (signed by the service key) still gives it away
    const insecure = verifyBundle(forged, { trust: { insecureIgnoreTrust: true } });
    expect(insecure.failedStep).toBe('checkpoint');
  });

  it('reports an unreadable bundle as such: wrong type, future version, missing parts', () => {
    for (const input of [
      null,
      'x',
      [],
      {},
      { ...copy(), mediaType: 'application/vnd.verification-receipt.bundle+json;version=2' },
    ]) {
      const verdict = verifyBundle(input, { trust: { keys: pinned } });
      expect(verdict.unreadable).toBe(true);
      expect(verdict.failedStep).toBe('format');
    }
    // a JS caller's sparse array: a hole where a proof hash should be
    const holed = copy();
    delete (at(holed, 'logEntry').inclusionProof as string[])[0];
    expect(verifyBundle(holed, { trust: { keys: pinned } }).failedStep).toBe('format');
    const noCanonical = copy();
    delete noCanonical.canonicalReceipt;
    expect(verifyBundle(noCanonical, { trust: {} }).unreadable).toBe(true);
  });

  it('never throws, and any change to a value is not verified (fast-check)', () => {
    const paths: string[][] = [];
    const walk = (node: unknown, path: string[]) => {
      if (node !== null && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
      } else paths.push(path);
    };
    walk(bundle, []);
    fc.assert(
      fc.property(
        fc.constantFrom(...paths),
        fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.string({ maxLength: 3 })),
        (path, value) => {
          const b = copy();
          const parent = path.slice(0, -1).reduce((n, k) => (n as Json)[k], b as unknown) as Json;
          const last = path[path.length - 1] as string;
          const before = JSON.stringify(parent[last]);
          if (value === undefined) delete parent[last];
          else parent[last] = value;
          if (JSON.stringify(parent[last]) === before) return;
          const verdict = verifyBundle(b, { trust: { keys: pinned } });
          expect(verdict.authentic, `${path.join('.')} = ${JSON.stringify(value)}`).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a signature from a key that is not pinned fails key-trust', () => {
    const stranger = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const keys = [new Uint8Array(Buffer.from(String(stranger.x), 'base64url'))];
    expect(failedStep(copy(), keys)).toBe('key-trust');
  });
});
