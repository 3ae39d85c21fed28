import { describe, expect, it } from 'vitest';
import { signCheckpoint, verifyCheckpoint } from '../../src/anchoring/checkpoint.js';
import { noteSignerOf } from '../../src/services.js';
import { createSigner } from '../../src/receipts/signer.js';
import { ed25519Pem } from '../helpers/context.js';

/** Every signature line under the log's name and key id must verify, not just one of them. */
const ORIGIN = 'example.test/log';

describe('a checkpoint note with two signature lines by the log key', () => {
  it('is refused when one of them does not verify', async () => {
    const signer = noteSignerOf(createSigner(ed25519Pem()), ORIGIN);
    const key = { keyName: signer.keyName, publicKey: signer.publicKey };
    const note = await signCheckpoint(
      { origin: ORIGIN, treeSize: 3, rootHash: new Uint8Array(32) },
      signer,
    );
    expect(verifyCheckpoint(note, key).treeSize).toBe(3);
    const line = note.trimEnd().split('\n').pop() as string;
    const blob = Buffer.from(line.split(' ')[2] as string, 'base64');
    const forged = Buffer.concat([blob.subarray(0, 4), Buffer.alloc(64, 7)]).toString('base64');
    const twice = `${note}— ${ORIGIN} ${forged}\n`;
    expect(() => verifyCheckpoint(twice, key)).toThrow(/does not verify/);
    const forgedFirst = note.replace(`${line}\n`, `— ${ORIGIN} ${forged}\n${line}\n`);
    expect(() => verifyCheckpoint(forgedFirst, key)).toThrow(/does not verify/);
  });
});
