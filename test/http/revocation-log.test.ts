import { createPublicKey, randomUUID, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTileIndex } from '../../src/anchoring/tile-path.js';
import { parseEntryBundle } from '../../src/cli/log-monitor/audit.js';
import { verifyStatus } from '@verification-receipts/verify';
import { revocationEntry } from '../../src/receipts/log-entries.js';
import { rawEd25519PublicKey } from '../../src/receipts/revocation.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrate } from '../../src/storage/migrations/index.js';
import {
  createTestContext,
  closeStore,
  ed25519Pem,
  testStore,
  type TestContext,
} from '../helpers/context.js';
import { jwksKeys } from '../verifier/helpers.js';
import { refLeafHash } from '../helpers/merkle-reference.js';
import { registerIssuer, revokeVia } from '../helpers/revocation.js';
import { ciRequest } from './hostile/requests.js';

/**
 * Revocations are log entries: the issuer-signed statement is appended with the revocation,
 * checkable offline from the entry alone; later verification and the public status trust the
 * log's entry over the editable `receipts` row, and say so when the two disagree.
 */

let ctx: TestContext;
let key: string;
const issuerPem = ed25519Pem();

beforeAll(async () => {
  ctx = await createTestContext({ LOG_RATE_LIMIT_MAX: '100000' });
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  await registerIssuer(ctx.repos, issuerPem);
});
afterAll(async () => ctx.close());

async function issue(): Promise<{ id: string; hash: string }> {
  const { record } = await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
  return { id: record.id, hash: record.receipt.receiptHash };
}

const laterVerification = async (id: string) =>
  (
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/receipt/${id}/verify`,
      headers: { 'x-api-key': key },
    })
  ).json();

const publicStatus = async (hash: string) =>
  (await ctx.app.inject({ url: `/status/${hash}` })).json().statement;

/** The offline verifier's verdict on the public status (packages/verify). */
async function statusStep(hash: string) {
  const doc = (await ctx.app.inject({ url: `/status/${hash}` })).json();
  const keys = await jwksKeys(ctx);
  return verifyStatus(doc, { receiptHash: hash, keys }).steps.find((s) => s.id === 'status');
}

/** Every entry of the served log, from its checkpoint size. */
async function servedEntries(): Promise<Uint8Array[]> {
  const size = Number((await ctx.app.inject({ url: '/log/checkpoint' })).body.split('\n')[1]);
  const entries: Uint8Array[] = [];
  for (let index = 0; index * 256 < size; index++) {
    const width = Math.min(256, size - index * 256);
    const url = `/log/tile/entries/${encodeTileIndex(index)}${width === 256 ? '' : `.p/${width}`}`;
    entries.push(...(parseEntryBundle((await ctx.app.inject({ url })).rawPayload) ?? []));
  }
  return entries;
}

describe('revocations in the log', () => {
  it('appends the issuer-signed statement, checkable offline from the entry alone', async () => {
    const receipt = await issue();
    const res = await revokeVia(ctx.app, key, receipt.id, issuerPem);
    expect(res.json()).toMatchObject({ result: 'REVOKED' });
    await ctx.app.services.anchoring.sealAll();

    const entries = await servedEntries();
    const text = Buffer.from(entries.at(-1) as Uint8Array).toString('utf8');
    const lines = text.split('\n');
    expect(lines[0]).toBe('verification-receipt-revocation/v1');
    const field = (name: string) =>
      lines.find((l) => l.startsWith(`${name} `))?.slice(name.length + 1) as string;
    expect(field('receipt-hash')).toBe(receipt.hash);
    expect(field('receipt-id')).toBe(receipt.id);
    expect(field('issuer')).toBe('escrow-co');
    expect(field('issuer-key')).toBe(rawEd25519PublicKey(issuerPem));
    const message = `revoke\n${receipt.id}\nescrow-co\n${field('timestamp')}`;
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: field('issuer-key') },
      format: 'jwk',
    });
    expect(
      verify(null, Buffer.from(message), publicKey, Buffer.from(field('signature'), 'base64url')),
    ).toBe(true);
    // its receipt entry is the 32 hash bytes, and the revocation is a different, longer entry
    const receiptEntry = Buffer.from(receipt.hash.slice(7), 'hex');
    expect(entries.some((e) => Buffer.from(e).equals(receiptEntry))).toBe(true);

    const status = await publicStatus(receipt.hash);
    expect(status).toMatchObject({ status: 'revoked', revocationLogIndex: entries.length - 1 });
    expect(status.inconsistency).toBeUndefined();
    expect(await laterVerification(receipt.id)).toMatchObject({
      revoked: true,
      integrityVerified: true,
    });
  });

  it('still reports revoked when the row is cleared, and says they disagree', async () => {
    const receipt = await issue();
    await revokeVia(ctx.app, key, receipt.id, issuerPem);
    await ctx.db
      .knex('receipts')
      .where({ id: receipt.id })
      .update({ revoked_at: null, revoked_by: null });
    expect(await laterVerification(receipt.id)).toMatchObject({
      verified: false,
      revoked: true,
      integrityVerified: false,
    });
    // the log entry and its revocation row agree: the edited column does not un-revoke
    const status = await publicStatus(receipt.hash);
    expect(status.status).toBe('revoked');
    expect(status.inconsistency).toBe('the log holds a revocation the store row does not show');
    expect(await statusStep(receipt.hash)).toMatchObject({
      status: 'FAIL',
      detail: expect.stringContaining('the service reports: the log holds a revocation'),
    });
    // without its revocation row as well, nothing is signed about it
    await ctx.db.knex('revocations').where({ receipt_id: receipt.id }).delete();
    expect(await laterVerification(receipt.id)).toMatchObject({ revoked: true });
    const refused = await ctx.app.inject({ url: `/status/${receipt.hash}` });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'dependency_unavailable' });
    // and it cannot be revoked a second time
    const again = await revokeVia(ctx.app, key, receipt.id, issuerPem);
    expect(again.json()).toMatchObject({ result: 'ALREADY_REVOKED' });
  });

  it('refuses to sign a status when the row says revoked without a log entry', async () => {
    const receipt = await issue();
    await ctx.db.knex('receipts').where({ id: receipt.id }).update({ revoked_at: new Date() });
    expect(await laterVerification(receipt.id)).toMatchObject({
      revoked: true,
      integrityVerified: false,
    });
    const refused = await ctx.app.inject({ url: `/status/${receipt.hash}` });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'dependency_unavailable' });
    await expect(ctx.app.services.receipts.publicStatus(receipt.hash)).rejects.toThrow(
      'the store marks this receipt revoked but the log holds no revocation entry for it',
    );
  });

  it('does not accept a revocation entry whose issuer signature does not verify', async () => {
    const receipt = await issue();
    const forged = revocationEntry({
      receiptHash: receipt.hash,
      receiptId: receipt.id,
      issuerId: 'escrow-co',
      issuerKey: rawEd25519PublicKey(issuerPem),
      timestamp: new Date().toISOString(),
      signature: Buffer.alloc(64, 1).toString('base64url'),
    });
    await ctx.db
      .knex('log_entries')
      .insert({ revokes: receipt.id, entry: forged.entry, leaf_hash: forged.leafHash });
    const state = await laterVerification(receipt.id);
    expect(state).toMatchObject({ revoked: false, integrityVerified: false });
    const refused = await ctx.app.inject({ url: `/status/${receipt.hash}` });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: 'dependency_unavailable' });
    await expect(ctx.app.services.receipts.publicStatus(receipt.hash)).rejects.toThrow(
      'the queued revocation entry of this receipt does not verify',
    );
  });
});

describe('migration 008', () => {
  it('gives every earlier revocation its log entry, byte for byte as the service writes it', async () => {
    const store = testStore({ blank: true });
    const db = await openDatabase(store, { migrate: false });
    try {
      await migrate(db.knex, '007_receipt_hash_index');
      const id = randomUUID();
      const hash = `sha256:${'ab'.repeat(32)}`;
      const publicKey = rawEd25519PublicKey(issuerPem);
      await db.knex('receipts').insert({
        id,
        tenant: 't',
        body: {},
        receipt_hash: hash,
        created_at: new Date(),
        has_proof_artifact: true,
        revoked_at: new Date(),
        revoked_by: 'escrow-co',
      });
      await db
        .knex('log_entries')
        .insert({ receipt_id: id, leaf_hash: refLeafHash(Buffer.from(hash.slice(7), 'hex')) });
      await db
        .knex('issuers')
        .insert({ issuer_id: 'escrow-co', tenant: 't', public_key: publicKey });
      await db.knex('revocations').insert({
        receipt_id: id,
        tenant: 't',
        issuer_id: 'escrow-co',
        api_key_id: randomUUID(),
        signature_timestamp: '2026-01-02T03:04:05.678Z',
        issuer_signature: 'c2ln',
        revoked_at: new Date(),
      });
      await migrate(db.knex);
      const rows = await db.knex('log_entries').orderBy('seq');
      expect(Buffer.from(rows[0].entry).toString('hex')).toBe(hash.slice(7));
      const expected = revocationEntry({
        receiptHash: hash,
        receiptId: id,
        issuerId: 'escrow-co',
        issuerKey: publicKey,
        timestamp: '2026-01-02T03:04:05.678Z',
        signature: 'c2ln',
      });
      expect(rows[1].revokes).toBe(id);
      expect(Buffer.from(rows[1].entry).equals(expected.entry)).toBe(true);
      expect(Buffer.from(rows[1].leaf_hash).equals(expected.leafHash)).toBe(true);
    } finally {
      await closeStore(db, store);
    }
  });
});
