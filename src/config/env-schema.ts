import { z } from 'zod';
import { ConfigError } from './error.js';

/**
 * The environment's variables as zod reads them: empty means unset, numbers and booleans are
 * coerced, defaults filled in. src/config.ts parses `process.env` with it; every variable is
 * documented in docs/configuration.md.
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

export const EnvSchema = z.object({
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
  KEEP_ALIVE_TIMEOUT_MS: intWithDefault(5_000, 100),
  MAX_CONNECTIONS: intWithDefault(900, 1),
  MAX_CONNECTIONS_PER_ADDRESS: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).optional(),
  ),
  RATE_LIMIT_MAX: intWithDefault(300, 1),
  RATE_LIMIT_WINDOW_MS: intWithDefault(60_000, 1),
  REDIS_URL: optionalString,
  TRUST_PROXY: optionalString,
  SIGNING_KEY: optionalString,
  SIGNING_KEY_FILE: optionalString,
  SIGNING_DISABLED: boolWithDefault(false),
  SIGNING_TRUSTED_KIDS: optionalString,
  PQ_SIGNATURES: boolWithDefault(false),
  PQ_SIGNING_KEY_FILE: optionalString,
  SCREENING_LISTS_DIR: optionalString,
  PDF_SIGNING_KEY_FILE: optionalString,
  PDF_SIGNING_CERT_FILE: optionalString,
  TSA_URLS: optionalString,
  TSA_CERT_FILES: optionalString,
  TSA_TIMEOUT_MS: intWithDefault(10_000, 100),
  PDF_LONG_TERM: boolWithDefault(false),
  PDF_RENEWAL_MARGIN_DAYS: intWithDefault(90, 1),
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
  WEBHOOK_DELIVERY_INTERVAL_MS: intWithDefault(1_000, 0),
  WEBHOOK_TIMEOUT_MS: intWithDefault(15_000, 100),
  WEBHOOK_ALLOWED_NETWORKS: optionalString,
  WEBHOOK_SIGNING_KEY: optionalString,
  GHE_PROTOCOL: optionalString,
});

/** The environment after parsing: every variable checked, defaults filled in. */
export type Env = z.infer<typeof EnvSchema>;

/** The environment parsed by `EnvSchema`; every variable it refuses is named in one ConfigError. */
export function parseEnvironment(env: Record<string, string | undefined>): Env {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
