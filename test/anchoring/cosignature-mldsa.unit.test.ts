import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import { describe, expect, it } from 'vitest';
import { openNote, signNote } from '../../src/anchoring/signed-note.js';
import { parseWitness, validCosignature } from '../../src/anchoring/witness/cosignature.js';
import { rfc8032Test1Pem } from '../helpers/keys.js';

/**
 * The log's check of an ML-DSA-44 witness's answer (c2sp.org/tlog-cosignature type 0x06): the
 * cosigned_message is laid out here by hand from the spec; the signature comes from the same
 * FIPS 204 library, which packages/verify/test/log/mldsa.unit.test.ts checks against NIST's
 * vectors.
 */

const ORIGIN = 'example.com/log';
const BODY = `${ORIGIN}\n5\n${Buffer.alloc(32, 3).toString('base64')}\n`;
const NAME = 'example.com/pq-witness';
const { publicKey, secretKey } = ml_dsa44.keygen(new Uint8Array(32).fill(5));
const keyId = createHash('sha256')
  .update(`${NAME}\n`)
  .update(Buffer.of(6))
  .update(publicKey)
  .digest()
  .subarray(0, 4);
const vkey = `${NAME}+${keyId.toString('hex')}+${Buffer.concat([Buffer.of(6), publicKey]).toString('base64')}`;

function line(timestamp: bigint, options: { size?: bigint; flip?: boolean } = {}): string {
  const u64 = (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(n);
    return b;
  };
  const message = Buffer.concat([
    Buffer.from('subtree/v1\n\0', 'latin1'),
    Buffer.of(NAME.length),
    Buffer.from(NAME),
    u64(timestamp),
    Buffer.of(ORIGIN.length),
    Buffer.from(ORIGIN),
    u64(0n),
    u64(options.size ?? 5n),
    Buffer.alloc(32, 3),
  ]);
  const signature = Buffer.from(ml_dsa44.sign(message, secretKey));
  if (options.flip) signature.writeUInt8((signature.at(7) as number) ^ 1, 7);
  return `\u2014 ${NAME} ${Buffer.concat([keyId, u64(timestamp), signature]).toString('base64')}`;
}

describe('ML-DSA-44 witnesses of the log', () => {
  const witness = parseWitness(`${vkey}@https://witness.example`);

  it('WITNESSES takes a type 0x06 vkey', () => {
    expect(witness).toMatchObject({
      name: NAME,
      type: 'ml-dsa-44',
      url: 'https://witness.example',
    });
    expect(witness?.publicKey.length).toBe(1312);
  });

  it('accepts its valid cosignature, and refuses a flipped bit, another size, no time', () => {
    if (!witness) throw new Error('witness');
    const good = line(1700000000n);
    expect(validCosignature(good, witness, BODY)).toEqual({ line: good, timestamp: 1700000000n });
    expect(validCosignature(line(1700000000n, { flip: true }), witness, BODY)).toBeUndefined();
    expect(validCosignature(line(1700000000n, { size: 6n }), witness, BODY)).toBeUndefined();
    expect(validCosignature(line(0n), witness, BODY)).toBeUndefined();
    expect(validCosignature(line(2n ** 63n), witness, BODY)).toBeUndefined();
    const [dash, name, b64] = good.split(' ') as [string, string, string];
    const truncated = Buffer.from(b64, 'base64')
      .subarray(0, 4 + 8 + 64)
      .toString('base64');
    expect(validCosignature(`${dash} ${name} ${truncated}`, witness, BODY)).toBeUndefined();
  });

  it('a note with the log signature and 16 ML-DSA cosignatures opens with the log key', async () => {
    const key = createPrivateKey(rfc8032Test1Pem());
    const raw = Buffer.from(
      createPublicKey(key).export({ format: 'jwk' }).x as string,
      'base64url',
    );
    const signer = {
      keyName: ORIGIN,
      publicKey: new Uint8Array(raw),
      sign: (m: Uint8Array) => new Uint8Array(sign(null, m, key)),
    };
    const signed = await signNote(BODY, signer);
    const note = signed + Array.from({ length: 16 }, () => `${line(1700000000n)}\n`).join('');
    expect(openNote(note, { keyName: ORIGIN, publicKey: signer.publicKey })).toBe(BODY);
  });
});
