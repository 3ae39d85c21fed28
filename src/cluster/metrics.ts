import cluster, { type Worker } from 'node:cluster';
import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue,
  type PrometheusContentType,
  type Registry,
} from 'prom-client';

type WorkerMetrics = MetricObjectWithValues<MetricValue<string>>[];

/**
 * One `/metrics` for all the workers of a cluster. A scrape reaches one worker (whichever the
 * connection was handed to), which asks the primary; the primary collects the registry of every
 * worker that is serving (not one still starting, which could not answer yet), merges them with
 * prom-client's `AggregatorRegistry.aggregate` (counters and histograms summed, a gauge as it
 * declares in `aggregator`) and sends the text back.
 */

/** A worker asks the primary for the whole cluster's metrics. */
interface Ask {
  type: 'receipts:metrics-ask';
  id: number;
}
/** The primary asks each serving worker for its own registry. */
interface Collect {
  type: 'receipts:metrics-collect';
  id: number;
}
interface Collected {
  type: 'receipts:metrics-collected';
  id: number;
  metrics?: WorkerMetrics;
  error?: string;
}
interface Answer {
  type: 'receipts:metrics-answer';
  id: number;
  text?: string;
  error?: string;
}
type Message = Ask | Collect | Collected | Answer;

/** Longest wait for the workers' registries; a scrape then gets 503. */
const COLLECT_TIMEOUT_MS = 5_000;

function messageOf<T extends Message['type']>(
  value: unknown,
  type: T,
): Extract<Message, { type: T }> | undefined {
  const typed = typeof value === 'object' && value !== null && 'type' in value;
  return typed && value.type === type ? (value as Extract<Message, { type: T }>) : undefined;
}

/** In the primary: answers each worker's ask with the aggregate of every serving worker. */
export function answerMetricsAsks(serving: () => Worker[]): void {
  const collections = new Map<number, Collection>();
  let next = 0;
  cluster.on('message', (worker, message: unknown) => {
    const collected = messageOf(message, 'receipts:metrics-collected');
    if (collected) collections.get(collected.id)?.report(worker, collected);
    const ask = messageOf(message, 'receipts:metrics-ask');
    if (!ask) return;
    const id = next++;
    const workers = serving();
    const collection = new Collection(workers, () => collections.delete(id));
    collections.set(id, collection);
    for (const one of workers) one.send({ type: 'receipts:metrics-collect', id }, () => {});
    collection.unlessWaiting();
    collection.done
      .then((all) => AggregatorRegistry.aggregate<PrometheusContentType>(all).metrics())
      .then(
        (text) => worker.send({ type: 'receipts:metrics-answer', id: ask.id, text }, () => {}),
        (err: unknown) =>
          worker.send(
            { type: 'receipts:metrics-answer', id: ask.id, error: String(err) },
            () => {},
          ),
      );
  });
  // a worker that dies while it is being asked is not waited for (its counters died with it)
  cluster.on('exit', (worker) => {
    for (const collection of collections.values()) collection.report(worker, undefined);
  });
}

/** The registries of one scrape, until every worker asked has reported or died. */
class Collection {
  private readonly waiting: Set<Worker>;
  private readonly answers: WorkerMetrics[] = [];
  private readonly timer: NodeJS.Timeout;
  private settle!: (error: string | undefined) => void;
  readonly done = new Promise<WorkerMetrics[]>((resolve, reject) => {
    this.settle = (error) => (error ? reject(new Error(error)) : resolve(this.answers));
  });

  constructor(
    workers: Worker[],
    private readonly forget: () => void,
  ) {
    this.waiting = new Set(workers);
    this.timer = setTimeout(
      () => this.finish(`${this.waiting.size} worker(s) did not report`),
      COLLECT_TIMEOUT_MS,
    );
  }

  /** Settles at once when no worker was asked. */
  unlessWaiting(): void {
    if (this.waiting.size === 0) this.finish(undefined);
  }

  /** `collected` undefined: the worker died. */
  report(worker: Worker, collected: Collected | undefined): void {
    if (!this.waiting.delete(worker)) return;
    if (collected?.metrics) this.answers.push(collected.metrics);
    else if (collected) return this.finish(collected.error ?? 'a worker reported nothing');
    this.unlessWaiting();
  }

  private finish(error: string | undefined): void {
    clearTimeout(this.timer);
    this.forget();
    this.settle(error);
  }
}

/**
 * In a worker of our own cluster (`workers` > 1): reports `registry` when the primary collects,
 * and returns how this worker reads the whole cluster's metrics. Otherwise undefined (read
 * `registry`), also in a worker of someone else's cluster (PM2's, say), whose primary would
 * never answer.
 */
export function clusterMetricsReader(
  registry: Registry,
  workers: number,
): (() => Promise<string>) | undefined {
  const send = process.send?.bind(process);
  if (workers <= 1 || !cluster.isWorker || send === undefined) return undefined;
  const waiting = new Map<number, (answer: Answer) => void>();
  let next = 0;
  process.on('message', (message: unknown) => {
    const collect = messageOf(message, 'receipts:metrics-collect');
    if (collect) {
      registry.getMetricsAsJSON().then(
        (metrics) => send({ type: 'receipts:metrics-collected', id: collect.id, metrics }),
        (err: unknown) =>
          send({ type: 'receipts:metrics-collected', id: collect.id, error: String(err) }),
      );
    }
    const answer = messageOf(message, 'receipts:metrics-answer');
    if (answer) waiting.get(answer.id)?.(answer);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(
        () => settle({ type: 'receipts:metrics-answer', id, error: 'no answer' }),
        COLLECT_TIMEOUT_MS + 1_000,
      );
      const settle = (answer: Answer) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(`cluster metrics: ${answer.error ?? 'no answer'}`));
      };
      waiting.set(id, settle);
      send({ type: 'receipts:metrics-ask', id });
    });
}
