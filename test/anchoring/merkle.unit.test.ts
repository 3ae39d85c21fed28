import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appendLeaves } from '../../src/anchoring/compact-range.js';
import {
  EMPTY_ROOT,
  leafHash,
  nodeHash,
  rootHash,
  verifyConsistency,
  verifyInclusion,
} from '../../src/anchoring/merkle.js';
import { consistencyProof, inclusionProof } from '../../src/anchoring/proofs.js';
import { hashFromWire, hashToWire, proofFromWire, proofToWire } from '../../src/anchoring/wire.js';
import { MemoryNodeStore } from '../../src/anchoring/node-store.js';
import { item, referenceRoot, sampleLeaves, seededRandom, storeOf } from './reference.js';

const hex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

/**
 * Known-answer vectors of the RFC 6962 / RFC 9162 tree used by transparency-dev/merkle,
 * proof/verify_test.go (inclusionProofs, consistencyProofs, roots, leaves). Leaf numbers there
 * are 1-based; `index` below is 0-based.
 */
const KAT_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map(hex);
const KAT_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
].map(hex);
const KAT_INCLUSION = [
  { index: 0, size: 1, proof: [] },
  {
    index: 0,
    size: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    index: 2,
    size: 3,
    proof: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'],
  },
  {
    index: 1,
    size: 5,
    proof: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
];
const KAT_CONSISTENCY = [
  { m: 1, n: 1, proof: [] },
  {
    m: 1,
    n: 8,
    proof: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    m: 6,
    n: 8,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  {
    m: 2,
    n: 5,
    proof: [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
  {
    m: 6,
    n: 7,
    proof: [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
];

const sha256 = (...parts: Uint8Array[]): Uint8Array => {
  const hash = createHash('sha256');
  parts.forEach((part) => hash.update(part));
  return new Uint8Array(hash.digest());
};

describe('RFC 9162 hashing', () => {
  it('hashes leaves and nodes with the 0x00 / 0x01 domain prefixes', () => {
    const a = hex('0102');
    const b = sha256(hex('ff'));
    expect(leafHash(a)).toEqual(sha256(hex('00'), a));
    expect(nodeHash(a, b)).toEqual(sha256(hex('01'), a, b));
  });

  it('has the SHA-256 of the empty string as the empty-tree root', () => {
    expect(hashToWire(EMPTY_ROOT)).toBe(
      'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(rootHash([])).toEqual(EMPTY_ROOT);
  });

  it('matches the known roots of the 8-leaf test tree at every size', () => {
    const leaves = KAT_LEAVES.map(leafHash);
    KAT_ROOTS.forEach((root, i) => expect(rootHash(leaves.slice(0, i + 1))).toEqual(root));
  });

  it('agrees with the literal MTH recursion and the incremental root, sizes 1..300', async () => {
    const leaves = sampleLeaves(300);
    const store = new MemoryNodeStore();
    for (let size = 1; size <= 300; size += 1) {
      const expected = referenceRoot(leaves.slice(0, size));
      const appended = await appendLeaves(size - 1, leaves.slice(size - 1, size), store);
      store.put(appended.nodes);
      expect(appended.rootHash).toEqual(expected);
      expect(rootHash(leaves.slice(0, size))).toEqual(expected);
    }
  });

  it('agrees with the literal recursion for random sizes appended in random batches', async () => {
    const random = seededRandom(9162);
    for (let trial = 0; trial < 40; trial += 1) {
      const leaves = sampleLeaves(1 + random(2000));
      const store = await storeOf(leaves, () => 1 + random(97));
      const { rootHash: root } = await appendLeaves(leaves.length, [], store);
      expect(root).toEqual(referenceRoot(leaves));
    }
  });
});

describe('known-answer proofs (transparency-dev/merkle test vectors)', () => {
  const leaves = KAT_LEAVES.map(leafHash);

  it.each(KAT_INCLUSION)(
    'inclusion of leaf $index in tree $size',
    async ({ index, size, proof }) => {
      const store = await storeOf(leaves.slice(0, size));
      const generated = await inclusionProof(index, size, store);
      expect(generated).toEqual(proof.map(hex));
      const root = item(KAT_ROOTS, size - 1);
      expect(verifyInclusion(item(leaves, index), index, size, generated, root)).toBe(true);
    },
  );

  it.each(KAT_CONSISTENCY)('consistency $m -> $n', async ({ m, n, proof }) => {
    const store = await storeOf(leaves.slice(0, n));
    const generated = await consistencyProof(m, n, store);
    expect(generated).toEqual(proof.map(hex));
    const [rootM, rootN] = [item(KAT_ROOTS, m - 1), item(KAT_ROOTS, n - 1)];
    expect(verifyConsistency(m, n, rootM, rootN, generated)).toBe(true);
  });
});

describe('sha256: wire form', () => {
  it('round-trips hashes and proofs', () => {
    const proof = sampleLeaves(3);
    expect(proofFromWire(proofToWire(proof))).toEqual(proof);
    expect(hashToWire(item(proof, 0))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it.each([
    ['uppercase hex', `sha256:${'A'.repeat(64)}`],
    ['missing prefix', 'a'.repeat(64)],
    ['short', `sha256:${'a'.repeat(62)}`],
    ['trailing newline', `sha256:${'a'.repeat(64)}\n`],
  ])('rejects %s', (_name, wire) => {
    expect(() => hashFromWire(wire)).toThrow(expect.objectContaining({ code: 'malformed_hash' }));
  });

  it('refuses to encode a hash that is not 32 bytes', () => {
    expect(() => hashToWire(new Uint8Array(31))).toThrow(
      expect.objectContaining({ code: 'malformed_hash' }),
    );
  });
});
