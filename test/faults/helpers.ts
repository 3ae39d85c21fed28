import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import type { StoreConfig } from '../../src/config.js';
import { childPids, statFields } from '../helpers/proc.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

const run = promisify(execFile);

/**
 * The PostgreSQL fault tests terminate backends and stop the server: only under
 * `npm run test:faults` (vitest.faults.config.ts sets RECEIPTS_FAULT_TESTS=1) with DATABASE_URL,
 * never in the normal suite, which may run beside other users of the same server.
 */
export const postgresFaultsEnabled = (): boolean =>
  Boolean(process.env.DATABASE_URL) && process.env.RECEIPTS_FAULT_TESTS === '1';

/**
 * A fresh schema on DATABASE_URL whose connections carry a unique application_name, so a test
 * can find (and terminate) exactly the service's backends in pg_stat_activity.
 */
export function faultStore(
  label: string,
  poolMax = 10,
): Extract<StoreConfig, { kind: 'postgres' }> & { applicationName: string; schema: string } {
  const suffix = randomBytes(5).toString('hex');
  const applicationName = `faults_${label}_${suffix}`;
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.searchParams.set('application_name', applicationName);
  return { kind: 'postgres', url: url.toString(), schema: `f_${suffix}`, poolMax, applicationName };
}

export async function eventually<T>(
  fn: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 250,
): Promise<{ value: T; attempts: number; ms: number }> {
  const started = Date.now();
  let attempts = 0;
  for (;;) {
    attempts++;
    const value = await fn().catch(() => undefined);
    if (value !== undefined) return { value, attempts, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) {
      throw new Error(`condition not met within ${timeoutMs} ms (${attempts} attempts)`);
    }
    await sleep(intervalMs);
  }
}

/** Pids of the live node processes whose parent is `pid` (Linux /proc; tsx's esbuild is not). */
export function childrenOf(pid: number): number[] {
  return childPids(pid).filter((child) => {
    try {
      const node = fs.readFileSync(`/proc/${child}/comm`, 'utf8').trim() === 'node';
      return node && statFields(child)?.[0] !== 'Z';
    } catch {
      return false;
    }
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------
// Stopping and starting the machine's PostgreSQL cluster
// ---------------------------------------------------------------------------------------------

function clusterVersion(): string | undefined {
  try {
    return fs.readdirSync('/etc/postgresql').sort().at(-1);
  } catch {
    return undefined;
  }
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '')
    .split(':')
    .some((dir) => dir !== '' && fs.existsSync(`${dir}/${command}`));
}

function databaseEndpoint(): { host: string; port: string } {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432/');
  return { host: url.hostname || '127.0.0.1', port: url.port || '5432' };
}

/** The cluster behind DATABASE_URL is this machine's and we may stop it (root, pg_ctlcluster). */
export function canControlPostgres(): boolean {
  if (!postgresFaultsEnabled()) return false;
  const { host } = databaseEndpoint();
  return (
    ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host) &&
    process.getuid?.() === 0 &&
    clusterVersion() !== undefined &&
    onPath('pg_ctlcluster') &&
    onPath('pg_isready')
  );
}

let stoppedByUs = false;
let exitHookInstalled = false;

function ctl(action: 'stop' | 'start'): string[] {
  const args = ['--skip-systemctl-redirect', clusterVersion() ?? '', 'main', action];
  if (action === 'stop') args.push('-m', 'fast');
  return args;
}

export async function postgresReady(): Promise<boolean> {
  const { host, port } = databaseEndpoint();
  try {
    await run('pg_isready', ['-q', '-h', host, '-p', port], { timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/** Stops the cluster (fast shutdown: open sessions are terminated). Always pair with startPostgres. */
export async function stopPostgres(): Promise<void> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // last resort if the worker dies between stop and start: never leave the server down
    process.on('exit', () => {
      if (!stoppedByUs) return;
      try {
        execFileSync('pg_ctlcluster', ctl('start'), { stdio: 'ignore', timeout: 30_000 });
      } catch {
        // nothing more we can do from an exit hook
      }
    });
  }
  stoppedByUs = true;
  await run('pg_ctlcluster', ctl('stop'), { timeout: 60_000 });
}

/** Starts the cluster if it is not accepting connections, and waits until it does. */
export async function startPostgres(timeoutMs = 60_000): Promise<void> {
  if (!(await postgresReady())) {
    try {
      await run('pg_ctlcluster', ctl('start'), { timeout: timeoutMs });
    } catch (err) {
      // "already running" (someone else started it) is fine; anything else shows up below
      if (!(await postgresReady())) throw err;
    }
  }
  await eventually(async () => ((await postgresReady()) ? true : undefined), timeoutMs, 200);
  stoppedByUs = false;
}

// ---------------------------------------------------------------------------------------------
// Integrity audit of a schema after a fault
// ---------------------------------------------------------------------------------------------

export interface AuditResult {
  rows: number;
  /** Acknowledged receipt ids with no row. */
  missing: string[];
  /** Rows whose creation was never acknowledged with a 200. */
  unacknowledged: string[];
  /** Rows with a proof artifact but no log entry (a half-written issuance). */
  unlogged: string[];
  /** Rows that do not re-verify (integrity or signature), with the answer. */
  notVerifying: string[];
}

/**
 * Checks every row of the receipts table (acknowledged or not): each one with a proof artifact
 * has its log entry, and each one re-verifies through POST /receipt/:id/verify.
 */
export async function auditReceipts(
  app: FastifyInstance,
  knex: Knex,
  apiKey: string,
  acknowledged: Iterable<string>,
): Promise<AuditResult> {
  const acked = new Set(acknowledged);
  const rows = (await knex('receipts as r')
    .leftJoin('log_entries as l', 'l.receipt_id', 'r.id')
    .select('r.id', 'r.has_proof_artifact', 'l.receipt_id as logged')) as {
    id: string;
    has_proof_artifact: boolean;
    logged: string | null;
  }[];
  const stored = new Set(rows.map((r) => r.id));
  const notVerifying: string[] = [];
  for (const row of rows) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/receipt/${row.id}/verify`,
      headers: { 'x-api-key': apiKey },
    });
    const body = res.json() as { integrityVerified?: boolean; signatureVerified?: boolean };
    if (res.statusCode !== 200 || !body.integrityVerified || !body.signatureVerified) {
      notVerifying.push(`${row.id}: ${res.statusCode} ${res.body}`);
    }
  }
  return {
    rows: rows.length,
    missing: [...acked].filter((id) => !stored.has(id)),
    unacknowledged: rows.filter((r) => !acked.has(r.id)).map((r) => r.id),
    unlogged: rows.filter((r) => r.has_proof_artifact && r.logged === null).map((r) => r.id),
    notVerifying,
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP against a listening server, every request bounded in time
// ---------------------------------------------------------------------------------------------

export interface Outcome {
  /** HTTP status, or 0 when no answer came (then `error` says why). */
  status: number;
  body: string;
  error?: string;
  ms: number;
}

export async function call(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  timeoutMs = 15_000,
): Promise<Outcome> {
  const started = Date.now();
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, body: await res.text(), ms: Date.now() - started };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return { status: 0, body: '', error: e.cause?.code ?? e.name, ms: Date.now() - started };
  }
}

export function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const key = o.status === 0 ? `no answer (${o.error ?? '?'})` : String(o.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * knex prints pool and connection warnings with console.log (the store does not route them to
 * the app's logger); during a fault test there are hundreds. Count them instead of printing them.
 */
export function captureKnexWarnings(knex: Knex): string[] {
  const warnings: string[] = [];
  const client = knex.client as unknown as { logger: { _warn?: (message: string) => void } };
  client.logger._warn = (message) => warnings.push(String(message));
  return warnings;
}

/**
 * A TCP proxy in front of PostgreSQL that can go silent without closing anything, as a network
 * partition, a hung server or a full firewall state table does: connections stay open and new
 * ones are accepted, but no byte moves until `thaw()`, when everything buffered flows again.
 */
export class SilentProxy extends TcpProxy {
  private silent = false;

  /** Forwards chunk by chunk (not `pipe`, which would resume a paused socket on 'drain'). */
  protected override relay(client: net.Socket, upstream: net.Socket): void {
    if (this.silent) {
      client.pause();
      upstream.pause();
    }
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => client.write(d));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  /** Stops moving bytes; with `dropExisting`, open connections are cut first (fresh connects only). */
  silence(options: { dropExisting?: boolean } = {}): void {
    this.silent = true;
    for (const s of this.sockets) {
      if (options.dropExisting) s.destroy();
      else s.pause();
    }
  }

  thaw(): void {
    this.silent = false;
    for (const s of this.sockets) s.resume();
  }
}
