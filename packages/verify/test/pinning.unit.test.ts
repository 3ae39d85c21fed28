import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import type { TrustRoot } from '../src/trust.js';
import { verifyBundle } from '../src/verify.js';
import { fixture, pinnedKeys, type Json } from './helpers.js';

/**
 * Only what the relying party pins vouches for a receipt: the key that signed it and the key
 * that signed its log's checkpoint must each be a pinned one. The forgeries below are made with
 * node:crypto from the formats (RFC 8032, RFC 8785, RFC 7638, C2SP signed-note, RFC 9162), on the
 * recorded bundle of a receipt the service issued; each is shown well-formed by passing once its
 * forger's key is pinned too, so the failure is the pinning's and nothing else's.
 */
const keys = pinnedKeys();
const bundle = (): Json => fixture<Json>('bundle.json');
const stepOf = (v: { steps: { id: string; status: string; detail: string }[] }, id: string) =>
  v.steps.find((s) => s.id === id);

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

function ed25519(): { privateKey: KeyObject; raw: Buffer } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    raw: Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url'),
  };
}

/**
 * The bundle's receipt, kept as the service signed it, in a one-leaf log of the forger's own
 * under the same origin: its checkpoint signed with the forger's note key, which the bundle's
 * noteVerifierKey names.
 */
function inForgedLog(): { forged: Json; noteKey: Buffer } {
  const b = bundle();
  const origin = String(b.logEntry.origin);
  const { privateKey, raw } = ed25519();
  const keyId = sha256(Buffer.from(`${origin}\n`), Uint8Array.of(1), raw).subarray(0, 4);
  const leaf = sha256(Uint8Array.of(0), Buffer.from(String(b.receipt.receiptHash).slice(7), 'hex'));
  const body = `${origin}\n1\n${leaf.toString('base64')}\n`;
  const signature = sign(null, Buffer.from(body), privateKey);
  b.logEntry = {
    ...b.logEntry,
    noteVerifierKey: `${origin}+${keyId.toString('hex')}+${Buffer.concat([Uint8Array.of(1), raw]).toString('base64')}`,
    logIndex: 0,
    treeSize: 1,
    rootHash: `sha256:${leaf.toString('hex')}`,
    inclusionProof: [],
    checkpoint: `${body}\n\u2014 ${origin} ${Buffer.concat([keyId, signature]).toString('base64')}\n`,
  };
  return { forged: b, noteKey: raw };
}

/** The receipt rewritten to ALLOW without reasons and re-signed, consistently, with another key. */
function reSigned(): { forged: Json; signingKey: Buffer } {
  const b = bundle();
  const { privateKey, raw } = ed25519();
  const kid = sha256(
    Buffer.from(
      canonicalize({ crv: 'Ed25519', kty: 'OKP', x: raw.toString('base64url') }) as string,
    ),
  ).toString('base64url');
  const receipt = { ...b.receipt, decision: 'ALLOW', reasons: [] };
  delete receipt.receiptHash;
  delete receipt.receiptSignature;
  const canonical = canonicalize(receipt) as string;
  const signature = sign(null, Buffer.from(canonical), privateKey).toString('base64url');
  b.canonicalReceipt = canonical;
  b.receipt = {
    ...receipt,
    receiptHash: `sha256:${sha256(Buffer.from(canonical)).toString('hex')}`,
    receiptSignature: { alg: 'EdDSA', kid, signature },
  };
  b.verificationMaterial.publicKey = {
    ...b.verificationMaterial.publicKey,
    x: raw.toString('base64url'),
    kid,
  };
  delete b.logEntry;
  return { forged: b, signingKey: raw };
}

describe("the checkpoint's key is a pinned one", () => {
  it("a log of the forger's own, named by the bundle, fails checkpoint under the pinned keys", () => {
    const { forged, noteKey } = inForgedLog();
    const v = verifyBundle(forged, { trust: { keys } });
    expect(stepOf(v, 'log-inclusion')?.status).toBe('PASS');
    expect(stepOf(v, 'checkpoint')).toMatchObject({
      status: 'FAIL',
      detail: 'the checkpoint key is not a pinned key',
    });
    expect(v).toMatchObject({ authentic: false, failedStep: 'checkpoint', exitCode: 1 });
    // well-formed: pinning the forger's note key as well lets it through
    const alsoPinned = verifyBundle(forged, { trust: { keys: [...keys, noteKey] } });
    expect(stepOf(alsoPinned, 'checkpoint')?.status).toBe('PASS');
    expect(alsoPinned.authentic).toBe(true);
  });

  it("with trust ignored, only the bundle's own key may sign its checkpoint", () => {
    const { forged } = inForgedLog();
    const trust: TrustRoot = { insecureIgnoreTrust: true };
    expect(verifyBundle(forged, { trust }).failedStep).toBe('checkpoint');
    expect(verifyBundle(bundle(), { trust }).failedStep).toBeUndefined();
  });
});

describe("the receipt's signing key is a pinned one", () => {
  it('a receipt re-signed with another key fails key-trust, whatever else is pinned', () => {
    const { forged, signingKey } = reSigned();
    for (const pinned of [keys, [keys[0] as Uint8Array], [ed25519().raw]]) {
      const v = verifyBundle(forged, { trust: { keys: pinned } });
      expect(stepOf(v, 'signature')?.status).toBe('PASS');
      expect(stepOf(v, 'key-trust')).toMatchObject({
        status: 'FAIL',
        detail: 'the signing key is not one of the pinned keys',
      });
      expect(v).toMatchObject({ authentic: false, failedStep: 'key-trust', exitCode: 1 });
    }
    // well-formed: pinning the forger's key as well lets it through
    const alsoPinned = verifyBundle(forged, { trust: { keys: [...keys, signingKey] } });
    expect(alsoPinned.authentic).toBe(true);
    expect(alsoPinned.failedStep).toBeUndefined();
  });

  it("the service's receipt under another service's pinned key fails key-trust", () => {
    const v = verifyBundle(bundle(), { trust: { keys: [ed25519().raw] } });
    expect(stepOf(v, 'key-trust')?.status).toBe('FAIL');
    expect(v.authentic).toBe(false);
  });
});
