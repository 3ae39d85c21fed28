import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { parseWitness, type Witness } from './anchoring/witness/cosignature.js';
import { ServiceError } from './errors.js';
import { allowedIssuerUrl } from './receipts/ci-identity/oidc.js';
import { z } from 'zod';

/**
 * The only place that reads `process.env`. Everything else receives a parsed `Config`.
 * Every variable is documented in docs/configuration.md.
 */

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const intWithDefault = (fallback: number, min = 0) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).default(fallback));
const boolWithDefault = (fallback: boolean) =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0'])
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1'),
  );

/** Most processes WORKERS may ask for (each holds its own pool, caches and screening index). */
export const MAX_WORKERS = 64;

const EnvSchema = z.object({
  NODE_ENV: optionalString,
  PORT: intWithDefault(3000),
  ISSUER_NAME: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(120).optional()),
  PDF_TIME_ZONE: optionalString,
  WORKERS: z.preprocess(
    emptyToUndefined,
    z.union([z.literal('auto'), z.coerce.number().int().min(1).max(MAX_WORKERS)]).default(1),
  ),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  DATABASE_URL: optionalString,
  DATABASE_URL_FILE: optionalString,
  DATABASE_SCHEMA: optionalString,
  DATABASE_POOL_MAX: intWithDefault(10, 1),
  DATABASE_QUERY_TIMEOUT_MS: intWithDefault(10_000, 100),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  BODY_LIMIT_BYTES: intWithDefault(15 * 1024 * 1024, 1024),
  REQUEST_TIMEOUT_MS: intWithDefault(30_000, 100),
  CONNECTION_TIMEOUT_MS: intWithDefault(60_000, 100),
  RATE_LIMIT_MAX: intWithDefault(300, 1),
  RATE_LIMIT_WINDOW_MS: intWithDefault(60_000, 1),
  REDIS_URL: optionalString,
  TRUST_PROXY: optionalString,
  SIGNING_KEY: optionalString,
  SIGNING_KEY_FILE: optionalString,
  SIGNING_DISABLED: boolWithDefault(false),
  SIGNING_TRUSTED_KIDS: optionalString,
  SCREENING_LISTS_DIR: optionalString,
  PDF_SIGNING_KEY_FILE: optionalString,
  PDF_SIGNING_CERT_FILE: optionalString,
  TSA_URLS: optionalString,
  TSA_CERT_FILES: optionalString,
  TSA_TIMEOUT_MS: intWithDefault(10_000, 100),
  ANCHOR_INTERVAL_MS: intWithDefault(60_000, 0),
  SEAL_BATCH_MS: intWithDefault(250, 0),
  ISSUE_BATCH_MAX: intWithDefault(128, 1),
  RECEIPT_CACHE_MAX: intWithDefault(2_000, 0),
  LOG_ORIGIN: optionalString,
  LOG_PUBLIC: boolWithDefault(true),
  LOG_RATE_LIMIT_MAX: intWithDefault(3_000, 1),
  WITNESSES: optionalString,
  METRICS_TOKEN: optionalString,
  METRICS_PORT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(65535).optional(),
  ),
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  WITNESS_QUORUM: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).optional()),
  WITNESS_TIMEOUT_MS: intWithDefault(10_000, 100),
  ISSUER_CLOCK_SKEW_SECONDS: intWithDefault(300, 1),
  CI_TRUSTED_EVENTS: optionalString,
  CI_OIDC_ISSUERS: z.preprocess(
    emptyToUndefined,
    z.string().default('https://token.actions.githubusercontent.com'),
  ),
  CI_OIDC_AUDIENCE: optionalString,
  CI_OIDC_CLOCK_SKEW_SECONDS: intWithDefault(60, 0),
  CI_OIDC_JWKS_COOLDOWN_MS: intWithDefault(30_000, 0),
  APP_ID: optionalString,
  PRIVATE_KEY: optionalString,
  PRIVATE_KEY_PATH: optionalString,
  WEBHOOK_SECRET: optionalString,
  GHE_HOST: optionalString,
  GH_ORG: optionalString,
  WEBHOOK_PROXY_URL: optionalString,
  DEPLOYMENT_GATE_POLL_MS: intWithDefault(10_000, 50),
  ENV_FILE: optionalString,
  GHE_PROTOCOL: optionalString,
});

export type StoreConfig =
  | {
      kind: 'postgres';
      url: string;
      schema?: string | undefined;
      poolMax: number;
      /** Longest wait for one query's answer before it counts as the store being unavailable. */
      queryTimeoutMs?: number | undefined;
    }
  /** `dataDir: null` keeps the embedded database in memory (tests, benchmarks). */
  | { kind: 'embedded'; dataDir: string | null };

export interface GitHubAppConfig {
  appId: string;
  privateKey?: string | undefined;
  privateKeyPath?: string | undefined;
  webhookSecret: string;
  gheHost?: string | undefined;
  gheProtocol?: string | undefined;
}

export interface Config {
  port: number;
  /**
   * Processes serving the port (WORKERS; `auto` is the CPUs this process may use): above 1, a
   * primary process forks that many workers, each a whole replica (src/cluster/). PostgreSQL only.
   */
  workers: number;
  host: string;
  logLevel: string;
  publicUrl: string | undefined;
  /** ISSUER_NAME: the organisation that issues receipts, printed at the top of every PDF. */
  issuerName: string | undefined;
  /** PDF_TIME_ZONE: the IANA zone PDF receipts show local times in (UTC is printed beside). */
  pdfTimeZone: string;
  /** PUBLIC_URL, else http://localhost:<PORT>: for what must be absolute (a PDF's links). */
  serviceUrl: string;
  store: StoreConfig;
  dataDir: string;
  bodyLimitBytes: number;
  /** Whole request (headers and body) received within this, else 408 and the socket closes. */
  requestTimeoutMs: number;
  /** An idle connection (nothing received or sent) is closed after this. */
  connectionTimeoutMs: number;
  rateLimit: { max: number; windowMs: number; redisUrl: string | undefined };
  /**
   * Fastify's `trustProxy`, which decides `request.ip` (every per-address limit): false (the
   * socket's peer), a hop count, or the proxies' addresses and CIDRs.
   */
  trustProxy: false | number | string[];
  signing: {
    key: string | undefined;
    keyFile: string | undefined;
    disabled: boolean;
    /** Kids trusted without an endorsement, besides the key this process signs with. */
    trustedKids: string[];
  };
  screeningListsDir: string | undefined;
  /**
   * PAdES signatures of PDF receipts: PDF_SIGNING_KEY_FILE + PDF_SIGNING_CERT_FILE (both or
   * neither; neither: a key and self-issued certificate in DATA_DIR), and the organisation a
   * self-issued certificate names (ISSUER_NAME).
   */
  pdfSigning: { keyFile: string | undefined; certFile: string | undefined; issuerName: string };
  /** RFC 3161 time-stamp authorities (TSA_URLS) and the certificates their tokens must chain to. */
  tsa: { urls: string[]; certFiles: string[]; timeoutMs: number };
  /** Longest time between two seals and two witness rounds; 0: no in-process sealer. */
  anchorIntervalMs: number;
  /** The sealer's batching window: pending entries are sealed this often; 0: only per interval. */
  sealBatchMs: number;
  /** Largest number of receipts one group-commit statement writes. */
  issueBatchMax: number;
  /** Receipts cached in process for reads by id; 0 turns the cache off. */
  receiptCacheMax: number;
  /** Origin line of the log's checkpoints (and the note key name). */
  logOrigin: string;
  /** The tlog-tiles API at /log/: open to anyone (default), or behind a read-scoped key. */
  logPublic: boolean;
  /** Requests per window per client address on /log/ (a monitor reads two per 256 entries). */
  logRateLimitMax: number;
  /** Prometheus metrics: GET /metrics with this bearer token, and/or a listener of their own. */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /** Witnesses asked to cosign each checkpoint (c2sp.org/tlog-witness), and how many must. */
  witnesses: { list: Witness[]; quorum: number; timeoutMs: number };
  issuerClockSkewSeconds: number;
  /** Trigger events the CI adapter trusts; undefined means the documented default list. */
  ciTrustedEvents: string[] | undefined;
  /** OIDC issuers whose CI run tokens are trusted, the audience they must name, clock skew. */
  ciOidc: {
    issuers: string[];
    audience: string | undefined;
    clockSkewSeconds: number;
    /** Shortest interval between two fetches of an issuer's keys (an unknown kid refetches). */
    jwksCooldownMs: number;
  };
  github: GitHubAppConfig | undefined;
  /** GitHub App registration (manifest flow at /probot) and development webhook forwarding. */
  githubSetup: {
    /** smee.io channel: webhooks forwarded to this process (development). */
    webhookProxyUrl: string | undefined;
    /** How often pending deployment gates are judged again (a receipt arrived, a wait ended). */
    gatePollMs: number;
    /** Register the app for this organisation instead of the user. */
    org: string | undefined;
    gheHost: string | undefined;
    gheProtocol: string | undefined;
    /** Where the manifest flow writes the app credentials (ENV_FILE, default ./.env). */
    envFile: string;
  };
}

/**
 * TRUST_PROXY: unset or `false` trusts no proxy; a whole number trusts that many hops of
 * X-Forwarded-For; otherwise a comma list of proxy addresses or CIDRs. `true` (trust every hop)
 * is refused: any client could then choose its own address and escape every per-address limit.
 */
function trustProxyOf(value: string | undefined): false | number | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (/^[0-9]{1,2}$/.test(text)) return Number(text);
  const list = commaList(text) ?? [];
  const bad = list.filter((entry) => !isAddressOrCidr(entry));
  if (list.length === 0 || bad.length > 0) {
    throw new ConfigError(
      `TRUST_PROXY must be a hop count or a comma list of proxy addresses/CIDRs; not valid: ${bad.join(', ') || text}`,
    );
  }
  return list;
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = /^[0-9]{1,3}$/.test(prefix) ? Number(prefix) : -1;
  return bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

export class ConfigError extends ServiceError<'config_invalid'> {
  override name = 'ConfigError';
  constructor(message: string) {
    super('config_invalid', message);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const store = storeOf(e, dataDir);
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
    rateLimit: { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_MS, redisUrl: e.REDIS_URL },
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    signing: {
      key: e.SIGNING_KEY,
      keyFile: e.SIGNING_KEY_FILE,
      disabled: e.SIGNING_DISABLED,
      trustedKids: commaList(e.SIGNING_TRUSTED_KIDS) ?? [],
    },
    screeningListsDir: e.SCREENING_LISTS_DIR,
    pdfSigning: pdfSigningOf(e),
    tsa: tsaOf(e),
    anchorIntervalMs: e.ANCHOR_INTERVAL_MS,
    sealBatchMs: e.SEAL_BATCH_MS,
    issueBatchMax: e.ISSUE_BATCH_MAX,
    receiptCacheMax: e.RECEIPT_CACHE_MAX,
    logOrigin:
      e.LOG_ORIGIN ??
      (e.PUBLIC_URL ? logPrefixOrigin(e.PUBLIC_URL) : 'verification-receipt-service/receipts-log'),
    logPublic: e.LOG_PUBLIC,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    witnesses: witnessesOf(e.WITNESSES, e.WITNESS_QUORUM, e.WITNESS_TIMEOUT_MS),
    logRateLimitMax: e.LOG_RATE_LIMIT_MAX,
    issuerClockSkewSeconds: e.ISSUER_CLOCK_SKEW_SECONDS,
    ciOidc: ciOidcOf(e),
    ciTrustedEvents: commaList(e.CI_TRUSTED_EVENTS),
    github: githubConfig(e),
    githubSetup: {
      webhookProxyUrl: e.WEBHOOK_PROXY_URL,
      gatePollMs: e.DEPLOYMENT_GATE_POLL_MS,
      org: e.GH_ORG,
      gheHost: e.GHE_HOST,
      gheProtocol: e.GHE_PROTOCOL,
      envFile: path.resolve(e.ENV_FILE ?? '.env'),
    },
  };
}

/**
 * The PDF signing files (both or neither) and ISSUER_NAME, which defaults to the host of
 * PUBLIC_URL, else `Verification Receipt Service`.
 */
function pdfSigningOf(e: z.infer<typeof EnvSchema>): Config['pdfSigning'] {
  if (Boolean(e.PDF_SIGNING_KEY_FILE) !== Boolean(e.PDF_SIGNING_CERT_FILE)) {
    throw new ConfigError('set both PDF_SIGNING_KEY_FILE and PDF_SIGNING_CERT_FILE, or neither');
  }
  const host = e.PUBLIC_URL ? new URL(e.PUBLIC_URL).host : undefined;
  return {
    keyFile: e.PDF_SIGNING_KEY_FILE,
    certFile: e.PDF_SIGNING_CERT_FILE,
    issuerName: e.ISSUER_NAME ?? host ?? 'Verification Receipt Service',
  };
}

/** TSA_URLS (http or https) need TSA_CERT_FILES: an answer that cannot be checked is not kept. */
function tsaOf(e: z.infer<typeof EnvSchema>): Config['tsa'] {
  const urls = commaList(e.TSA_URLS) ?? [];
  const certFiles = commaList(e.TSA_CERT_FILES) ?? [];
  for (const url of urls) {
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'https:' && protocol !== 'http:') {
      throw new ConfigError(`TSA_URLS: ${url.slice(0, 200)} is not an http(s) URL`);
    }
  }
  if (urls.length > 0 && certFiles.length === 0) {
    throw new ConfigError('TSA_URLS is set but TSA_CERT_FILES is not: set the TSA certificates');
  }
  return { urls, certFiles: certFiles.map((f) => path.resolve(f)), timeoutMs: e.TSA_TIMEOUT_MS };
}

/** An IANA time zone Intl knows; unset: the process's own (TZ), which is UTC in the image. */
function timeZoneOf(zone: string | undefined): string {
  const resolved = zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: resolved }).resolvedOptions().timeZone;
  } catch {
    throw new ConfigError(
      `PDF_TIME_ZONE ${zone ?? ''} is not an IANA time zone (e.g. America/Chicago)`,
    );
  }
}

/**
 * DATABASE_URL, or the content of DATABASE_URL_FILE (a secret mounted as a file, as Docker and
 * compose provide them, so the password is in no environment listing).
 */
function databaseUrlOf(e: z.infer<typeof EnvSchema>): string | undefined {
  if (e.DATABASE_URL || !e.DATABASE_URL_FILE) return e.DATABASE_URL;
  let text: string;
  try {
    text = readFileSync(e.DATABASE_URL_FILE, 'utf8');
  } catch {
    throw new ConfigError(`DATABASE_URL_FILE ${e.DATABASE_URL_FILE} cannot be read`);
  }
  const url = text.trim();
  if (!/^postgres(ql)?:\/\/\S+$/.test(url)) {
    throw new ConfigError(`DATABASE_URL_FILE ${e.DATABASE_URL_FILE} holds no postgres:// URL`);
  }
  return url;
}

/** DATABASE_URL (or DATABASE_URL_FILE) set: PostgreSQL; else the embedded store in DATA_DIR. */
function storeOf(e: z.infer<typeof EnvSchema>, dataDir: string): StoreConfig {
  const url = databaseUrlOf(e);
  if (!url) return { kind: 'embedded', dataDir };
  return {
    kind: 'postgres',
    url,
    schema: e.DATABASE_SCHEMA,
    poolMax: e.DATABASE_POOL_MAX,
    queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS,
  };
}

/** PUBLIC_URL without its trailing slash, and the absolute base a printed link needs. */
function urlsOf(publicUrl: string | undefined, port: number) {
  const trimmed = publicUrl?.replace(/\/+$/, '');
  return { publicUrl: trimmed, serviceUrl: trimmed ?? `http://localhost:${port}` };
}

/** OIDC tokens of CI runs: their issuers, and the audience they must name (PUBLIC_URL by default). */
function ciOidcOf(e: z.infer<typeof EnvSchema>): Config['ciOidc'] {
  return {
    issuers: oidcIssuers(e.CI_OIDC_ISSUERS),
    audience: e.CI_OIDC_AUDIENCE ?? e.PUBLIC_URL?.replace(/\/+$/, ''),
    clockSkewSeconds: e.CI_OIDC_CLOCK_SKEW_SECONDS,
    jwksCooldownMs: e.CI_OIDC_JWKS_COOLDOWN_MS,
  };
}

/** `a, b,,c` → ['a', 'b', 'c']; unset → undefined. */
function commaList(raw: string | undefined): string[] | undefined {
  return raw
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * The GitHub App, enabled by APP_ID, WEBHOOK_SECRET and PRIVATE_KEY (or PRIVATE_KEY_PATH)
 * together. None of them: disabled (the /probot setup page can register one). Some but not all:
 * a configuration error naming what is missing, rather than an app silently switched off.
 */
function githubConfig(e: z.infer<typeof EnvSchema>): GitHubAppConfig | undefined {
  const given = {
    APP_ID: Boolean(e.APP_ID),
    WEBHOOK_SECRET: Boolean(e.WEBHOOK_SECRET),
    'PRIVATE_KEY or PRIVATE_KEY_PATH': Boolean(e.PRIVATE_KEY || e.PRIVATE_KEY_PATH),
  };
  const missing = Object.entries(given)
    .filter(([, set]) => !set)
    .map(([name]) => name);
  if (missing.length === 3) return undefined;
  if (missing.length > 0 || !e.APP_ID || !e.WEBHOOK_SECRET) {
    throw new ConfigError(
      `the GitHub App is partly configured: set ${missing.join(', ')} too, or unset the others`,
    );
  }
  return {
    appId: e.APP_ID,
    privateKey: e.PRIVATE_KEY,
    privateKeyPath: e.PRIVATE_KEY_PATH,
    webhookSecret: e.WEBHOOK_SECRET,
    gheHost: e.GHE_HOST,
    gheProtocol: e.GHE_PROTOCOL,
  };
}

/**
 * WORKERS: `auto` is the CPUs this process may run on with PostgreSQL, and 1 with the embedded
 * store (single-process); a number above 1 with the embedded store is a configuration error.
 */
function workersOf(raw: number | 'auto', store: StoreConfig): number {
  if (raw === 'auto') {
    return store.kind === 'embedded' ? 1 : Math.min(availableParallelism(), MAX_WORKERS);
  }
  if (raw > 1 && store.kind === 'embedded') {
    throw new ConfigError(
      `WORKERS is ${raw} but the embedded store is single-process: set DATABASE_URL, or WORKERS=1`,
    );
  }
  return raw;
}

/**
 * c2sp.org/tlog-tiles: the origin SHOULD be the log's URL prefix without scheme or trailing
 * slash. The tiles are served at `<PUBLIC_URL>/log/`, so `https://r.example/x/` gives
 * `r.example/x/log`.
 */
export function logPrefixOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.host}${url.pathname.replace(/\/+$/, '')}/log`;
}

/** WITNESSES: comma-separated `<vkey>@<url>`; WITNESS_QUORUM defaults to all of them. */
function witnessesOf(
  raw: string | undefined,
  quorum: number | undefined,
  timeoutMs: number,
): Config['witnesses'] {
  const items = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const list = items.map((item) => {
    const witness = parseWitness(item);
    if (!witness) {
      throw new ConfigError(
        `WITNESSES: "${item.slice(0, 200)}" is not <vkey>@<url> with an Ed25519 cosignature vkey (type 0x04)`,
      );
    }
    return witness;
  });
  if (new Set(list.map((w) => w.name)).size !== list.length) {
    throw new ConfigError('WITNESSES: two witnesses have the same name');
  }
  if (quorum !== undefined && quorum > list.length) {
    throw new ConfigError(
      `WITNESS_QUORUM is ${quorum} but only ${list.length} witness(es) are set`,
    );
  }
  return { list, quorum: quorum ?? list.length, timeoutMs };
}

/** CI_OIDC_ISSUERS: comma-separated issuer URLs, https (http only on a loopback host). */
function oidcIssuers(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((issuer) => {
      let url: URL;
      try {
        url = new URL(issuer);
      } catch {
        throw new ConfigError(`CI_OIDC_ISSUERS: ${issuer.slice(0, 200)} is not a URL`);
      }
      if (!allowedIssuerUrl(url)) {
        throw new ConfigError(`CI_OIDC_ISSUERS: ${issuer} must be https (http only on loopback)`);
      }
      return issuer;
    });
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
