import type { Knex } from 'knex';

/** The tables whose rows the process caches; a change to one clears its cache. */
export type CachedTable = 'api_keys' | 'notaries';
const CHANNEL = 'receipts_changes';
const RETRY_MS = 1_000;

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

/**
 * Tells the in-process caches when cached rows change. Changes made through this process are
 * announced at once (`announce`); with PostgreSQL, triggers `pg_notify` every change on the
 * cached tables (migration 006), so a key revoked or a notary changed by the CLI or another
 * replica clears the caches within the notification's delivery time. While the LISTEN
 * connection is down the feed is not `live` and the caches are bypassed, so nothing stale is
 * ever served for longer than that delivery time.
 */
export class ChangeFeed {
  private readonly listeners = new Set<(table: CachedTable | '*') => void>();
  private client: ListeningClient | undefined;
  private closed = false;
  /** Caches may serve entries only while this is true. */
  live: boolean;

  constructor(private readonly knex: Knex | undefined) {
    // the embedded store is single-process: every change goes through `announce`
    this.live = knex === undefined;
  }

  onChange(fn: (table: CachedTable | '*') => void): void {
    this.listeners.add(fn);
  }

  announce(table: CachedTable | '*'): void {
    for (const fn of this.listeners) fn(table);
  }

  /** PostgreSQL: LISTEN on a connection of its own; resolves once listening (or failed). */
  async start(): Promise<void> {
    if (!this.knex || this.closed) return;
    try {
      const client = (await this.knex.client.acquireRawConnection()) as ListeningClient;
      const lost = () => this.lost(client);
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (n) => {
        if (n.channel === CHANNEL) this.announce((n.payload as CachedTable | undefined) ?? '*');
      });
      await client.query(`listen ${CHANNEL}`);
      this.client = client;
      this.live = true;
    } catch {
      this.retry();
    }
  }

  private lost(client: ListeningClient): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.live = false;
    this.announce('*');
    void client.end().catch(() => undefined);
    this.retry();
  }

  private retry(): void {
    if (this.closed) return;
    setTimeout(() => void this.start(), RETRY_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.live = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}

/** A bounded map of rows that a ChangeFeed invalidates; entries only while the feed is live. */
export class RowCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly feed: ChangeFeed,
    table: CachedTable,
    private readonly maxEntries = 10_000,
  ) {
    feed.onChange((changed) => {
      if (changed === table || changed === '*') this.entries.clear();
    });
  }

  get(key: string): V | undefined {
    return this.feed.live ? this.entries.get(key) : undefined;
  }

  set(key: string, value: V): void {
    if (!this.feed.live) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
  }
}
