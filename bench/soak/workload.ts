import type { Notary } from '../../test/helpers/ron.js';

/** The soak's workload: which requests, in what proportions, and what the driver reports. */

export type Op = 'verify' | 'retrieve' | 'reverify' | 'list' | 'revoke';
export const OPS: Op[] = ['verify', 'retrieve', 'reverify', 'list', 'revoke'];
export const LABELS: Record<Op, string> = {
  verify: 'POST /api/v1/verify',
  retrieve: 'GET /api/v1/receipt/:id',
  reverify: 'POST /api/v1/receipt/:id/verify',
  list: 'GET /api/v1/receipts',
  revoke: 'POST /api/v1/receipt/:id/revoke',
};
/** Share of requests per endpoint (percent). */
export const MIX: Record<Op, number> = {
  verify: 35,
  retrieve: 25,
  reverify: 20,
  list: 10,
  revoke: 10,
};
/** Share of revocations aimed at an already revoked receipt (expects ALREADY_REVOKED). */
export const REPEAT_REVOKE_SHARE = 0.1;

/** What the server process hands the driver process (as a JSON file). */
export interface DriverInput {
  baseUrl: string;
  apiKey: string;
  tenant: string;
  seconds: number;
  connections: number;
  seedIds: string[];
  notary: Notary;
  issuerId: string;
  issuerPem: string;
  outFile: string;
  /** Workers sending at-limit requests and fetching their PDFs beside the mix (0: none). */
  worstCaseWorkers: number;
}

/** The worst-case loop and the /healthz probe (bench/soak/worst-case.ts). */
export interface WorstCaseFigures {
  atLimit: { count: number; statuses: Record<string, number> };
  pdf: { count: number; statuses: Record<string, number>; maxBytes: number };
  healthz: {
    count: number;
    failures: number;
    p50: number;
    p99: number;
    max: number;
    over100ms: number;
  };
}

export interface EndpointFigures {
  count: number;
  statuses: Record<string, number>;
  /** Transport failures (no HTTP answer) by error code. */
  transportErrors: Record<string, number>;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** What the driver process hands back (as a JSON file). */
export interface DriverOutput {
  durationMs: number;
  endpoints: Record<Op, EndpointFigures>;
  /** Receipt ids acknowledged with 200 by POST /verify, in order. */
  acknowledged: string[];
  /** Receipt ids acknowledged with 200 REVOKED. */
  revoked: string[];
  alreadyRevokedAnswers: number;
  decisions: Record<string, number>;
  /** Answers that were 200 but said something wrong (a retrieve of another id, a failed re-check...). */
  anomalies: string[];
  worstCase?: WorstCaseFigures;
}
