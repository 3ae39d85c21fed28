import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../src/webhook.js';

/** verifyWebhook against deliveries signed by node:crypto, an independent Ed25519 implementation. */

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const jwk = publicKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string };
const jwks = { keys: [{ ...jwk, alg: 'EdDSA', use: 'sig', kid: 'k' }] };
const whpk = `whpk_${Buffer.from(jwk.x, 'base64url').toString('base64')}`;
const now = new Date('2026-03-01T12:00:00Z');
const ts = Math.floor(now.getTime() / 1000);
const body = '{"type":"webhook.test","timestamp":"2026-03-01T12:00:00.000Z","data":{"n":1}}';

function signed(id: string, timestamp: number, text: string, key = privateKey): string {
  return `v1a,${sign(null, Buffer.from(`${id}.${timestamp}.${text}`), key).toString('base64')}`;
}

const headers = (signature: string, timestamp = ts, id = 'evt-1') => ({
  'Webhook-Id': id,
  'webhook-timestamp': String(timestamp),
  'webhook-signature': signature,
});

describe('verifyWebhook', () => {
  it('accepts a delivery under a JWK Set, a JWK or a whpk_ key, and returns its id and body', () => {
    for (const keys of [jwks, jwks.keys[0], [whpk]]) {
      const result = verifyWebhook({
        body,
        headers: headers(signed('evt-1', ts, body)),
        keys,
        now,
      });
      expect(result).toEqual({ id: 'evt-1', timestamp: ts, payload: JSON.parse(body) });
    }
  });

  it('finds the v1a signature among several (a v1 HMAC, an old key)', () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const header = `v1,AAAA ${signed('evt-1', ts, body, other)} ${signed('evt-1', ts, body)}`;
    expect(verifyWebhook({ body, headers: headers(header), keys: jwks, now }).id).toBe('evt-1');
  });

  it('refuses a tampered body, id or timestamp, and another key', () => {
    const good = signed('evt-1', ts, body);
    const cases = [
      { body: body.replace('"n":1', '"n":2'), headers: headers(good) },
      { body, headers: headers(good, ts, 'evt-2') },
      { body, headers: headers(good, ts + 1) },
      {
        body,
        headers: headers(signed('evt-1', ts, body, generateKeyPairSync('ed25519').privateKey)),
      },
    ];
    for (const c of cases)
      expect(() => verifyWebhook({ ...c, keys: jwks, now })).toThrow(WebhookVerificationError);
  });

  it('refuses a timestamp more than five minutes from now, either way', () => {
    for (const offset of [-301, 301]) {
      const t = ts + offset;
      expect(() =>
        verifyWebhook({ body, headers: headers(signed('evt-1', t, body), t), keys: jwks, now }),
      ).toThrow(offset < 0 ? /too old/ : /too new/);
    }
    const t = ts - 299;
    expect(
      verifyWebhook({ body, headers: headers(signed('evt-1', t, body), t), keys: jwks, now }).id,
    ).toBe('evt-1');
  });

  it('refuses missing headers, a dotted id, no usable key and an oversized body', () => {
    const good = signed('evt-1', ts, body);
    expect(() => verifyWebhook({ body, headers: {}, keys: jwks, now })).toThrow(/missing/);
    expect(() =>
      verifyWebhook({
        body,
        headers: headers(signed('a.b', ts, body), ts, 'a.b'),
        keys: jwks,
        now,
      }),
    ).toThrow(/"\."/);
    expect(() => verifyWebhook({ body, headers: headers(good), keys: { keys: [] }, now })).toThrow(
      /no Ed25519 key/,
    );
    expect(() =>
      verifyWebhook({ body: 'x'.repeat(300_000), headers: headers(good), keys: jwks, now }),
    ).toThrow(/too large/);
  });

  it('checks the key it is given, not one the request names', () => {
    // a key of the sender's choosing in the body or headers changes nothing: only `keys` counts
    const attacker = generateKeyPairSync('ed25519');
    const x = (attacker.publicKey.export({ format: 'jwk' }) as { x: string }).x;
    const forged = `{"key":"${x}"}`;
    expect(() =>
      verifyWebhook({
        body: forged,
        headers: headers(signed('evt-1', ts, forged, attacker.privateKey)),
        keys: jwks,
        now,
      }),
    ).toThrow(WebhookVerificationError);
  });
});
