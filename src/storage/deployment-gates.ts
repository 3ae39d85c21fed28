import type { Knex } from 'knex';
import type {
  DeploymentGate,
  DeploymentGatePage,
  DeploymentGateStore,
  NewDeploymentGate,
} from '../receipts/ports.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { recordEvent } from './webhook-outbox.js';

interface GateRow {
  id: string;
  tenant: string;
  installation_id: string | number;
  repository: string;
  environment: string;
  sha: string;
  callback_url: string;
  deployment_id: string | number;
  requested_at: Date;
  policy: unknown;
  policy_hash: string | null;
  state: DeploymentGate['state'];
  attempts: number;
  decided_at: Date | null;
  reason: string | null;
  record: unknown;
}

function toGate(row: GateRow): DeploymentGate {
  return {
    id: row.id,
    tenant: row.tenant,
    installationId: Number(row.installation_id),
    repository: row.repository,
    environment: row.environment,
    sha: row.sha,
    callbackUrl: row.callback_url,
    deploymentId: Number(row.deployment_id),
    requestedAt: row.requested_at,
    policy: row.policy ?? undefined,
    policyHash: row.policy_hash ?? undefined,
    state: row.state,
    attempts: row.attempts,
    decidedAt: row.decided_at,
    reason: row.reason,
    record: row.record,
  };
}

/** `deployment_gates` (migration 022): leases by conditional update, one decision per gate. */
export class DeploymentGateRepository implements DeploymentGateStore {
  constructor(private readonly knex: Knex) {}

  async open(gate: NewDeploymentGate, leaseUntil: Date): Promise<boolean> {
    const inserted = await this.knex('deployment_gates')
      .insert({
        id: gate.id,
        tenant: gate.tenant,
        installation_id: gate.installationId,
        repository: gate.repository,
        environment: gate.environment,
        sha: gate.sha,
        callback_url: gate.callbackUrl,
        deployment_id: gate.deploymentId,
        requested_at: gate.requestedAt,
        policy: gate.policy === undefined ? null : JSON.stringify(gate.policy),
        policy_hash: gate.policyHash ?? null,
        lease_until: leaseUntil,
      })
      .onConflict(['callback_url', 'environment', 'deployment_id'])
      .ignore()
      .returning(['id']);
    return inserted.length > 0;
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DeploymentGate[]> {
    const result = (await this.knex.raw(
      `with due as materialized (
         select id from deployment_gates
         where state = 'pending' and (lease_until is null or lease_until < ?)
         order by requested_at limit ? for update skip locked
       )
       update deployment_gates set lease_until = ?
       from due where deployment_gates.id = due.id
       returning deployment_gates.*`,
      [now, limit, leaseUntil],
    )) as { rows: GateRow[] };
    return result.rows.map(toGate);
  }

  async release(id: string, retryAt: Date | null, failed: boolean): Promise<void> {
    await this.knex('deployment_gates')
      .where({ id, state: 'pending' })
      .update({
        lease_until: retryAt,
        ...(failed ? { attempts: this.knex.raw('attempts + 1') } : {}),
      });
  }

  /** The decision and its `deployment.decided` webhook event, in one transaction. */
  async finish(
    id: string,
    decision: { state: 'approved' | 'rejected'; reason: string; record: unknown; at: Date },
  ): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const [gate] = (await trx('deployment_gates')
        .where({ id, state: 'pending' })
        .update(
          {
            state: decision.state,
            reason: decision.reason,
            record: JSON.stringify(decision.record),
            decided_at: decision.at,
            lease_until: null,
          },
          ['tenant', 'repository', 'environment', 'sha'],
        )) as Pick<GateRow, 'tenant' | 'repository' | 'environment' | 'sha'>[];
      if (!gate) return false;
      await recordEvent(trx, 'deployment.decided', {
        tenant: gate.tenant,
        subject: id,
        data: {
          gateId: id,
          repository: gate.repository,
          environment: gate.environment,
          sha: gate.sha,
          state: decision.state,
          reason: decision.reason,
          decidedAt: decision.at.toISOString(),
          record: decision.record,
        },
      });
      return true;
    });
  }

  async listDecided(
    tenant: string,
    repository: string,
    limit: number,
    cursor: string | undefined,
  ): Promise<DeploymentGatePage> {
    const after = decodeCursor(cursor);
    const query = this.knex('deployment_gates')
      .where({ tenant })
      .whereRaw('lower(repository) = lower(?)', [repository])
      .whereNot({ state: 'pending' })
      .orderBy([
        { column: 'decided_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit + 1);
    if (after) query.whereRaw('(decided_at, id) < (?::timestamptz, ?::uuid)', after);
    const rows = ((await query) as GateRow[]).map(toGate);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page,
      nextCursor:
        rows.length > limit && last?.decidedAt ? encodeCursor(last.decidedAt, last.id) : undefined,
    };
  }
}
