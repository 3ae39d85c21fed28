import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { signCheckpoint } from '../../../../src/anchoring/checkpoint.js';
import { appendLeaves } from '../../../../src/anchoring/compact-range.js';
import { leafHash } from '../../../../src/anchoring/merkle.js';
import { MemoryNodeStore } from '../../../../src/anchoring/node-store.js';
import { inclusionProof } from '../../../../src/anchoring/proofs.js';
import { verifierKey, type NoteSigner } from '../../../../src/anchoring/signed-note.js';
import { formatLogPolicy } from '../../../../src/anchoring/tlog-policy.js';
import { formatTlogProof } from '../../../../src/anchoring/tlog-proof.js';

/**
 * A log built with the service's own code (tree, checkpoint signing, proof and policy
 * formatting), without HTTP: what GET /log/policy and GET .../tlog-proof would serve.
 */

export const ORIGIN = 'receipts.test/log';

interface Key {
  name: string;
  publicKey: Uint8Array;
  privateKey: ReturnType<typeof createPrivateKey>;
}

function key(name: string): Key {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x as string;
  return { name, publicKey: new Uint8Array(Buffer.from(x, 'base64url')), privateKey };
}

/** The cosigner vkey of a witness key (c2sp.org/tlog-cosignature, type 0x04). */
export function cosignerVkey(w: { name: string; publicKey: Uint8Array }): string {
  const raw = Buffer.concat([Buffer.of(4), w.publicKey]);
  const id = createHash('sha256').update(`${w.name}\n`).update(raw).digest().subarray(0, 4);
  return `${w.name}+${id.toString('hex')}+${raw.toString('base64')}`;
}

/** A `cosignature/v1` line by `w` over the checkpoint `body`. */
export function cosignatureLine(w: Key, body: string, time = 1_700_000_000n): string {
  const raw = Buffer.concat([Buffer.of(4), w.publicKey]);
  const id = createHash('sha256').update(`${w.name}\n`).update(raw).digest().subarray(0, 4);
  const signature = sign(null, Buffer.from(`cosignature/v1\ntime ${time}\n${body}`), w.privateKey);
  const stamp = Buffer.alloc(8);
  stamp.writeBigUInt64BE(time);
  return `\u2014 ${w.name} ${Buffer.concat([id, stamp, signature]).toString('base64')}`;
}

export interface ServiceLog {
  /** The 32-byte entries (receipt hashes) of the log. */
  entries: Uint8Array[];
  policy: string;
  /** The tlog-proof of entry `index`, its checkpoint cosigned by `cosigners` witnesses. */
  proof(index: number, cosigners?: number): Promise<string>;
  logKey: Key;
  witnesses: Key[];
}

/** A log of `size` entries, the first ones `first` (receipt hashes) when given. */
export async function serviceLog(
  size: number,
  witnessCount: number,
  quorum: number,
  first: readonly Uint8Array[] = [],
) {
  const logKey = key(ORIGIN);
  const witnesses = Array.from({ length: witnessCount }, (_, i) => key(`w${i}.test`));
  const entries = Array.from({ length: size }, (_, i) =>
    first[i] ? Buffer.from(first[i]) : createHash('sha256').update(`receipt ${i}`).digest(),
  );
  const store = new MemoryNodeStore();
  const appended = await appendLeaves(0, entries.map(leafHash), store);
  store.put(appended.nodes);
  const signer: NoteSigner = {
    keyName: ORIGIN,
    publicKey: logKey.publicKey,
    sign: (message) => new Uint8Array(sign(null, message, logKey.privateKey)),
  };
  const note = await signCheckpoint(
    { origin: ORIGIN, treeSize: size, rootHash: appended.rootHash },
    signer,
  );
  const body = note.slice(0, note.lastIndexOf('\n\n') + 1);
  const policy = formatLogPolicy({
    logVkey: verifierKey(signer),
    witnesses: witnesses.map((w) => ({ name: w.name, vkey: cosignerVkey(w) })),
    quorum,
  });
  const proof = async (index: number, cosigners = witnessCount): Promise<string> => {
    const lines = witnesses.slice(0, cosigners).map((w) => `${cosignatureLine(w, body)}\n`);
    const hashes = await inclusionProof(index, size, store);
    return formatTlogProof({ index, proof: hashes, checkpoint: `${note}${lines.join('')}` });
  };
  const hexOf = (h: Uint8Array) => `sha256:${Buffer.from(h).toString('hex')}`;
  /**
   * The bundle log entry of `index` as the service writes it, cosigned by the first `cosigners`
   * witnesses. `origin` signs the same tree under another origin line (the same key and key
   * name); `claimed` is the origin the entry names (by default the checkpoint's).
   */
  const logEntry = async (
    index: number,
    options: { cosigners?: number; origin?: string; claimed?: string } = {},
  ) => {
    const { cosigners = witnessCount, origin = ORIGIN } = options;
    const claimed = options.claimed ?? origin;
    const signed =
      origin === ORIGIN
        ? note
        : await signCheckpoint({ origin, treeSize: size, rootHash: appended.rootHash }, signer);
    const text = signed.slice(0, signed.lastIndexOf('\n\n') + 1);
    const lines = witnesses.slice(0, cosigners).map((w) => `${cosignatureLine(w, text)}\n`);
    return {
      origin: claimed,
      noteVerifierKey: verifierKey({ keyName: claimed, publicKey: logKey.publicKey }),
      leafVersion: 'rfc9162-sha256-v1',
      logIndex: index,
      treeSize: size,
      rootHash: hexOf(appended.rootHash),
      inclusionProof: (await inclusionProof(index, size, store)).map(hexOf),
      checkpoint: `${signed}${lines.join('')}`,
    };
  };
  return {
    entries: entries.map((e) => new Uint8Array(e)),
    policy,
    proof,
    logEntry,
    logKey,
    witnesses,
  };
}
