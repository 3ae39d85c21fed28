import type { Knex } from 'knex';
import { retry, type RetryPolicy } from '../retry.js';

/**
 * What the process caches; a change to one clears its cache. `receipts` stands for a stored
 * receipt's state: its row, its revocation and its log entry (migration 013).
 */
export type CachedTable =
  | 'api_keys'
  | 'notaries'
  | 'receipts'
  | 'signing_keys'
  | 'signing_key_endorsements'
  // news only, nothing cached: a witness cosigned a checkpoint (`Prefer: wait=N, witnessed`)
  | 'log_cosignatures'
  // news only: a webhook delivery became pending or got a new time (migration 029)
  | 'webhook_deliveries';
/**
 * What changed in a table, when narrower than "anything": for `receipts`, `sealed` (a seal gave
 * positions to entries that had none) or one receipt's id (its row or its revocation changed).
 */
export type ChangeDetail = string | undefined;
type Listener = (table: CachedTable | '*', detail: ChangeDetail) => void;
/** The one NOTIFY channel of the feed (triggers, and writes that announce news themselves). */
export const CHANGE_CHANNEL = 'receipts_changes';
/**
 * Connecting the LISTEN connection, until it succeeds or the feed closes: 1 s after a failure,
 * doubling to 5 s, jittered so that replicas cut off together do not all come back together.
 * While it is down the caches are bypassed and waiters poll, so a short wait keeps that short.
 */
export const RECONNECT: RetryPolicy = {
  attempts: Infinity,
  initialMs: 1_000,
  factor: 2,
  maxMs: 5_000,
  jitter: 0.5,
};

interface PgNotification {
  channel: string;
  payload?: string;
}
interface ListeningClient {
  query(sql: string): Promise<unknown>;
  on(event: 'notification', fn: (n: PgNotification) => void): void;
  on(event: 'error' | 'end', fn: () => void): void;
  end(): Promise<void>;
}

/** The embedded store's PGlite instance: it delivers NOTIFY in process, after the commit. */
interface EmbeddedNotifier {
  listen(channel: string, fn: (payload: string) => void): Promise<unknown>;
}

/**
 * Tells the in-process caches when cached rows change, and the waiting `Prefer: wait` answers
 * when a seal commits (seal-notices.ts). Changes made through this process are announced at
 * once (`announce`); triggers `pg_notify` every change on the cached tables
 * (migrations 006, 013 and 018), so a key revoked, a notary changed or a receipt revoked or sealed
 * by the CLI or another replica clears the caches within the notification's delivery time
 * (PostgreSQL: a LISTEN connection of its own; embedded: PGlite's in-process notifications,
 * which also catch a row changed by hand). While the LISTEN connection is down the feed is not
 * `live` and the caches are bypassed, so nothing stale is ever served for longer than that
 * delivery time.
 */
export class ChangeFeed {
  private readonly listeners = new Set<Listener>();
  private client: ListeningClient | undefined;
  private readonly closing = new AbortController();
  /** The schema the store's tables are in (PostgreSQL's current_schema()), once listening. */
  private schema: string | undefined;
  /** Caches may serve entries only while this is true. */
  live: boolean;

  constructor(
    private readonly knex: Knex,
    private readonly kind: 'postgres' | 'embedded',
  ) {
    // the embedded store is single-process: nothing changes it but this process
    this.live = kind === 'embedded';
  }

  /** Calls `fn` with every change; the returned function stops it. */
  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  announce(table: CachedTable | '*', detail?: string): void {
    for (const fn of this.listeners) fn(table, detail);
  }

  /**
   * A notification's payload is `<schema>.<table>` (migration 021; a bare table name from a
   * replica not yet migrated counts as this schema's), or `<schema>.<table>:<detail>` for a
   * narrower change (migration 023). The channel is one per database: a change in another schema
   * is another deployment's.
   */
  private notified(payload: string | undefined): void {
    if (!payload) return this.announce('*');
    const dot = payload.lastIndexOf('.');
    if (dot >= 0 && this.schema !== undefined && payload.slice(0, dot) !== this.schema) return;
    const change = payload.slice(dot + 1);
    const colon = change.indexOf(':');
    if (colon < 0) return this.announce(change as CachedTable);
    this.announce(change.slice(0, colon) as CachedTable, change.slice(colon + 1));
  }

  /**
   * Starts listening; resolves once listening or, for PostgreSQL, once the first attempt failed
   * (the next ones follow on RECONNECT, until one succeeds or the feed closes).
   */
  async start(): Promise<void> {
    if (this.closing.signal.aborted) return;
    if (this.kind === 'embedded') {
      const pglite = (this.knex.client as { pglite: EmbeddedNotifier }).pglite;
      await pglite.listen(CHANGE_CHANNEL, (payload) => this.notified(payload));
      return;
    }
    await new Promise<void>((firstAttemptEnded) => {
      retry(() => this.listen(), RECONNECT, {
        signal: this.closing.signal,
        onFailure: () => firstAttemptEnded(),
      }).then(firstAttemptEnded, () => undefined); // closed: nothing left to do
    });
  }

  /** One attempt at the LISTEN connection. */
  private async listen(): Promise<void> {
    this.schema ??= await this.currentSchema();
    const client = (await this.knex.client.acquireRawConnection()) as ListeningClient;
    const lost = () => this.lost(client);
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      if (n.channel === CHANGE_CHANNEL) this.notified(n.payload);
    });
    try {
      await client.query(`listen ${CHANGE_CHANNEL}`);
      this.closing.signal.throwIfAborted();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
    this.live = true;
    // a read begun while the feed was down may hold a row changed unnoticed: not cacheable
    this.announce('*');
  }

  /** The schema unqualified names resolve to on the pool's connections (DATABASE_SCHEMA's search_path). */
  private async currentSchema(): Promise<string> {
    const result = (await this.knex.raw('select current_schema() as schema')) as {
      rows: { schema: string }[];
    };
    const schema = result.rows[0]?.schema;
    if (!schema) throw new Error('no current schema');
    return schema;
  }

  private lost(client: ListeningClient): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.live = false;
    this.announce('*');
    void client.end().catch(() => undefined);
    void this.start();
  }

  async close(): Promise<void> {
    this.closing.abort();
    this.live = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/**
 * Which cached entries a narrower change (a ChangeDetail) makes stale; without it, or for a
 * change without detail, the whole cache goes.
 */
export type StaleEntries<V> = (detail: string, key: string, value: V) => boolean;

/**
 * A bounded map of rows that a ChangeFeed invalidates; entries only while the feed is live.
 * A read that a change overtook is returned but not cached: every change (and every reconnect
 * of the feed) starts a new generation, and only a read begun in the current one is kept, so
 * a row read just before a change committed cannot outlive the change's notification.
 */
export class RowCache<V> {
  private readonly entries = new Map<string, V>();
  private generation = 0;

  constructor(
    private readonly feed: ChangeFeed,
    table: CachedTable,
    private readonly maxEntries = 10_000,
    stale?: StaleEntries<V>,
  ) {
    feed.onChange((changed, detail) => {
      if (changed !== table && changed !== '*') return;
      this.generation += 1;
      if (changed === '*' || detail === undefined || stale === undefined) {
        this.entries.clear();
        return;
      }
      for (const [key, value] of this.entries) {
        if (stale(detail, key, value)) this.entries.delete(key);
      }
    });
  }

  /** The cached value, else `load()`'s (cached when defined and nothing changed meanwhile). */
  async through(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.feed.live ? this.entries.get(key) : undefined;
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const value = await load();
    if (value === undefined || !this.feed.live || generation !== this.generation) return value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    if (this.maxEntries > 0) this.entries.set(key, deepFreeze(value));
    return value;
  }
}

/** Cached values are shared by every request that reads them: none may change one. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  if (Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
