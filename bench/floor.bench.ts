/**
 * The unavoidable work of one issued receipt, each item measured in this process on the typical
 * request (test/helpers/ron.ts, the one bench:verify and bench:inclusion send): the seal check's
 * P-256 verification, the receipt's canonical form, hashes and Ed25519 signature, and one row
 * written to PostgreSQL with synchronous_commit on. Their sum is the floor a receipt's CPU cost
 * can approach, whatever the service does around them.
 *   npm run bench:floor   (BENCH_FLOOR_ITERATIONS=5000: calls per in-process item,
 *                          BENCH_FLOOR_ROWS=2000: rows per insert measurement,
 *                          BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test,
 *                          BENCH_JSON=file: write the items and sums to file as JSON)
 *
 * In-process items: CPU time (process.cpuUsage) over BENCH_FLOOR_ITERATIONS calls after a tenth
 * as many warm-up calls. Row inserts: a scratch table with the receipts table's main columns,
 * the typical receipt as its body; the client's CPU (this process: building the statement, the
 * pg driver) and the server's (the backend's utime + stime from /proc, 10 ms resolution), once
 * with one INSERT per row (one commit, one WAL flush each) and once 50 rows per INSERT.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { receiptEntry } from '../src/receipts/log-entries.js';
import { canonicalReceipt, sha256Digest } from '../src/receipts/canonical.js';
import { commitInputs, documentOf } from '../src/receipts/commitment.js';
import { verifySeal } from '../src/receipts/seal.js';
import { createSigner } from '../src/receipts/signer.js';
import type { StoredReceipt } from '../src/receipts/types.js';
import { createTestContext, ed25519Pem } from '../test/helpers/context.js';
import { registerNotary, validRequest } from '../test/helpers/ron.js';
import { samplePdf } from '../test/helpers/requests.js';
import { cpuMillis } from './cpu.js';
import { freshStore, PG_URL } from './service.js';

const ITERATIONS = Number(process.env.BENCH_FLOOR_ITERATIONS ?? 5000);
const ROWS = Number(process.env.BENCH_FLOOR_ROWS ?? 2000);
const MULTI_ROW = 50;

/** One item of the floor: CPU microseconds per receipt. */
export interface FloorItem {
  name: string;
  us: number;
}

/** What bench/goals.ts reads from BENCH_JSON. */
export interface FloorReport {
  items: FloorItem[];
  /** The in-process items and one single-row insert (client + server). */
  sum: number;
  /** The same with the row's share of a 50-row insert instead. */
  sumMultiRow: number;
}

/** CPU microseconds per call of `fn`, over ITERATIONS calls after ITERATIONS / 10 warm-up calls. */
function cpuPerCall(fn: () => unknown): number {
  for (let i = 0; i < ITERATIONS / 10; i += 1) fn();
  const before = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i += 1) fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / ITERATIONS;
}

/** A typical receipt, issued by the service in this process from the typical request. */
async function typicalReceipt() {
  const ctx = await createTestContext({}, freshStore('postgres'));
  try {
    const notary = await registerNotary(ctx.repos, 'tenant-a');
    const key = await ctx.apiKey(['verify', 'read']);
    const request = validRequest(notary);
    const headers = { 'x-api-key': key };
    const issued = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers,
      payload: request,
    });
    if (issued.statusCode !== 200) throw new Error(`issuance answered ${issued.statusCode}`);
    const { receiptId } = issued.json<{ receiptId: string }>();
    const read = await ctx.app.inject({ url: `/api/v1/receipt/${receiptId}`, headers });
    return { notary, request, receipt: read.json<{ receipt: StoredReceipt }>().receipt };
  } finally {
    await ctx.close();
  }
}

/** The in-process items: seal check, canonical form, hashes, signature. */
async function inProcessItems(): Promise<{ items: FloorItem[]; receipt: StoredReceipt }> {
  const { notary, request, receipt } = await typicalReceipt();
  const pdf = samplePdf();
  const signer = createSigner(ed25519Pem());
  const canonical = canonicalReceipt(receipt);
  const bytes = Buffer.from(canonical, 'utf8');
  const sealOk = verifySeal(request.ron.sealPayload, notary.publicKeyPem).ok;
  if (!sealOk) throw new Error('the typical request seal does not verify');
  const items: FloorItem[] = [
    {
      name: 'P-256 (ES256) seal verification, as the RON seal check (verifySeal)',
      us: cpuPerCall(() => verifySeal(request.ron.sealPayload, notary.publicKeyPem)),
    },
    {
      name: `SHA-256 of the document bytes (${pdf.length} B)`,
      us: cpuPerCall(() => sha256Digest(pdf)),
    },
    {
      name: 'inputs commitment (RFC 8785 form of the request, SHA-256)',
      us: cpuPerCall(() => commitInputs(request, documentOf(pdf))),
    },
    {
      name: `RFC 8785 canonical receipt (${bytes.length} B)`,
      us: cpuPerCall(() => canonicalReceipt(receipt)),
    },
    { name: 'SHA-256 receipt hash', us: cpuPerCall(() => sha256Digest(bytes)) },
    {
      name: 'Ed25519 signature of the canonical receipt',
      us: cpuPerCall(() => signer.sign(bytes)),
    },
    {
      name: 'Merkle leaf hash (RFC 9162) of the log entry',
      us: cpuPerCall(() => receiptEntry(receipt.receiptHash)),
    },
  ];
  return { items, receipt };
}

/** A row of the scratch table: the receipts table's main columns, the receipt as its body. */
function rowValues(receipt: StoredReceipt): unknown[] {
  const { receiptHash, receiptSignature, ...body } = receipt;
  const sig = receiptSignature;
  const values = [randomUUID(), 'bench', JSON.stringify(body), receiptHash];
  return [...values, sig?.kid ?? null, sig?.signature ?? null, receipt.createdAt];
}

const COLUMNS = 'id, tenant, body, receipt_hash, signature_kid, signature, created_at';

/** `insert` of `rows` rows of 7 parameters each. */
function insertSql(table: string, rows: number): string {
  const tuples = Array.from({ length: rows }, (_, r) => {
    const params = Array.from({ length: 7 }, (_, c) => `$${r * 7 + c + 1}`);
    return `(${params.join(', ')})`;
  });
  return `insert into ${table} (${COLUMNS}) values ${tuples.join(', ')}`;
}

/** Client and server CPU µs per row over ROWS rows written `perStatement` rows per INSERT. */
async function insertCost(
  client: pg.Client,
  table: string,
  receipt: StoredReceipt,
  perStatement: number,
) {
  const backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!
    .pid;
  const sql = insertSql(table, perStatement);
  const statement = () =>
    client.query(sql, Array.from({ length: perStatement }, () => rowValues(receipt)).flat());
  for (let i = 0; i < 20; i += 1) await statement(); // warm-up: plan cached, table extended
  const server = cpuMillis(backend);
  const own = process.cpuUsage();
  for (let n = 0; n < ROWS; n += perStatement) await statement();
  const used = process.cpuUsage(own);
  return {
    client: (used.user + used.system) / ROWS,
    server: ((cpuMillis(backend) - server) * 1000) / ROWS,
  };
}

/** The row items: single-row INSERT (client, server) and the share of a 50-row INSERT. */
async function rowItems(
  receipt: StoredReceipt,
): Promise<{ single: FloorItem[]; multi: FloorItem[] }> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const schema = `floor_${randomBytes(4).toString('hex')}`;
  const table = `${schema}.receipts`;
  try {
    await client.query('set synchronous_commit = on');
    await client.query(`create schema ${schema}`);
    await client.query(
      `create table ${table} (id uuid primary key, tenant text not null, body jsonb not null,
        receipt_hash text not null, signature_kid text, signature text,
        created_at timestamptz not null)`,
    );
    const one = await insertCost(client, table, receipt, 1);
    const many = await insertCost(client, table, receipt, MULTI_ROW);
    return {
      single: [
        { name: 'one row, single-row INSERT, client CPU', us: one.client },
        { name: 'one row, single-row INSERT, PostgreSQL backend CPU', us: one.server },
      ],
      multi: [
        { name: `one row of a ${MULTI_ROW}-row INSERT, client CPU`, us: many.client },
        { name: `one row of a ${MULTI_ROW}-row INSERT, PostgreSQL backend CPU`, us: many.server },
      ],
    };
  } finally {
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  }
}

const total = (items: FloorItem[]) => items.reduce((sum, item) => sum + item.us, 0);

const { items, receipt } = await inProcessItems();
const rows = await rowItems(receipt);
const report: FloorReport = {
  items: [...items, ...rows.single, ...rows.multi],
  sum: total(items) + total(rows.single),
  sumMultiRow: total(items) + total(rows.multi),
};
console.log(
  `\nfloor of one receipt, node ${process.version}, ${ITERATIONS} calls per item, ${ROWS} rows\n`,
);
console.log('| item | CPU µs |');
console.log('| --- | ---: |');
for (const item of report.items) console.log(`| ${item.name} | ${item.us.toFixed(1)} |`);
console.log(`| **sum, single-row INSERT** | **${report.sum.toFixed(1)}** |`);
console.log(`| **sum, ${MULTI_ROW}-row INSERT** | **${report.sumMultiRow.toFixed(1)}** |`);
if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(report));
