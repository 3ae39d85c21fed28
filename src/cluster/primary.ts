import cluster, { type Worker } from 'node:cluster';
import { pino, type Logger } from 'pino';
import type { Config } from '../config.js';
import { answerMetricsAsks } from './metrics.js';

/**
 * The primary process of `WORKERS` > 1: it serves nothing itself. It forks one worker per slot,
 * each a whole replica (`src/server.ts` again: its own app, pool and caches) listening on the
 * shared port, which Node's cluster module hands out connection by connection (round robin).
 *
 * - Slot 0 starts alone and the others only once it listens: its start runs the migrations and
 *   may generate `DATA_DIR/signing-key.pem`, which the others then read.
 * - Slot 0 alone runs what must happen once per host rather than once per process: the
 *   interval sealer and the development webhook proxy (the others get `ANCHOR_INTERVAL_MS=0`
 *   and no `WEBHOOK_PROXY_URL`).
 * - A worker that dies after it listened is replaced in its slot. One that dies before it
 *   listened (the store unreachable, a bad key) stops the whole service, as a single process
 *   would, rather than respawning in a loop.
 * - SIGTERM or SIGINT is passed on to every worker, which drains its requests; the primary
 *   exits when they all have, with status 1 if any of them failed.
 * - `GET /metrics` on any worker answers for all of them (src/cluster/metrics.ts).
 */
export async function runPrimary(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel }).child({ role: 'primary' });
  const primary = new Primary(config.workers, config.metrics.port, log);
  answerMetricsAsks(() => primary.serving());
  process.on('SIGTERM', () => primary.stop('SIGTERM'));
  process.on('SIGINT', () => primary.stop('SIGINT'));
  await primary.start();
}

/** What slot `slot` runs differently from slot 0. */
export function slotEnv(slot: number): Record<string, string> {
  return slot === 0 ? {} : { ANCHOR_INTERVAL_MS: '0', WEBHOOK_PROXY_URL: '' };
}

class Primary {
  private readonly slots = new Map<Worker, number>();
  private readonly listening = new Set<Worker>();
  private stopping = false;
  private failed = false;

  constructor(
    private readonly count: number,
    /** A worker's metrics listener (METRICS_PORT) is not the service listening. */
    private readonly metricsPort: number | undefined,
    private readonly log: Logger,
  ) {
    cluster.on('exit', (worker, code, signal) => this.exited(worker, code, signal));
  }

  async start(): Promise<void> {
    await this.fork(0);
    await Promise.all(Array.from({ length: this.count - 1 }, (_, i) => this.fork(i + 1)));
    if (!this.stopping) this.log.info({ workers: this.count }, 'all workers listening');
  }

  /** The workers that listen (a worker still starting is not one of them). */
  serving(): Worker[] {
    return [...this.listening].filter((worker) => worker.isConnected());
  }

  /** `reason`: the signal received, or why the primary stops on its own. */
  stop(reason: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.log.info({ reason }, 'shutting down: each worker drains its requests');
    for (const worker of this.slots.keys()) worker.process.kill('SIGTERM');
    this.exitWhenAlone();
  }

  /** Forks slot `slot`; resolves once it listens (or has exited, which `exited` handles). */
  private fork(slot: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const worker = cluster.fork(slotEnv(slot));
    this.slots.set(worker, slot);
    return new Promise((resolve) => {
      const listening = (address: { port: number }) => {
        if (address.port === this.metricsPort) return;
        worker.off('listening', listening);
        this.listening.add(worker);
        this.log.info({ slot, workerPid: worker.process.pid }, 'worker listening');
        resolve();
      };
      worker.on('listening', listening);
      worker.once('exit', () => resolve());
    });
  }

  private exited(worker: Worker, code: number | null, signal: string | null): void {
    const slot = this.slots.get(worker);
    const listened = this.listening.delete(worker);
    this.slots.delete(worker);
    if (slot === undefined) return;
    if (this.stopping) {
      if (code !== 0 || signal) this.failed = true; // it did not drain
      this.exitWhenAlone();
      return;
    }
    const details = { slot, workerPid: worker.process.pid, code, signal };
    if (!listened) {
      this.log.error(details, 'worker exited before it listened: stopping the service');
      this.failed = true;
      this.stop('a worker could not start');
      return;
    }
    this.log.error(details, 'worker exited: starting a new one in its slot');
    void this.fork(slot);
  }

  private exitWhenAlone(): void {
    if (this.slots.size === 0) process.exit(this.failed ? 1 : 0);
  }
}
