import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSeal,
  SealInputError,
  verifySeal,
  type SealClaims,
} from '../../src/receipts/seal.js';
import { newKeyPair } from './checks/helpers.js';

const keys = newKeyPair();
const claims: SealClaims = {
  notaryId: 'TX-1234567',
  commissionState: 'TX',
  docHash: `sha256:${'ab'.repeat(32)}`,
  iat: 1_750_000_000,
};
const withoutIat = {
  notaryId: claims.notaryId,
  commissionState: claims.commissionState,
  docHash: claims.docHash,
};

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function segments(seal: string): [string, string, string] {
  const [h = '', p = '', s = ''] = seal.split('.');
  return [h, p, s];
}

describe('createSeal / verifySeal', () => {
  it('round-trips the claims', () => {
    const seal = createSeal(claims, keys.privateKeyPem);
    expect(verifySeal(seal, keys.publicKeyPem)).toEqual({ ok: true, claims });
  });

  it('writes a compact JWS with the ES256 header and a 64-byte r||s signature', () => {
    const [header, payload, signature] = segments(createSeal(claims, keys.privateKeyPem));
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      alg: 'ES256',
      typ: 'JWT',
    });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toEqual(claims);
    expect(Buffer.from(signature, 'base64url')).toHaveLength(64);
  });

  it('defaults iat to the current time in seconds', () => {
    const before = Math.floor(Date.now() / 1000);
    const result = verifySeal(createSeal(withoutIat, keys.privateKeyPem), keys.publicKeyPem);
    expect(result.ok && result.claims.iat).toBeGreaterThanOrEqual(before);
  });

  it('refuses malformed claims with SealInputError naming the claim', () => {
    const badHash = () => createSeal({ ...claims, docHash: 'ab'.repeat(32) }, keys.privateKeyPem);
    expect(badHash).toThrow(SealInputError);
    expect(badHash).toThrow(/docHash/);
    const badState = () => createSeal({ ...claims, commissionState: 'Texas' }, keys.privateKeyPem);
    expect(badState).toThrow(/commissionState/);
  });

  it('refuses a key that is not a P-256 private key with SealInputError', () => {
    const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const ed = pem(generateKeyPairSync('ed25519').privateKey);
    const p384 = pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey);
    for (const key of [ed, p384]) expect(() => createSeal(claims, key)).toThrow(/P-256/);
    expect(() => createSeal(claims, keys.publicKeyPem)).toThrow(SealInputError);
    expect(() => createSeal(claims, 'garbage')).toThrow(/not a readable PEM private key/);
  });

  it('rejects a seal signed by another key', () => {
    const seal = createSeal(claims, newKeyPair().privateKeyPem);
    expect(verifySeal(seal, keys.publicKeyPem)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects a tampered payload', () => {
    const [header, , signature] = segments(createSeal(claims, keys.privateKeyPem));
    const forged = `${header}.${b64({ ...claims, notaryId: 'TX-9999999' })}.${signature}`;
    expect(verifySeal(forged, keys.publicKeyPem)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('rejects alg none and any other alg, even with an empty signature', () => {
    const payload = b64(claims);
    for (const alg of ['none', 'HS256', 'ES384', 'RS256']) {
      const seal = `${b64({ alg, typ: 'JWT' })}.${payload}.`;
      expect(verifySeal(seal, keys.publicKeyPem)).toEqual({
        ok: false,
        reason: 'unsupported_header',
      });
    }
  });

  it('rejects a header without alg, with crit, or with a typ other than JWT', () => {
    const [, payload, signature] = segments(createSeal(claims, keys.privateKeyPem));
    for (const header of [{}, { alg: 'ES256', crit: ['exp'] }, { alg: 'ES256', typ: 'JOSE' }]) {
      expect(verifySeal(`${b64(header)}.${payload}.${signature}`, keys.publicKeyPem)).toEqual({
        ok: false,
        reason: 'unsupported_header',
      });
    }
  });

  it('rejects extra, missing or malformed claims', () => {
    const [header, , signature] = segments(createSeal(claims, keys.privateKeyPem));
    const malformed = [
      { ...claims, exp: 1 },
      withoutIat,
      { ...claims, iat: 1.5 },
      { ...claims, iat: 1e16 },
      { ...claims, docHash: 'ab'.repeat(32) },
    ];
    for (const payload of malformed) {
      expect(verifySeal(`${header}.${b64(payload)}.${signature}`, keys.publicKeyPem)).toEqual({
        ok: false,
        reason: 'invalid_claims',
      });
    }
  });

  it('rejects a signature of the wrong length or a re-encoded segment', () => {
    const [header, payload, signature] = segments(createSeal(claims, keys.privateKeyPem));
    const der = Buffer.concat([Buffer.from([0x30, 0x44]), Buffer.from(signature, 'base64url')]);
    expect(
      verifySeal(`${header}.${payload}.${der.toString('base64url')}`, keys.publicKeyPem),
    ).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySeal(`${header}=.${payload}.${signature}`, keys.publicKeyPem)).toEqual({
      ok: false,
      reason: 'malformed_seal',
    });
  });

  it('reports an unusable registered key instead of throwing', () => {
    const seal = createSeal(claims, keys.privateKeyPem);
    expect(verifySeal(seal, 'not a key')).toEqual({ ok: false, reason: 'invalid_public_key' });
    const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' });
    expect(verifySeal(seal, ed.toString())).toEqual({ ok: false, reason: 'invalid_public_key' });
  });

  it.each(['', 'a.b', 'a.b.c.d', '..', 'e30.e30', '!!.@@.##', `${b64([1])}.${b64({})}.AA`])(
    'rejects garbage %j as malformed',
    (garbage) => {
      expect(verifySeal(garbage, keys.publicKeyPem)).toEqual({
        ok: false,
        reason: 'malformed_seal',
      });
    },
  );

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (seal, key) => {
        expect(verifySeal(seal, key).ok).toBe(false);
        expect(verifySeal(seal, keys.publicKeyPem).ok).toBe(false);
      }),
    );
  });
});
