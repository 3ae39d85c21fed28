import type { Knex } from 'knex';
import type { StoreHealth, StorePoolFigures } from './ports.js';

/** The part of tarn's pool (knex's) whose figures are read. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** `select 1` for readiness; knex's tarn pool for the figures (PostgreSQL, and PGlite's one). */
export class KnexStoreHealth implements StoreHealth {
  constructor(
    private readonly knex: Knex,
    readonly kind: StoreHealth['kind'],
  ) {}

  async ping(): Promise<void> {
    await this.knex.raw('select 1');
  }

  pool(): StorePoolFigures | undefined {
    const pool = (this.knex.client as { pool?: TarnPool }).pool;
    if (!pool) return undefined;
    return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() };
  }
}
