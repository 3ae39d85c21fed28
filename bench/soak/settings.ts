import { randomBytes } from 'node:crypto';

/** The soak's settings, from the environment (see bench/soak.bench.ts). */
export interface SoakSettings {
  seconds: number;
  connections: number;
  /** The service's DATABASE_POOL_MAX. */
  poolMax: number;
  /** The in-process sealer's interval; 0 disables it. */
  anchorMs: number;
  /** Receipts issued before the load. */
  seedCount: number;
  url: string;
  /** A fresh schema, dropped at the end. */
  schema: string;
  /** Workers sending at-limit requests and fetching their PDFs beside the mix. */
  worstCaseWorkers: number;
}

export function soakSettings(env: NodeJS.ProcessEnv = process.env): SoakSettings {
  return {
    seconds: Number(env.SOAK_SECONDS ?? 60),
    connections: Number(env.SOAK_CONNECTIONS ?? 50),
    poolMax: Number(env.SOAK_POOL_MAX ?? 20),
    anchorMs: Number(env.SOAK_ANCHOR_INTERVAL_MS ?? 10_000),
    seedCount: Number(env.SOAK_SEED ?? 100),
    url: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    schema: `soak_${randomBytes(4).toString('hex')}`,
    worstCaseWorkers: Number(env.SOAK_WORST_CASE_WORKERS ?? 2),
  };
}
