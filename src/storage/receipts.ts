import type { Knex } from 'knex';
import type { UnsignedReceipt } from '../receipts/canonical.js';
import type { Decision } from '../contract/common.js';
import type {
  InsertResult,
  NewReceipt,
  ReceiptPage,
  ReceiptRecord,
  ReceiptStore,
} from '../receipts/ports.js';
import type { StoredReceipt } from '../receipts/types.js';

interface ReceiptRow {
  id: string;
  tenant: string;
  body: UnsignedReceipt;
  receipt_hash: string;
  signature_kid: string | null;
  signature: string | null;
  created_at: Date;
  has_proof_artifact: boolean;
  external_id: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  leaf_index: string | number | null;
  anchored_at: Date | null;
  leaf_hash: Buffer | null;
  audit_revoked_at: Date | null;
  audit_issuer_id: string | null;
}

interface SummaryRow {
  id: string;
  created_at: Date;
  revoked_at: Date | null;
  audit_revoked_at: Date | null;
  leaf_index: string | number | null;
  decision: Decision;
  created_at_text: string;
}

function toRecord(row: ReceiptRow): ReceiptRecord {
  const receipt: StoredReceipt = { ...row.body, receiptHash: row.receipt_hash };
  if (row.signature !== null || row.signature_kid !== null) {
    receipt.receiptSignature = {
      alg: 'EdDSA',
      kid: row.signature_kid ?? '',
      signature: row.signature ?? '',
    };
  }
  return {
    id: row.id,
    tenant: row.tenant,
    receipt,
    createdAt: row.created_at,
    hasProofArtifact: row.has_proof_artifact,
    externalId: row.external_id,
    revokedAt: row.revoked_at,
    revokedBy: row.revoked_by,
    revocationAudit:
      row.audit_revoked_at && row.audit_issuer_id
        ? { revokedAt: row.audit_revoked_at, issuerId: row.audit_issuer_id }
        : null,
    anchor: {
      leafIndex: row.leaf_index === null ? null : Number(row.leaf_index),
      anchoredAt: row.anchored_at,
      // PGlite returns bytea as Uint8Array, pg as Buffer: one type for callers
      leafHash: row.leaf_hash === null ? null : Buffer.from(row.leaf_hash),
    },
  };
}

const encodeCursor = (createdAt: Date, id: string) =>
  Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');

/** Only a `Date#toISOString()` value, years 1970-9999 (not '1', Feb 30 or year 0). */
function isIsoTimestamp(value: string): boolean {
  const time = Date.parse(value);
  return /^\d{4}-/.test(value) && time >= 0 && new Date(time).toISOString() === value;
}

function decodeCursor(cursor: string | undefined): [string, string] | undefined {
  if (!cursor) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // exactly what encodeCursor writes: then the SQL casts below cannot fail (a 500)
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      isIsoTimestamp(value[0]) &&
      typeof value[1] === 'string' &&
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value[1])
    ) {
      return [value[0], value[1]];
    }
  } catch {
    // an unreadable cursor is ignored: the list starts from the newest receipt
  }
  return undefined;
}

/** PostgreSQL's unique_violation on the (tenant, external_id) index: a result, not a failure. */
function isExternalIdTaken(err: unknown): boolean {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e?.code === '23505' &&
    (e.constraint === 'receipts_tenant_external_id' ||
      String(e.message).includes('receipts_tenant_external_id'))
  );
}

export class ReceiptRepository implements ReceiptStore {
  constructor(private readonly knex: Knex) {}

  private select(db: Knex | Knex.Transaction) {
    return db<ReceiptRow>('receipts as r')
      .leftJoin('log_entries as l', 'l.receipt_id', 'r.id')
      .leftJoin('revocations as v', 'v.receipt_id', 'r.id')
      .select(
        'r.*',
        'l.leaf_index',
        'l.anchored_at',
        'l.leaf_hash',
        'v.revoked_at as audit_revoked_at',
        'v.issuer_id as audit_issuer_id',
      );
  }

  /** The receipt and (with a proof artifact) its log entry, in one transaction. */
  async insert(input: NewReceipt): Promise<InsertResult> {
    try {
      await this.knex.transaction((trx) => this.insertRows(trx, input));
      return 'created';
    } catch (err) {
      if (isExternalIdTaken(err)) return 'duplicate_external_id';
      throw err;
    }
  }

  private async insertRows(trx: Knex.Transaction, input: NewReceipt): Promise<void> {
    const { receiptHash, receiptSignature, ...body } = input.receipt;
    await trx('receipts').insert({
      id: input.receipt.receiptId,
      tenant: input.tenant,
      body,
      receipt_hash: receiptHash,
      signature_kid: receiptSignature?.kid ?? null,
      signature: receiptSignature?.signature ?? null,
      created_at: new Date(input.receipt.createdAt),
      has_proof_artifact: input.hasProofArtifact,
      external_id: input.externalId ?? null,
    });
    if (input.leafHash) {
      await trx('log_entries').insert({
        receipt_id: input.receipt.receiptId,
        leaf_hash: input.leafHash,
      });
    }
  }

  /** The tenant's receipt, or undefined: another tenant's receipt is indistinguishable from none. */
  async find(tenant: string, id: string): Promise<ReceiptRecord | undefined> {
    const row = await this.select(this.knex).where({ 'r.id': id, 'r.tenant': tenant }).first();
    return row ? toRecord(row as ReceiptRow) : undefined;
  }

  async findByExternalId(tenant: string, externalId: string): Promise<ReceiptRecord | undefined> {
    const row = await this.select(this.knex)
      .where({ 'r.tenant': tenant, 'r.external_id': externalId })
      .first();
    return row ? toRecord(row as ReceiptRow) : undefined;
  }

  /** Newest first, keyset-paged on (created_at, id): no duplicates or gaps across inserts. */
  async list(tenant: string, limit: number, cursor: string | undefined): Promise<ReceiptPage> {
    const after = decodeCursor(cursor);
    const query = this.knex('receipts as r')
      .leftJoin('log_entries as l', 'l.receipt_id', 'r.id')
      .leftJoin('revocations as v', 'v.receipt_id', 'r.id')
      .select(
        'r.id',
        'r.created_at',
        'r.revoked_at',
        'v.revoked_at as audit_revoked_at',
        'l.leaf_index',
        this.knex.raw(`r.body->>'decision' as decision`),
        this.knex.raw(`r.body->>'createdAt' as created_at_text`),
      )
      .where('r.tenant', tenant)
      .orderBy([
        { column: 'r.created_at', order: 'desc' },
        { column: 'r.id', order: 'desc' },
      ])
      .limit(limit + 1);
    if (after) query.whereRaw('(r.created_at, r.id) < (?::timestamptz, ?::uuid)', after);
    const rows = (await query) as SummaryRow[];
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => ({
        id: row.id,
        decision: row.decision,
        createdAt: row.created_at_text,
        revoked: row.revoked_at !== null || row.audit_revoked_at !== null,
        anchored: row.leaf_index !== null,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : undefined,
    };
  }
}
