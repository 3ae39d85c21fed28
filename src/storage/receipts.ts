import type { Knex } from 'knex';
import type {
  InsertResult,
  NewReceipt,
  ListFilters,
  ReceiptPage,
  ReceiptRecord,
  ReceiptStore,
} from '../receipts/ports.js';
import { Batcher } from './batcher.js';
import { PROVEN_CI_RECEIPT } from './migrations/024_proven_ci_receipts.js';
import { RowCache, type ChangeFeed } from './change-feed.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { outboxCtes } from './webhook-outbox.js';
import { staleReceipt, toRecord, type ReceiptRow, type SummaryRow } from './receipt-rows.js';

const RECEIPT_COLUMNS =
  'id, tenant, body, receipt_hash, signature_kid, signature, created_at, has_proof_artifact, external_id';

/**
 * One statement for a whole batch: the receipts, the log entries of those that were inserted,
 * and their `receipt.issued` events in the webhooks' outbox (webhook-outbox.ts), atomically (a
 * single statement commits or rolls back as a whole). A (tenant,
 * externalId) already taken is skipped by ON CONFLICT and reported, never an error. The batch is
 * one JSON parameter, so the statement's text is the same for every batch size (parsed and
 * planned as cheaply for 128 receipts as for one) and the database parses each body once.
 */
const BATCH_INSERT = `with v as (
    select * from jsonb_to_recordset(?::jsonb) as v(id uuid, tenant text, body jsonb,
      receipt_hash text, signature_kid text, signature text, created_at timestamptz,
      has_proof_artifact boolean, external_id text, leaf_hash text, entry text)
  ), r as (
    insert into receipts (${RECEIPT_COLUMNS})
    select ${RECEIPT_COLUMNS} from v
    on conflict (tenant, external_id) where external_id is not null do nothing
    returning id
  ), l as (
    insert into log_entries (receipt_id, leaf_hash, entry)
    select v.id, decode(v.leaf_hash, 'hex'), decode(v.entry, 'hex') from v join r on r.id = v.id
    where v.leaf_hash is not null
  ), issued as (
    select v.tenant, v.id::text as subject, '{}'::jsonb as data from v join r on r.id = v.id
  ), ${outboxCtes('issued', 'receipt.issued')}
  select id from r`;

/** A receipt as a row of BATCH_INSERT's parameter. */
function batchRow(input: NewReceipt) {
  const { receiptHash, receiptSignature, ...body } = input.receipt;
  return {
    id: input.receipt.receiptId,
    tenant: input.tenant,
    body,
    receipt_hash: receiptHash,
    signature_kid: receiptSignature?.kid ?? null,
    signature: receiptSignature?.signature ?? null,
    created_at: input.receipt.createdAt,
    has_proof_artifact: input.hasProofArtifact,
    external_id: input.externalId ?? null,
    leaf_hash: input.logEntry?.leafHash.toString('hex') ?? null,
    entry: input.logEntry?.entry.toString('hex') ?? null,
  };
}

/** What a receipt id (a uuid column) can be; anything else names no receipt. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Largest number of receipts written by one statement (group commit); see ISSUE_BATCH_MAX. */
export const DEFAULT_INSERT_BATCH = 128;
/** Receipts kept in process for reads by id (RECEIPT_CACHE_MAX). */
export const DEFAULT_RECEIPT_CACHE = 2_000;

export class ReceiptRepository implements ReceiptStore {
  private readonly batcher: Batcher<NewReceipt, InsertResult>;
  /** Receipts by tenant and id, dropped when their state changes (migrations 013 and 023). */
  private readonly cache: RowCache<ReceiptRecord>;

  constructor(
    private readonly knex: Knex,
    changes: ChangeFeed,
    options: { insertBatch?: number; cacheMax?: number } = {},
  ) {
    this.batcher = new Batcher(
      (items) => this.insertBatch(items),
      options.insertBatch ?? DEFAULT_INSERT_BATCH,
    );
    this.cache = new RowCache(
      changes,
      'receipts',
      options.cacheMax ?? DEFAULT_RECEIPT_CACHE,
      staleReceipt,
    );
  }

  private select(db: Knex | Knex.Transaction) {
    return receiptsWithState(db)
      .leftJoin('log_leaves as rll', 'rll.seq', 'rl.seq')
      .select(
        'r.*',
        'll.leaf_index',
        'll.anchored_at',
        'l.leaf_hash',
        'v.revoked_at as audit_revoked_at',
        'v.issuer_id as audit_issuer_id',
        'rl.entry as revocation_entry',
        'rll.leaf_index as revocation_leaf_index',
      );
  }

  /** The receipt and (with a proof artifact) its log entry, committed before this resolves. */
  insert(input: NewReceipt): Promise<InsertResult> {
    return this.batcher.submit(input);
  }

  private async insertBatch(items: NewReceipt[]): Promise<InsertResult[]> {
    const batch = JSON.stringify(items.map(batchRow));
    const result = (await this.knex.raw(BATCH_INSERT, [batch])) as {
      rows: { id: string }[];
    };
    const inserted = new Set(result.rows.map((r) => r.id));
    return items.map((i) =>
      inserted.has(i.receipt.receiptId) ? 'created' : 'duplicate_external_id',
    );
  }

  /**
   * The tenant's receipt, or undefined: another tenant's receipt is indistinguishable from none.
   * Cached (frozen, shared): a revocation or seal through this process drops what it changed
   * before it answers; one made elsewhere, when its notification arrives (ChangeFeed).
   */
  async find(tenant: string, id: string): Promise<ReceiptRecord | undefined> {
    return this.cache.through(`${tenant}\n${id}`, async () => {
      const row = await this.select(this.knex).where({ 'r.id': id, 'r.tenant': tenant }).first();
      return row ? toRecord(row as ReceiptRow) : undefined;
    });
  }

  async findByExternalId(tenant: string, externalId: string): Promise<ReceiptRecord | undefined> {
    const row = await this.select(this.knex)
      .where({ 'r.tenant': tenant, 'r.external_id': externalId })
      .first();
    return row ? toRecord(row as ReceiptRow) : undefined;
  }

  /** Never cached: the signed public status (`GET /status/{hash}`) is read from the store itself. */
  async findByHash(receiptHash: string): Promise<ReceiptRecord | undefined> {
    const row = await this.select(this.knex).where({ 'r.receipt_hash': receiptHash }).first();
    return row ? toRecord(row as ReceiptRow) : undefined;
  }

  /**
   * Proof, repository and commit are conditions of the query, before its limit, stated as the
   * partial index of migration 024 states them (the planner uses a partial index only when the
   * query repeats its condition). The domain judges each row again from its signed body.
   */
  async findProvenCiForCommit(
    query: { repository: string; headSha: string; tenant: string },
    limit: number,
  ): Promise<ReceiptRecord[]> {
    const rows = (await this.select(this.knex)
      .whereRaw(PROVEN_CI_RECEIPT)
      .whereRaw(`lower(r.body->'subject'->>'repository') = lower(?)`, [query.repository])
      .whereRaw(`r.body->'subject'->>'headSha' = ?`, [query.headSha])
      .where((proof) =>
        proof
          .whereRaw(`r.body->'subject'->'identity'->>'source' = 'oidc'`)
          .orWhere('r.tenant', query.tenant),
      )
      .orderBy([
        { column: 'r.created_at', order: 'desc' },
        { column: 'r.id', order: 'desc' },
      ])
      .limit(limit)) as ReceiptRow[];
    return rows.map(toRecord);
  }

  /**
   * One statement whatever the number of ids (`log_entries.receipt_id` is unique, migration 003);
   * the ids named are spelled as asked (a uuid reads back in lower case).
   */
  async sealedAmong(receiptIds: readonly string[]): Promise<ReadonlySet<string>> {
    const ids = receiptIds.filter((id) => UUID.test(id));
    if (ids.length === 0) return new Set();
    const rows = (await this.knex('log_entries as l')
      .join('log_leaves as ll', 'll.seq', 'l.seq')
      .select('l.receipt_id')
      .whereRaw('l.receipt_id = any(?::uuid[])', [ids])) as { receipt_id: string }[];
    const sealed = new Set(rows.map((r) => r.receipt_id.toLowerCase()));
    return new Set(ids.filter((id) => sealed.has(id.toLowerCase())));
  }

  async witnessedAmong(
    receiptIds: readonly string[],
    witnesses: readonly string[],
    quorum: number,
  ): Promise<ReadonlySet<string>> {
    const ids = receiptIds.filter((id) => UUID.test(id));
    if (ids.length === 0 || witnesses.length === 0) return new Set();
    // the newest witnessed size, from the cosignatures newest first (log.ts does the same)
    const rows = (await this.knex.raw(
      `with w as (select tree_size from log_cosignatures where witness = any(?::text[])
         group by tree_size having count(*) >= ? order by tree_size desc limit 1)
       select l.receipt_id from log_entries l join log_leaves ll on ll.seq = l.seq, w
       where l.receipt_id = any(?::uuid[]) and ll.leaf_index < w.tree_size`,
      [[...witnesses], quorum, ids],
    )) as { rows: { receipt_id: string }[] };
    const witnessed = new Set(rows.rows.map((r) => r.receipt_id.toLowerCase()));
    return new Set(ids.filter((id) => witnessed.has(id.toLowerCase())));
  }

  /** Newest first, keyset-paged on (created_at, id): no duplicates or gaps across inserts. */
  async list(
    tenant: string,
    limit: number,
    cursor: string | undefined,
    filters: ListFilters = {},
  ): Promise<ReceiptPage> {
    const after = decodeCursor(cursor);
    const query = receiptsWithState(this.knex)
      .select(
        'r.id',
        'r.created_at',
        'r.revoked_at',
        'v.revoked_at as audit_revoked_at',
        'rl.seq as revocation_seq',
        'll.leaf_index',
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
    applyFilters(query, filters);
    const rows = (await query) as SummaryRow[];
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((row) => ({
        id: row.id,
        decision: row.decision,
        createdAt: row.created_at_text,
        revoked:
          row.revoked_at !== null || row.audit_revoked_at !== null || row.revocation_seq !== null,
        anchored: row.leaf_index !== null,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : undefined,
    };
  }
}

/**
 * Receipts (`r`) with the rows their state is read from: the receipt's log entry (`l`) and its
 * position in the log (`ll`, migration 015), the revocation audit row (`v`) and the revocation's
 * log entry (`rl`).
 */
function receiptsWithState(db: Knex | Knex.Transaction) {
  return db('receipts as r')
    .leftJoin('log_entries as l', 'l.receipt_id', 'r.id')
    .leftJoin('log_leaves as ll', 'll.seq', 'l.seq')
    .leftJoin('revocations as v', 'v.receipt_id', 'r.id')
    .leftJoin('log_entries as rl', 'rl.revokes', 'r.id');
}

const REVOKED = '(r.revoked_at is not null or v.receipt_id is not null or rl.seq is not null)';
const DECISION_OF_STATUS = { clean: 'ALLOW', compliance_gap: 'FLAG', failure: 'BLOCK' } as const;

/** The list filters as SQL conditions (each served by an index of migration 011). */
function applyFilters(query: Knex.QueryBuilder, f: ListFilters): void {
  if (f.decision) query.whereRaw(`r.body->>'decision' = ?`, [f.decision]);
  if (f.status === 'revoked') query.whereRaw(REVOKED);
  else if (f.status) {
    query
      .whereRaw(`r.body->>'decision' = ?`, [DECISION_OF_STATUS[f.status]])
      .whereRaw(`not ${REVOKED}`);
  }
  if (f.bundleId) query.whereRaw(`r.body->'subject'->>'bundleId' = ?`, [f.bundleId]);
  if (f.docHash) query.whereRaw(`r.body->'subject'->>'docHash' = ?`, [f.docHash]);
  if (f.externalId) query.where('r.external_id', f.externalId);
  if (f.createdAfter) query.where('r.created_at', '>', f.createdAfter);
  if (f.createdBefore) query.where('r.created_at', '<', f.createdBefore);
}
