import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTileIndex } from '../../src/anchoring/tile-path.js';
import { openNote, parseCheckpointBody, parseVerifierKey } from '@verification-receipts/verify/log';
import { createTestContext, type TestContext } from '../helpers/context.js';
import {
  consistency,
  expectedTile,
  mth,
  path as inclusionPath,
  refLeafHash,
} from '../helpers/merkle-reference.js';
import { ciRequest } from './hostile/requests.js';

/**
 * The public log as a C2SP tlog-tiles log: at every tree size from 1 to 600 the checkpoint,
 * the hash tiles of every level and the entry bundles are exactly what RFC 9162 gives for the
 * receipts issued so far (computed here from their hashes, independently of the log's code).
 */

let ctx: TestContext;
let key: string;
const entries: Uint8Array[] = [];
const leaves: Uint8Array[] = [];
const ids: string[] = [];

beforeAll(async () => {
  // a monitor reads many tiles: lift the per-address limit of the log for this suite
  ctx = await createTestContext({ LOG_RATE_LIMIT_MAX: '1000000' });
  key = await ctx.apiKey(['read', 'anchor']);
});
afterAll(async () => ctx.close());

async function issueOne(): Promise<void> {
  const { record } = await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
  const entry = new Uint8Array(Buffer.from(record.receipt.receiptHash.slice(7), 'hex'));
  entries.push(entry);
  leaves.push(refLeafHash(entry));
  ids.push(record.id);
}

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

const tileUrl = (level: number | 'entries', index: number, width: number) =>
  `/log/tile/${level}/${encodeTileIndex(index)}${width === 256 ? '' : `.p/${width}`}`;

function entryBundle(from: number, width: number): Buffer {
  return Buffer.concat(
    entries.slice(from, from + width).map((e) => Buffer.concat([Buffer.of(0, e.length), e])),
  );
}

/**
 * The sizes the log is sealed (and its tiles checked) at: every size of the first tile and one
 * past it (each width of a partial level-0 tile and entry bundle, 1 to 256, and the first full
 * tile), then sizes the later tiles reach in larger steps, each side of the level-1 tile's
 * second hash (511 to 513), and the last two (the consistency proofs below start at each size
 * they name). The entries between are sealed in one batch.
 */
function sealedAt(size: number): boolean {
  return size <= 257 || size % 23 === 0 || (size >= 511 && size <= 513) || size >= 599;
}

/** Checks the rightmost tile of every level (and the one that just became full) at `size`. */
async function checkEdgeTiles(size: number): Promise<void> {
  for (let level = 0; 256 ** level <= size; level++) {
    const count = Math.floor(size / 256 ** level);
    const index = Math.floor((count - 1) / 256);
    const width = count - index * 256;
    const tile = await get(tileUrl(level, index, width));
    expect(tile.statusCode, `size ${size} level ${level}`).toBe(200);
    expect(tile.rawPayload.equals(expectedTile(leaves, level, index, width))).toBe(true);
    if (width < 256) {
      expect((await get(tileUrl(level, index, width + 1))).statusCode).toBe(404);
    }
  }
  const index = Math.floor((size - 1) / 256);
  const width = size - index * 256;
  const bundle = await get(tileUrl('entries', index, width));
  expect(bundle.statusCode).toBe(200);
  expect(bundle.rawPayload.equals(entryBundle(index * 256, width))).toBe(true);
}

describe('the public tlog-tiles log', () => {
  it('serves the signed checkpoint and the tiles of each size it is sealed at, 1 to 600', async () => {
    const vkeyRes = await get('/log/vkey');
    expect(vkeyRes.statusCode).toBe(200);
    expect(vkeyRes.headers['content-type']).toBe('text/plain; charset=utf-8');
    const vkey = parseVerifierKey(vkeyRes.body.trim());
    expect(vkey?.name).toBe(ctx.config.logOrigin);
    expect((await get('/log/checkpoint')).statusCode).toBe(404);
    expect((await get('/log/tile/0/000.p/1')).statusCode).toBe(404);

    for (let size = 1; size <= 600; size++) {
      await issueOne();
      if (!sealedAt(size)) continue;
      await ctx.app.services.anchoring.sealOnce();
      const res = await get('/log/checkpoint');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      const opened = openNote(res.body, vkey!);
      expect(opened.ok).toBe(true);
      const body = parseCheckpointBody(opened.ok ? opened.text : '');
      expect(body?.treeSize).toBe(size);
      expect(Buffer.from(body!.rootHash).equals(mth(leaves))).toBe(true);
      await checkEdgeTiles(size);
    }
  }, 120_000);

  it('serves every tile of the 600-entry tree, immutable, readable from any origin', async () => {
    const full = await get('/log/tile/0/000');
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('application/octet-stream');
    expect(full.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(full.headers['access-control-allow-origin']).toBe('*');
    expect(full.rawPayload.length).toBe(8192);
    for (const [level, index, width] of [
      [0, 0, 256],
      [0, 1, 256],
      [0, 2, 88],
      [1, 0, 2],
    ] as const) {
      const tile = await get(tileUrl(level, index, width));
      expect(tile.rawPayload.equals(expectedTile(leaves, level, index, width))).toBe(true);
    }
    // a partial tile of a size the log had stays available once the tile is full
    const older = await get(tileUrl(0, 0, 17));
    expect(older.rawPayload.equals(expectedTile(leaves, 0, 0, 17))).toBe(true);
    expect((await get('/log/tile/entries/001')).rawPayload.equals(entryBundle(256, 256))).toBe(
      true,
    );
    expect((await get('/log/tile/2/000.p/1')).statusCode).toBe(404);
    expect((await get('/log/tile/0/003')).statusCode).toBe(404);
    const checkpoint = await get('/log/checkpoint');
    expect(checkpoint.headers['cache-control']).toBe('public, max-age=5');
  });

  it('gives the same proofs, rebuilt from the tiles, as the API', async () => {
    const fromTiles: Uint8Array[] = [];
    for (const [index, width] of [
      [0, 256],
      [1, 256],
      [2, 88],
    ] as const) {
      const tile = (await get(tileUrl(0, index, width))).rawPayload;
      for (let i = 0; i < width; i++) fromTiles.push(tile.subarray(i * 32, i * 32 + 32));
    }
    for (const leaf of [0, 1, 255, 256, 257, 511, 512, 599]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/anchor/${ids[leaf]}`,
        headers: { 'x-api-key': key },
      });
      const proof = inclusionPath(leaf, fromTiles).map(
        (h) => `sha256:${Buffer.from(h).toString('hex')}`,
      );
      expect(res.json()).toMatchObject({ logIndex: leaf, treeSize: 600, inclusionProof: proof });
    }
    for (const from of [1, 37, 256, 511, 599]) {
      const res = await get(`/api/v1/log/consistency?from=${from}&to=600`, { 'x-api-key': key });
      const proof = consistency(from, fromTiles).map(
        (h) => `sha256:${Buffer.from(h).toString('hex')}`,
      );
      expect(res.json().proof).toEqual(proof);
    }
  });

  it.each<[string, number]>([
    ['/log/tile/0/1', 400],
    ['/log/tile/0/x001', 400],
    ['/log/tile/0/000.p/0', 400],
    ['/log/tile/0/000.p/256', 400],
    ['/log/tile/64/000', 400],
    ['/log/tile/entries/000.p/01', 400],
    ['/log/tile/0/x999/x999/x999/x999/999', 404],
    ['/log/tile/0/999', 404],
    ['/log/tile/entries/999.p/3', 404],
    [`/log/tile/0/${'x001/'.repeat(400)}000`.slice(0, 2100), 400],
  ])(
    'answers bad tile path #%# with 400 or 404 as expected',
    async (url: string, status: number) => {
      const res = await get(url);
      expect(res.statusCode, url.slice(0, 60)).toBe(status);
      expect(res.json().error).toBe(status === 400 ? 'validation_failed' : 'not_found');
    },
  );

  it('answers a random tile path with 400 or 404, never more', async () => {
    for (let i = 0; i < 200; i++) {
      const junk = randomBytes(1 + (i % 40)).toString('base64url');
      const res = await get(`/log/tile/${i % 3 === 0 ? 'entries' : i % 64}/${junk}`);
      expect([400, 404]).toContain(res.statusCode);
    }
  });
});

describe('LOG_PUBLIC=false', () => {
  let closed: TestContext;
  beforeAll(async () => {
    closed = await createTestContext({ LOG_PUBLIC: 'false' });
  });
  afterAll(async () => closed.close());

  it('puts the log behind a read-scoped key', async () => {
    const anonymous = await closed.app.inject({ url: '/log/vkey' });
    expect(anonymous.statusCode).toBe(401);
    const verifyOnly = await closed.apiKey(['verify']);
    const forbidden = await closed.app.inject({
      url: '/log/tile/0/000',
      headers: { 'x-api-key': verifyOnly },
    });
    expect(forbidden.statusCode).toBe(403);
    const reader = await closed.apiKey(['read']);
    const vkey = await closed.app.inject({ url: '/log/vkey', headers: { 'x-api-key': reader } });
    expect(vkey.statusCode).toBe(200);
    expect(vkey.body).toContain(closed.config.logOrigin);
  });
});
