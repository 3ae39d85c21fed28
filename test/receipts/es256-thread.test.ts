import { sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { stopEs256Thread, verifyEs256 } from '../../src/receipts/es256-thread.js';
import { newKeyPair } from './checks/helpers.js';

const keys = newKeyPair();
const other = newKeyPair();

function es256(input: string, privateKeyPem: string): string {
  const options = { key: privateKeyPem, dsaEncoding: 'ieee-p1363' as const };
  return sign('sha256', Buffer.from(input), options).toString('base64url');
}

/** Forty checks: even ones signed by the registered key, odd ones by another key. */
function checks(): Array<Promise<boolean>> {
  return Array.from({ length: 40 }, (_, i) => {
    const input = `header.payload-${i}`;
    const signer = i % 2 === 0 ? keys : other;
    return verifyEs256(keys.publicKeyPem, input, es256(input, signer.privateKeyPem));
  });
}

const expected = Array.from({ length: 40 }, (_, i) => i % 2 === 0);

describe('ES256 checks on the worker thread', () => {
  it('accepts signatures by the key and refuses others and altered input', async () => {
    expect(await Promise.all(checks())).toEqual(expected);
    const signature = es256('signed input', keys.privateKeyPem);
    expect(await verifyEs256(keys.publicKeyPem, 'signed input!', signature)).toBe(false);
    expect(
      await verifyEs256(keys.publicKeyPem, 'signed input', Buffer.alloc(64).toString('base64url')),
    ).toBe(false);
  });

  it('gives the same answers when the thread stops with checks in hand, then starts again', async () => {
    const inHand = checks();
    await stopEs256Thread();
    expect(await Promise.all(inHand)).toEqual(expected);
    expect(await Promise.all(checks())).toEqual(expected);
  });
});
