import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  authorizeRevocation,
  rawEd25519PublicKey,
  revocationMessage,
  type RevokerKey,
} from '../../src/receipts/revocation.js';
import { rfc8032Test1Pem } from '../helpers/keys.js';

/**
 * Revocation authorisation (docs/decisions/0015-revocation-is-signed-by-a-registered-revoker.md): the signed message is pinned as bytes, the timestamp
 * window is checked at its exact edges, and only the canonical spelling of a signature passes.
 */
const RECEIPT = '2f1c7e4a-9b3d-4c58-8e21-6a0f5d9b7c13';
const ISSUER = 'escrow-co';
const AT = '2026-01-15T10:30:00Z';
/** Ed25519 (RFC 8032 TEST 1 key) over exactly MESSAGE below: fixed bytes, computed once. */
const PINNED_SIGNATURE =
  'wrbJhm_MQPxM3gg6W6Tus_zh63PdnhJrs8axj-bAjeUd8Xdqiaq1pJ6SsrwvvAVByrqwy4p8qJYcHqQN9RDdDA';
const MESSAGE = `revoke\n${RECEIPT}\n${ISSUER}\n${AT}`;

const revoker: RevokerKey = {
  issuerId: ISSUER,
  tenant: 'tenant-a',
  publicKey: rawEd25519PublicKey(rfc8032Test1Pem()),
};

function authorize(
  signature: string,
  opts: { now?: string; tenant?: string; timestamp?: string } = {},
) {
  return authorizeRevocation({
    headers: { issuerId: ISSUER, timestamp: opts.timestamp ?? AT, signature },
    revoker,
    tenant: opts.tenant ?? 'tenant-a',
    receiptId: RECEIPT,
    now: new Date(opts.now ?? AT),
    skewSeconds: 300,
  });
}

describe('the revocation message', () => {
  it('is exactly revoke LF receiptId LF issuerId LF timestamp, as UTF-8 bytes', () => {
    expect(Buffer.from(revocationMessage(RECEIPT, ISSUER, AT), 'utf8')).toEqual(
      Buffer.from(MESSAGE, 'utf8'),
    );
    const signed = sign(null, Buffer.from(MESSAGE, 'utf8'), createPrivateKey(rfc8032Test1Pem()));
    expect(signed.toString('base64url')).toBe(PINNED_SIGNATURE);
  });

  it('accepts the pinned signature, so the service checks those very bytes', () => {
    expect(authorize(PINNED_SIGNATURE)).toEqual({ ok: true });
  });
});

describe('the timestamp window (300 s)', () => {
  const shifted = (seconds: number) => new Date(Date.parse(AT) + seconds * 1000).toISOString();
  it('accepts exactly 300 s on either side', () => {
    expect(authorize(PINNED_SIGNATURE, { now: shifted(300) })).toEqual({ ok: true });
    expect(authorize(PINNED_SIGNATURE, { now: shifted(-300) })).toEqual({ ok: true });
  });

  it('refuses 300.001 s on either side', () => {
    for (const now of [shifted(300.001), shifted(-300.001)]) {
      expect(authorize(PINNED_SIGNATURE, { now })).toMatchObject({
        ok: false,
        code: 'unauthorized',
      });
    }
  });

  it('refuses a timestamp that is not RFC 3339', () => {
    expect(authorize(PINNED_SIGNATURE, { timestamp: '1768473000' })).toMatchObject({ ok: false });
  });
});

describe('signature spellings', () => {
  it('refuses padding, junk characters, the standard alphabet and truncation', () => {
    const spellings = {
      padded: `${PINNED_SIGNATURE}==`,
      'junk dot': `${PINNED_SIGNATURE.slice(0, 10)}.${PINNED_SIGNATURE.slice(10)}`,
      'junk space': `${PINNED_SIGNATURE.slice(0, 10)} ${PINNED_SIGNATURE.slice(10)}`,
      'standard alphabet': PINNED_SIGNATURE.replaceAll('-', '+').replaceAll('_', '/'),
      truncated: PINNED_SIGNATURE.slice(0, -2),
      'non-zero trailing bits': `${PINNED_SIGNATURE.slice(0, -1)}B`,
    };
    expect(PINNED_SIGNATURE).toMatch(/[-_]/); // the alphabet case changes something
    for (const [name, spelling] of Object.entries(spellings)) {
      expect(authorize(spelling), name).toMatchObject({ ok: false, code: 'unauthorized' });
    }
  });

  it('refuses another tenant (403) and an unknown revoker (401)', () => {
    expect(authorize(PINNED_SIGNATURE, { tenant: 'tenant-b' })).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    const unknown = authorizeRevocation({
      headers: { issuerId: ISSUER, timestamp: AT, signature: PINNED_SIGNATURE },
      revoker: undefined,
      tenant: 'tenant-a',
      receiptId: RECEIPT,
      now: new Date(AT),
      skewSeconds: 300,
    });
    expect(unknown).toMatchObject({ ok: false, code: 'unauthorized' });
  });
});
