import { createPrivateKey, createPublicKey, sign } from 'node:crypto';

/**
 * Seeds of the `webhook` fuzz target: deliveries signed by node:crypto (an independent Ed25519
 * implementation) with a fixed key, in the target's layout (id, timestamp and signature header
 * on three lines, then the body).
 */
const SEED = Buffer.alloc(32, 7);
const PRIVATE = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), SEED]),
  format: 'der',
  type: 'pkcs8',
});
const X = createPublicKey(PRIVATE).export({ format: 'jwk' }).x as string;

/** The pinned key, in its `whpk_` form. */
export const WEBHOOK_FUZZ_KEY = [`whpk_${Buffer.from(X, 'base64url').toString('base64')}`];

function delivery(id: string, timestamp: number, body: string, extra = ''): string {
  const signature = sign(null, Buffer.from(`${id}.${timestamp}.${body}`), PRIVATE).toString(
    'base64',
  );
  return `${id}\n${timestamp}\n${extra}v1a,${signature}\n${body}`;
}

export function webhookSeeds(): string[] {
  return [
    delivery(
      '0d9a6a2e-7f8b-4c1d-a2e3-f4a5b6c7d8e9',
      1_767_000_000,
      '{"type":"receipt.revoked","timestamp":"2026-02-01T09:00:00.000Z","data":{"receiptId":"x"}}',
    ),
    delivery(
      'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
      1_674_087_231,
      '{}',
      'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4= ',
    ),
    delivery('e', 1, ''),
  ];
}
