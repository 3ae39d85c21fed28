import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import { describe, expect, it } from 'vitest';
import { countCosignatures, parseCosignerKey } from '../../src/log/cosignature.js';
import { formatVerifierKey, openNote, parseVerifierKey } from '../../src/log/note.js';
import { mlDsa44Verify } from '../../src/primitives.js';
import type { PinnedWitness } from '../../src/trust.js';
import { fixture } from '../helpers.js';

/**
 * ML-DSA-44 (FIPS 204) in the verifier: the library it uses against NIST's known-answer
 * vectors (ACVP-Server, fixtures/fips204: key generation from a seed, a deterministic
 * signature), and C2SP tlog-cosignature type 0x06 cosignatures, whose signed message the tests
 * lay out byte by byte from the spec, on notes with many large signatures.
 */

const hexBytes = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

describe('FIPS 204 known answers (NIST ACVP-Server, ML-DSA-44)', () => {
  it('keyGen: the seed of tcId 1 gives NIST’s public and secret key', () => {
    const kat = fixture<Record<string, string>>('fips204/keygen-44.json');
    const keys = ml_dsa44.keygen(hexBytes(kat.seed as string));
    expect(Buffer.from(keys.publicKey).toString('hex').toUpperCase()).toBe(kat.pk);
    expect(Buffer.from(keys.secretKey).toString('hex').toUpperCase()).toBe(kat.sk);
  });

  it('sigGen (deterministic, Sign_internal): NIST’s signature, which verifies; one flipped bit does not', () => {
    const kat = fixture<Record<string, string>>('fips204/siggen-44.json');
    const [sk, pk, message] = [kat.sk, kat.pk, kat.message].map((h) => hexBytes(h as string)) as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    const signature = ml_dsa44.internal.sign(message, sk, { extraEntropy: false });
    expect(Buffer.from(signature).toString('hex').toUpperCase()).toBe(kat.signature);
    expect(ml_dsa44.getPublicKey(sk)).toEqual(pk);
    expect(ml_dsa44.internal.verify(signature, message, pk)).toBe(true);
    const flipped = Uint8Array.from(signature);
    flipped[1000] = (flipped[1000] as number) ^ 1;
    expect(ml_dsa44.internal.verify(flipped, message, pk)).toBe(false);
  });

  it('mlDsa44Verify: the pure variant with an empty context, false for wrong sizes', () => {
    const { publicKey, secretKey } = ml_dsa44.keygen(new Uint8Array(32).fill(7));
    const message = new TextEncoder().encode('receipt');
    const signature = ml_dsa44.sign(message, secretKey);
    expect(mlDsa44Verify(signature, message, publicKey)).toBe(true);
    expect(mlDsa44Verify(signature.subarray(1), message, publicKey)).toBe(false);
    expect(mlDsa44Verify(signature, message, publicKey.subarray(1))).toBe(false);
    const withContext = ml_dsa44.sign(message, secretKey, { context: Uint8Array.of(1) });
    expect(mlDsa44Verify(withContext, message, publicKey)).toBe(false);
  });
});

const ORIGIN = 'example.com/pq-log';
const TEXT = `${ORIGIN}\n20852163\n${Buffer.alloc(32, 9).toString('base64')}\n`;

/** cosigned_message of tlog-cosignature, laid out by hand for a checkpoint (start 0). */
function subtreeMessage(name: string, timestamp: bigint, size: bigint, root: Buffer): Buffer {
  const u64 = (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(n);
    return b;
  };
  return Buffer.concat([
    Buffer.from('subtree/v1\n\0', 'latin1'),
    Buffer.of(Buffer.byteLength(name)),
    Buffer.from(name),
    u64(timestamp),
    Buffer.of(Buffer.byteLength(ORIGIN)),
    Buffer.from(ORIGIN),
    u64(0n),
    u64(size),
    root,
  ]);
}

function pqWitness(i: number) {
  const name = `pq${i}.example/w`;
  const { publicKey, secretKey } = ml_dsa44.keygen(new Uint8Array(32).fill(i + 1));
  const id = createHash('sha256').update(`${name}\n`).update(Buffer.of(6)).update(publicKey);
  const keyId = id.digest().subarray(0, 4);
  const vkey = `${name}+${keyId.toString('hex')}+${Buffer.concat([Buffer.of(6), publicKey]).toString('base64')}`;
  const line = (timestamp: bigint, size = 20852163n, sizeOfBlob?: number) => {
    const signature = ml_dsa44.sign(
      subtreeMessage(name, timestamp, size, Buffer.alloc(32, 9)),
      secretKey,
    );
    const ts = Buffer.alloc(8);
    ts.writeBigUInt64BE(timestamp);
    const blob = Buffer.concat([keyId, ts, signature]).subarray(0, sizeOfBlob);
    return `\u2014 ${name} ${blob.toString('base64')}`;
  };
  return { name, vkey, line };
}

function edWitness(i: number) {
  const name = `ed${i}.example/w`;
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  const keyId = createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.of(4))
    .update(raw)
    .digest()
    .subarray(0, 4);
  const vkey = `${name}+${keyId.toString('hex')}+${Buffer.concat([Buffer.of(4), raw]).toString('base64')}`;
  const ts = Buffer.alloc(8);
  ts.writeBigUInt64BE(1700000000n);
  const sig = sign(null, Buffer.from(`cosignature/v1\ntime 1700000000\n${TEXT}`), privateKey);
  return {
    name,
    vkey,
    line: `\u2014 ${name} ${Buffer.concat([keyId, ts, sig]).toString('base64')}`,
  };
}

function logSigned(lines: string[]) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = new Uint8Array(
    Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url'),
  );
  const key = parseVerifierKey(formatVerifierKey(ORIGIN, raw));
  if (!key) throw new Error('vkey');
  const blob = Buffer.concat([key.keyId, sign(null, Buffer.from(TEXT), privateKey)]);
  const note = `${TEXT}\n\u2014 ${ORIGIN} ${blob.toString('base64')}\n${lines.map((l) => `${l}\n`).join('')}`;
  return { note, key };
}

const pinned = (vkey: string): PinnedWitness => {
  const w = parseCosignerKey(vkey);
  if (!w) throw new Error(`not a cosigner vkey: ${vkey.slice(0, 40)}`);
  return w;
};

describe('ML-DSA-44 cosignatures (tlog-cosignature type 0x06)', () => {
  const pq = Array.from({ length: 16 }, (_, i) => pqWitness(i));
  const ed = Array.from({ length: 4 }, (_, i) => edWitness(i));

  it('a vkey of type 0x06 carries a 1312-byte key; a wrong key ID or size is refused', () => {
    const w = pinned(pq[0]!.vkey);
    expect(w).toMatchObject({ name: pq[0]!.name, type: 'ml-dsa-44' });
    expect(w.publicKey.length).toBe(1312);
    expect(parseCosignerKey(pq[0]!.vkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+'))).toBeUndefined();
    const [name, id, b64] = pq[0]!.vkey.split('+') as [string, string, string];
    const short = Buffer.from(b64, 'base64').subarray(0, 1000).toString('base64');
    expect(parseCosignerKey(`${name}+${id}+${short}`)).toBeUndefined();
  });

  it('a note with the log signature and 20 cosignatures (16 ML-DSA, 4 Ed25519) opens, and all 20 count', () => {
    const { note, key } = logSigned([
      ...pq.map((w) => w.line(1700000000n)),
      ...ed.map((w) => w.line),
    ]);
    expect(note.length).toBeGreaterThan(16 * 3248);
    const opened = openNote(note, key);
    expect(opened).toEqual({ ok: true, text: TEXT });
    const witnesses = [...pq, ...ed].map((w) => pinned(w.vkey));
    const counted = countCosignatures(note, TEXT, witnesses);
    expect(counted.invalid).toEqual([]);
    expect(counted.valid.sort()).toEqual([...pq, ...ed].map((w) => w.name).sort());
  });

  it('an ML-DSA cosignature over another tree size, or a flipped bit, is invalid', () => {
    const w = pq[1]!;
    const otherSize = logSigned([w.line(1700000000n, 20852164n)]);
    expect(countCosignatures(otherSize.note, TEXT, [pinned(w.vkey)])).toEqual({
      valid: [],
      invalid: [w.name],
    });
    const line = w.line(1700000000n);
    const blob = Buffer.from(line.split(' ')[2] as string, 'base64');
    blob.writeUInt8((blob.at(-1) as number) ^ 0x80, blob.length - 1);
    const flipped = logSigned([`\u2014 ${w.name} ${blob.toString('base64')}`]);
    expect(countCosignatures(flipped.note, TEXT, [pinned(w.vkey)]).invalid).toEqual([w.name]);
  });

  it('a timestamp above 2^63 - 1 is invalid; 0 (no statement of time) is accepted', () => {
    const w = pq[2]!;
    const late = logSigned([w.line(2n ** 63n)]);
    expect(countCosignatures(late.note, TEXT, [pinned(w.vkey)]).invalid).toEqual([w.name]);
    const timeless = logSigned([w.line(0n)]);
    expect(countCosignatures(timeless.note, TEXT, [pinned(w.vkey)]).valid).toEqual([w.name]);
  });

  it('a line under the witness’s name and key ID with an Ed25519-sized blob is not its line', () => {
    const w = pq[3]!;
    const short = logSigned([w.line(1700000000n, 20852163n, 4 + 8 + 64)]);
    expect(countCosignatures(short.note, TEXT, [pinned(w.vkey)])).toEqual({
      valid: [],
      invalid: [],
    });
  });

  it('an Ed25519 cosignature does not count for an ML-DSA witness of the same name', () => {
    const name = 'same.example/w';
    const e = edWitness(9);
    const renamed = e.line.replace(e.name, name);
    const p = pqWitness(20);
    const vkey = p.vkey.replace(p.name, name);
    // the key ID no longer matches the renamed vkey: parse refuses it rather than mix types
    expect(parseCosignerKey(vkey)).toBeUndefined();
    expect(countCosignatures(logSigned([renamed]).note, TEXT, [pinned(p.vkey)]).valid).toEqual([]);
  });
});

describe('interoperability', () => {
  it('cosignatures made by OpenSSL (Python cryptography) count: Ed25519 and ML-DSA-44', () => {
    const made = fixture<{ note: string; vkeys: string[] }>('fips204/cosigned-note.json');
    const text = made.note.slice(0, made.note.lastIndexOf('\n\n') + 1);
    const witnesses = made.vkeys.map(pinned);
    expect(witnesses.map((w) => w.type)).toEqual(['ed25519', 'ml-dsa-44']);
    expect(countCosignatures(made.note, text, witnesses)).toEqual({
      valid: ['fuzz.example/ed', 'fuzz.example/pq'],
      invalid: [],
    });
  });
});
