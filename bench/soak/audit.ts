import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { OPS, type DriverOutput } from './workload.js';

/**
 * The integrity audit after the load: the database against the driver's acknowledgements. Every
 * acknowledged receipt is stored and re-verifies, nothing unacknowledged was written, and exactly
 * the acknowledged revocations are in effect.
 */

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

interface ReceiptRow {
  id: string;
  revoked_at: Date | null;
  has_proof_artifact: boolean;
}

/** What the audit compares the store with. */
interface Expected {
  seedIds: string[];
  result: DriverOutput;
  /** Seed receipts and those acknowledged by POST /verify. */
  acknowledged: Set<string>;
  /** Receipts acknowledged REVOKED. */
  revoked: Set<string>;
}

function rowChecks(rows: ReceiptRow[], { seedIds, result, acknowledged }: Expected): Check[] {
  const stored = new Set(rows.map((r) => r.id));
  const missing = [...acknowledged].filter((id) => !stored.has(id));
  const extra = rows.filter((r) => !acknowledged.has(r.id)).map((r) => r.id);
  return [
    {
      name: 'every acknowledged receipt is stored',
      ok: missing.length === 0,
      detail:
        `${acknowledged.size - missing.length}/${acknowledged.size} stored` +
        (missing.length ? `; missing ${missing.slice(0, 5).join(', ')}` : ''),
    },
    {
      name: 'receipts rows = acknowledged verifies + setup',
      ok: rows.length === result.acknowledged.length + seedIds.length && extra.length === 0,
      detail:
        `${rows.length} rows = ${result.acknowledged.length} acknowledged + ${seedIds.length} setup` +
        (extra.length ? `; ${extra.length} unacknowledged rows, e.g. ${extra[0]}` : ''),
    },
  ];
}

async function logCheck(knex: Knex, rows: ReceiptRow[]): Promise<Check> {
  const logged = new Set(
    // revocation entries have no receipt_id (they name the receipt they revoke in `revokes`)
    (
      (await knex('log_entries').whereNotNull('receipt_id').select('receipt_id')) as {
        receipt_id: string;
      }[]
    ).map((r) => r.receipt_id),
  );
  const unlogged = rows.filter((r) => r.has_proof_artifact && !logged.has(r.id));
  return {
    name: 'every receipt with a proof artifact has its log entry',
    ok: unlogged.length === 0 && logged.size === rows.filter((r) => r.has_proof_artifact).length,
    detail: `${logged.size} log entries for ${rows.filter((r) => r.has_proof_artifact).length} receipts with a proof artifact`,
  };
}

async function revocationCheck(
  knex: Knex,
  rows: ReceiptRow[],
  { result, revoked }: Expected,
): Promise<Check> {
  const revocationRows = (await knex('revocations').select('receipt_id')) as {
    receipt_id: string;
  }[];
  const revokedRows = rows.filter((r) => r.revoked_at !== null).map((r) => r.id);
  const sameSet = (a: string[], b: Set<string>) => a.length === b.size && a.every((x) => b.has(x));
  return {
    name: 'revocations rows = acknowledged REVOKED',
    ok:
      sameSet(
        revocationRows.map((r) => r.receipt_id),
        revoked,
      ) && sameSet(revokedRows, revoked),
    detail:
      `${revocationRows.length} audit rows, ${revokedRows.length} receipts revoked, ` +
      `${revoked.size} acknowledged REVOKED (${result.alreadyRevokedAnswers} ALREADY_REVOKED answers)`,
  };
}

/** Later verification of every acknowledged receipt through the API (16 at a time). */
async function reverifyCheck(
  app: FastifyInstance,
  token: string,
  { acknowledged, revoked }: Expected,
): Promise<Check> {
  let verified = 0;
  let anchored = 0;
  const failures: string[] = [];
  const ids = [...acknowledged];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/receipt/${id}/verify`,
          headers: { 'x-api-key': token },
        });
        const body = res.json() as Record<string, unknown>;
        const ok =
          res.statusCode === 200 &&
          body.integrityVerified === true &&
          body.signatureVerified === true &&
          body.revoked === revoked.has(id) &&
          body.verified === !revoked.has(id);
        if (ok) verified++;
        else if (failures.length < 5) failures.push(`${id}: ${res.statusCode} ${res.body}`);
        if (body.proofVerified === true) anchored++;
      }
    }),
  );
  return {
    name: 'every acknowledged receipt re-verifies (integrity, signature, revoked as acknowledged)',
    ok: verified === ids.length,
    detail:
      `${verified}/${ids.length}; ${anchored} also with a verified inclusion proof` +
      (failures.length ? `; e.g. ${failures.join(' | ')}` : ''),
  };
}

function loadChecks(result: DriverOutput): Check[] {
  const served = OPS.reduce((n, op) => n + (result.endpoints[op].statuses['200'] ?? 0), 0);
  const total = OPS.reduce((n, op) => n + result.endpoints[op].count, 0);
  return [
    {
      name: 'every request answered 200 during the load',
      ok: served === total,
      detail: `${served}/${total}`,
    },
    {
      name: 'no anomalous 200 answer',
      ok: result.anomalies.length === 0,
      detail: result.anomalies.length ? result.anomalies.slice(0, 3).join(' | ') : 'none',
    },
  ];
}

export async function auditStore(
  app: FastifyInstance,
  knex: Knex,
  token: string,
  seedIds: string[],
  result: DriverOutput,
): Promise<Check[]> {
  const expected: Expected = {
    seedIds,
    result,
    acknowledged: new Set([...seedIds, ...result.acknowledged]),
    revoked: new Set(result.revoked),
  };
  const rows = (await knex('receipts').select(
    'id',
    'revoked_at',
    'has_proof_artifact',
  )) as ReceiptRow[];
  return [
    ...rowChecks(rows, expected),
    await logCheck(knex, rows),
    await revocationCheck(knex, rows, expected),
    await reverifyCheck(app, token, expected),
    ...loadChecks(result),
  ];
}
