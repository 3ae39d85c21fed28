import { CompactSign, compactVerify, exportSPKI, generateKeyPair, importSPKI } from 'jose';
import { describe, expect, it } from 'vitest';
import { createSeal, verifySeal } from '../../src/receipts/seal.js';
import { newKeyPair } from './checks/helpers.js';

/**
 * SIM-ECDSA-v1 seals are RFC 7515 compact JWS with ES256: interoperable with an independent
 * JOSE implementation (panva/jose) in both directions, not only with the project's createSeal.
 */
const claims = {
  notaryId: 'TX-1234567',
  commissionState: 'TX',
  docHash: `sha256:${'ab'.repeat(32)}`,
  iat: 1_750_000_000,
};

describe('seal interoperability with jose', () => {
  it('a seal signed by jose verifies; one flipped bit does not', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const seal = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .sign(privateKey);
    const pem = await exportSPKI(publicKey);
    expect(verifySeal(seal, pem)).toEqual({ ok: true, claims });

    const [h, p, s] = seal.split('.') as [string, string, string];
    const sig = Buffer.from(s, 'base64url');
    sig[10] = (sig[10] ?? 0) ^ 0x01;
    expect(verifySeal(`${h}.${p}.${sig.toString('base64url')}`, pem)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('a seal made by createSeal verifies with jose', async () => {
    const keys = newKeyPair();
    const seal = createSeal(claims, keys.privateKeyPem);
    const key = await importSPKI(keys.publicKeyPem, 'ES256');
    const { payload, protectedHeader } = await compactVerify(seal, key);
    expect(protectedHeader).toEqual({ alg: 'ES256', typ: 'JWT' });
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual(claims);
  });
});
