import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendLeaves,
  hashFromWire,
  MemoryNodeStore,
  verifyInclusion,
} from '../../src/anchoring/index.js';
import { encodeTileIndex } from '../../src/anchoring/tile-path.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import { consistency, expectedTile, path as inclusionPath } from '../helpers/merkle-reference.js';

/**
 * A tree of a random size near 100,000 written to the store as a seal writes it: every hash
 * tile of every level served over HTTP is what RFC 9162 gives, and proofs rebuilt from the
 * level-0 tiles equal the API's consistency proof.
 */

const SIZE = 99_000 + Math.floor(Math.random() * 2_000);
const FIRST = 65_537;
let ctx: TestContext;
let key: string;
const leaves = Array.from({ length: SIZE }, () => new Uint8Array(randomBytes(32)));

beforeAll(async () => {
  ctx = await createTestContext({ LOG_RATE_LIMIT_MAX: '1000000' });
  key = await ctx.apiKey(['read']);
  const memory = new MemoryNodeStore();
  for (const [from, to] of [
    [0, FIRST],
    [FIRST, SIZE],
  ] as const) {
    const appended = await appendLeaves(from, leaves.slice(from, to), memory);
    memory.put(appended.nodes);
    await ctx.repos.log.withSealLock(async (tx) => {
      await tx.recordLeaves({ firstIndex: from, entries: [], nodes: appended.nodes });
      await tx.recordCheckpoint({
        treeSize: to,
        rootHash: Buffer.from(appended.rootHash),
        note: 'unused\n',
      });
    });
  }
}, 120_000);
afterAll(async () => ctx.close());

const tile = (level: number, index: number, width: number) =>
  ctx.app.inject({
    url: `/log/tile/${level}/${encodeTileIndex(index)}${width === 256 ? '' : `.p/${width}`}`,
  });

const wire = (hash: Uint8Array) => `sha256:${Buffer.from(hash).toString('hex')}`;

describe(`tiles of a tree of ${SIZE} leaves`, () => {
  it('every tile of every level is the RFC 9162 subtree hashes', async () => {
    let served = 0;
    for (let level = 0; 256 ** level <= SIZE; level++) {
      const count = Math.floor(SIZE / 256 ** level);
      for (let index = 0; index * 256 < count; index++) {
        const width = Math.min(256, count - index * 256);
        const res = await tile(level, index, width);
        expect(res.statusCode, `level ${level} tile ${index}`).toBe(200);
        expect(res.rawPayload.equals(expectedTile(leaves, level, index, width))).toBe(true);
        served++;
      }
      const beyond = Math.ceil(count / 256);
      expect((await tile(level, beyond, 1)).statusCode).toBe(404);
    }
    // levels 0, 1 and 2: ceil(SIZE/256) + 2 + 1 tiles
    expect(served).toBe(Math.ceil(SIZE / 256) + 3);
  }, 120_000);

  it('proofs rebuilt from the level-0 tiles equal the API consistency proof', async () => {
    const fromTiles: Uint8Array[] = [];
    for (let index = 0; index * 256 < SIZE; index++) {
      const bytes = (await tile(0, index, Math.min(256, SIZE - index * 256))).rawPayload;
      for (let i = 0; i < bytes.length; i += 32) fromTiles.push(bytes.subarray(i, i + 32));
    }
    expect(fromTiles.length).toBe(SIZE);
    const res = await ctx.app.inject({
      url: `/api/v1/log/consistency?from=${FIRST}&to=${SIZE}`,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().proof).toEqual(consistency(FIRST, fromTiles).map(wire));
    // and an inclusion path recomputed from the tiles leads to the stored root
    const leaf = Math.floor(Math.random() * SIZE);
    const proof = inclusionPath(leaf, fromTiles);
    const root = hashFromWire(res.json().toRoot as string);
    expect(verifyInclusion(fromTiles[leaf] as Uint8Array, leaf, SIZE, proof, root)).toBe(true);
  }, 120_000);
});
