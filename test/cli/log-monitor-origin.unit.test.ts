import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/cli/log-monitor/audit.js';
import type { LogSource } from '../../src/cli/log-monitor/source.js';

/**
 * `receipts log verify` pins a log by its key, whose name is the log's origin: a checkpoint the
 * same key signed for another origin (a staging log, say) is not this log's, even when one name
 * starts with the other. The notes are written here by hand (C2SP signed-note, Ed25519).
 */
const NAME = 'monitor.test/log';
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const raw = Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url');
const keyId = createHash('sha256')
  .update(Buffer.concat([Buffer.from(`${NAME}\n`), Buffer.of(1), raw]))
  .digest()
  .subarray(0, 4);
const key = { name: NAME, keyId: new Uint8Array(keyId), publicKey: new Uint8Array(raw) };

/** The empty tree's checkpoint under `origin`, signed by the pinned key under its own name. */
function emptyCheckpoint(origin: string): string {
  const root = createHash('sha256').digest('base64');
  const text = `${origin}\n0\n${root}\n`;
  const signature = sign(null, Buffer.from(text), privateKey);
  return `${text}\n\u2014 ${NAME} ${Buffer.concat([keyId, signature]).toString('base64')}\n`;
}

const source = (note: string): LogSource => ({
  checkpoint: async () => note,
  vkey: async () => '',
  tile: async () => {
    throw new Error('an empty tree has no tiles');
  },
});

describe('receipts log verify: the origin', () => {
  it('accepts the pinned origin and refuses any other, a prefix or an extension included', async () => {
    expect(await auditLog(source(emptyCheckpoint(NAME)), key, undefined)).toMatchObject({
      ok: true,
      checkpoint: { origin: NAME, treeSize: 0 },
    });
    for (const origin of [`${NAME}-staging`, `${NAME}/2`, NAME.slice(0, -1), 'monitor.test']) {
      expect(await auditLog(source(emptyCheckpoint(origin)), key, undefined), origin).toEqual({
        ok: false,
        reason: `checkpoint origin ${origin} is not the key's name ${NAME}`,
      });
    }
  });
});
