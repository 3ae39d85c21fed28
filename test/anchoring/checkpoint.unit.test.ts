import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  formatCheckpoint,
  parseCheckpoint,
  signCheckpoint,
  verifyCheckpoint,
  type Checkpoint,
} from '../../src/anchoring/checkpoint.js';
import { keyId, openNote, signNote, type NoteSigner } from '../../src/anchoring/signed-note.js';
import { item, sampleLeaves } from './reference.js';

/** A NoteSigner over a node:crypto Ed25519 key, as the service will plug in its own key. */
function nodeSigner(keyName: string, privateKey: KeyObject): NoteSigner {
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    keyName,
    publicKey: new Uint8Array(Buffer.from(jwk.x as string, 'base64url')),
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

const freshSigner = (keyName = 'example.com/log'): NoteSigner =>
  nodeSigner(keyName, generateKeyPairSync('ed25519').privateKey);

const checkpoint: Checkpoint = {
  origin: 'example.com/log',
  treeSize: 20852163,
  rootHash: item(sampleLeaves(1), 0),
};

const rejectsWith = (code: string, action: () => unknown): void => {
  expect(action).toThrow(expect.objectContaining({ name: 'CheckpointError', code }));
};

describe('formatCheckpoint / parseCheckpoint', () => {
  it('writes origin, decimal size and standard base64 root, each ending in a newline', () => {
    const root = Buffer.from(checkpoint.rootHash).toString('base64');
    expect(root).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(formatCheckpoint(checkpoint)).toBe(`example.com/log\n20852163\n${root}\n`);
    expect(formatCheckpoint({ ...checkpoint, treeSize: 0 })).toBe(`example.com/log\n0\n${root}\n`);
  });

  it('parses what it formats', () => {
    expect(parseCheckpoint(formatCheckpoint(checkpoint))).toEqual(checkpoint);
  });

  it.each([
    ['a missing final newline', (t: string) => t.slice(0, -1)],
    ['an extension line', (t: string) => `${t}extension\n`],
    ['a leading zero in the size', (t: string) => t.replace('\n20852163\n', '\n020852163\n')],
    ['a signed size', (t: string) => t.replace('\n20852163\n', '\n+20852163\n')],
    ['an unsafe size', (t: string) => t.replace('\n20852163\n', '\n9007199254740993\n')],
    ['an empty origin', (t: string) => t.replace('example.com/log', '')],
    ['a control character', (t: string) => t.replace('example', 'exa\u0007mple')],
    ['a short root', (t: string) => t.replace(/\n[^\n]+\n$/, '\nAAAA\n')],
    ['unpadded base64', (t: string) => t.replace(/=\n$/, '\n')],
    ['url-safe base64', (t: string) => t.replace(/\n[^\n]+\n$/, `\n${'_'.repeat(43)}=\n`)],
  ])('rejects %s', (_name, mangle) => {
    rejectsWith('malformed_checkpoint', () =>
      parseCheckpoint(mangle(formatCheckpoint(checkpoint))),
    );
  });

  it('refuses to format what the note text cannot carry', () => {
    for (const bad of [
      { ...checkpoint, origin: '' },
      { ...checkpoint, origin: 'a\nb' },
      { ...checkpoint, origin: 'tab\there' },
      { ...checkpoint, treeSize: -1 },
      { ...checkpoint, treeSize: 1.5 },
      { ...checkpoint, rootHash: new Uint8Array(31) },
    ]) {
      rejectsWith('invalid_input', () => formatCheckpoint(bad));
    }
  });
});

describe('signCheckpoint / verifyCheckpoint', () => {
  it('round-trips and has the signed-note layout with an Ed25519 key ID', async () => {
    const signer = freshSigner();
    const note = await signCheckpoint(checkpoint, signer);
    const body = formatCheckpoint(checkpoint);
    expect(note.startsWith(`${body}\n\u2014 example.com/log `)).toBe(true);
    expect(note).toMatch(/\n\n\u2014 example\.com\/log [A-Za-z0-9+/]{91}=\n$/);
    const blob = Buffer.from(note.slice(body.length + 1).split(' ')[2] as string, 'base64');
    const expectedId = createHash('sha256')
      .update('example.com/log\n\x01')
      .update(signer.publicKey)
      .digest()
      .subarray(0, 4);
    expect(blob.subarray(0, 4)).toEqual(expectedId);
    expect(blob).toHaveLength(68);
    expect(verifyCheckpoint(note, signer)).toEqual(checkpoint);
  });

  it('rejects a tampered body', async () => {
    const signer = freshSigner();
    const note = await signCheckpoint(checkpoint, signer);
    rejectsWith('invalid_signature', () =>
      verifyCheckpoint(note.replace('20852163', '20852164'), signer),
    );
    rejectsWith('invalid_signature', () =>
      verifyCheckpoint(note.replace('example', 'exampla'), signer),
    );
  });

  it('rejects a tampered signature', async () => {
    const signer = freshSigner();
    const note = await signCheckpoint(checkpoint, signer);
    const [head, blob] = [note.slice(0, -93), note.slice(-93, -1)];
    const bytes = Buffer.from(blob, 'base64');
    bytes[40] = (bytes[40] as number) ^ 1;
    rejectsWith('invalid_signature', () =>
      verifyCheckpoint(`${head}${bytes.toString('base64')}\n`, signer),
    );
  });

  it('rejects the wrong key and the wrong key name', async () => {
    const signer = freshSigner();
    const note = await signCheckpoint(checkpoint, signer);
    rejectsWith('unknown_key', () => verifyCheckpoint(note, freshSigner()));
    rejectsWith('unknown_key', () =>
      verifyCheckpoint(note, { keyName: 'example.com/other', publicKey: signer.publicKey }),
    );
  });

  it('rejects a signature with the trusted name and key ID but another key', async () => {
    const signer = freshSigner();
    const forger = freshSigner();
    const forged = await signCheckpoint(checkpoint, { ...forger, publicKey: signer.publicKey });
    rejectsWith('invalid_signature', () => verifyCheckpoint(forged, signer));
  });

  it('ignores signatures by other keys, such as witness cosignatures', async () => {
    const signer = freshSigner();
    const witness = freshSigner('witness.example/w1');
    const note = await signCheckpoint(checkpoint, signer);
    const cosigned = await signNote(formatCheckpoint(checkpoint), witness);
    const both = `${note}${cosigned.slice(cosigned.lastIndexOf('\u2014'))}`;
    expect(verifyCheckpoint(both, signer)).toEqual(checkpoint);
    expect(verifyCheckpoint(both, witness)).toEqual(checkpoint);
  });

  it.each([
    ['no blank line', (n: string) => n.replace('\n\n', '\n')],
    ['no final newline', (n: string) => n.slice(0, -1)],
    ['a hyphen instead of the em dash', (n: string) => n.replace('\u2014', '-')],
    ['a control character', (n: string) => n.replace('example.com/log\n', 'example.com/log\r\n')],
    ['non-canonical base64', (n: string) => n.replace(/=\n$/, '\n')],
    ['a blank signature line', (n: string) => `${n}\n`],
  ])('rejects a note with %s', async (_name, mangle) => {
    const signer = freshSigner();
    const note = await signCheckpoint(checkpoint, signer);
    rejectsWith('malformed_note', () => verifyCheckpoint(mangle(note), signer));
  });

  it('rejects a well-signed note whose text is not a checkpoint', async () => {
    const signer = freshSigner();
    const note = await signNote('hello\n', signer);
    rejectsWith('malformed_checkpoint', () => verifyCheckpoint(note, signer));
  });

  it('refuses key names with spaces or plus, and signers returning bad signatures', async () => {
    const signer = freshSigner();
    for (const keyName of ['', 'a b', 'a+b']) {
      await expect(signCheckpoint(checkpoint, { ...signer, keyName })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    }
    const broken = { ...signer, sign: () => new Uint8Array(63) };
    await expect(signCheckpoint(checkpoint, broken)).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});

describe('interoperability with golang.org/x/mod/sumdb/note', () => {
  // The example of the package documentation (note.go) and its tests (note_test.go).
  const skey = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
  const vkey = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
  const text =
    'If you think cryptography is the answer to your problem,\n' +
    "then you don't know what your problem is.\n";
  const note =
    `${text}\n` +
    '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
  // Both keys end in base64(0x01 || 32 bytes), the seed or the public key; base64 may contain '+'.
  const keyBytes = (key: string, fields: number): Buffer =>
    Buffer.from(key.split('+').slice(fields).join('+'), 'base64').subarray(1);
  const seed = keyBytes(skey, 4);
  const publicKey = new Uint8Array(keyBytes(vkey, 2));
  const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  const privateKey = createPrivateKey({
    key: Buffer.concat([pkcs8Prefix, seed]),
    format: 'der',
    type: 'pkcs8',
  });

  it('derives the same key ID', () => {
    expect(Buffer.from(keyId('PeterNeumann', publicKey)).toString('hex')).toBe('c74f20a3');
  });

  it('produces the same signed note byte for byte', async () => {
    const signer = nodeSigner('PeterNeumann', privateKey);
    expect(signer.publicKey).toEqual(publicKey);
    expect(await signNote(text, signer)).toBe(note);
  });

  it('opens the Go note and rejects a modified one', () => {
    expect(openNote(note, { keyName: 'PeterNeumann', publicKey })).toBe(text);
    rejectsWith('invalid_signature', () =>
      openNote(note.replace('cryptography', 'cryptographY'), {
        keyName: 'PeterNeumann',
        publicKey,
      }),
    );
  });
});
