/**
 * True when an error means "the store cannot be reached right now" rather than "this query is
 * wrong": the API answers 503 dependency_unavailable for these and the pool reconnects by itself.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** PostgreSQL SQLSTATEs: 08xxx connection exceptions, 57P01-57P03 shutdowns, 53300 too many clients. */
const PG_UNAVAILABLE = /^(08...|57P0[1-3]|53300)$/;

const MESSAGES = [
  'Connection terminated',
  'connection error',
  'not queryable',
  'timeout exceeded when trying to connect', // pg-pool
  'timeout expired', // pg.Client connectionTimeoutMillis
  'Query read timeout', // pg.Client query_timeout
  'Connection terminated due to connection timeout',
  'Timeout acquiring a connection',
  'Unable to acquire a connection',
  'the database system is',
  'the embedded store thread stopped', // embedded/threaded-pglite.ts
];

export function isStoreUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: unknown; errors?: unknown };
  if (e.name === 'KnexTimeoutError') return true;
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || PG_UNAVAILABLE.test(e.code))) {
    return true;
  }
  if (MESSAGES.some((m) => e.message.includes(m))) return true;
  if (Array.isArray(e.errors) && e.errors.some(isStoreUnavailable)) return true; // AggregateError
  return e.cause !== undefined && e.cause !== err && isStoreUnavailable(e.cause);
}
