import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import {
  ciOidcOf,
  commaList,
  connectionsOf,
  githubConfig,
  githubSetupOf,
  logOriginOf,
  pdfSigningOf,
  signingOf,
  storeOf,
  timeZoneOf,
  trustProxyOf,
  tsaOf,
  urlsOf,
  witnessesOf,
  workersOf,
} from './config/derived.js';
import { parseEnvironment } from './config/env-schema.js';
import type { Config } from './config/types.js';
import { webhooksOf } from './config/webhooks.js';

/**
 * The only place that reads `process.env`. Everything else receives a parsed `Config`.
 * Every variable is documented in docs/configuration.md; src/config/ holds the schema that
 * parses them (env-schema.ts) and the parts of `Config` derived from them (derived.ts).
 */

export { ConfigError } from './config/error.js';
export { MAX_WORKERS } from './config/env-schema.js';
export { logPrefixOrigin } from './config/derived.js';
export type { Config, GitHubAppConfig, StoreConfig } from './config/types.js';

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = parseEnvironment(env);
  const dataDir = path.resolve(e.DATA_DIR);
  const store = storeOf(e, dataDir);
  const trustProxy = trustProxyOf(e.TRUST_PROXY);
  return {
    port: e.PORT,
    workers: workersOf(e.WORKERS, store),
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    ...urlsOf(e.PUBLIC_URL, e.PORT),
    issuerName: e.ISSUER_NAME,
    pdfTimeZone: timeZoneOf(e.PDF_TIME_ZONE),
    store,
    dataDir,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    connectionTimeoutMs: e.CONNECTION_TIMEOUT_MS,
    connections: connectionsOf(e, trustProxy),
    rateLimit: { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS, redisUrl: e.REDIS_URL },
    trustProxy,
    signing: signingOf(e),
    screeningListsDir: e.SCREENING_LISTS_DIR,
    pdfSigning: pdfSigningOf(e),
    tsa: tsaOf(e),
    anchorIntervalMs: e.ANCHOR_INTERVAL_MS,
    sealBatchMs: e.SEAL_BATCH_MS,
    issueBatchMax: e.ISSUE_BATCH_MAX,
    receiptCacheMax: e.RECEIPT_CACHE_MAX,
    logOrigin: logOriginOf(e),
    logPublic: e.LOG_PUBLIC,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    witnesses: witnessesOf(e.WITNESSES, e.WITNESS_QUORUM, e.WITNESS_TIMEOUT_MS),
    logRateLimitMax: e.LOG_RATE_LIMIT_MAX,
    revocationClockSkewSeconds: e.ISSUER_CLOCK_SKEW_SECONDS,
    ciOidc: ciOidcOf(e),
    ciTrustedEvents: commaList(e.CI_TRUSTED_EVENTS),
    github: githubConfig(e),
    githubSetup: githubSetupOf(e),
    webhooks: webhooksOf(e),
  };
}

/** The process's environment as it is, for a caller that hands it on (the CLI's demo server). */
export function processEnvironment(): Record<string, string | undefined> {
  return process.env;
}

/**
 * Loads `ENV_FILE` (default `./.env`, where the /probot setup writes the app's credentials) into
 * `env` when the file exists: variables already set win over the file. Returns the file loaded.
 */
export function loadEnvFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = path.resolve(env.ENV_FILE || '.env');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] === undefined) env[name] = value;
  }
  return file;
}
