import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseWitness } from '../anchoring/witness/cosignature.js';
import { allowedIssuerUrl } from '../receipts/ci-identity/oidc.js';
import { ConfigError } from './error.js';
import { MAX_WORKERS, type Env } from './env-schema.js';
import type { Config, GitHubAppConfig, StoreConfig } from './types.js';

/**
 * The parts of `Config` derived from more than one variable, or checked beyond what the schema
 * says: each throws a `ConfigError` naming the variable it refuses.
 */

/**
 * TRUST_PROXY: unset or `false` trusts no proxy; a whole number trusts that many hops of
 * X-Forwarded-For; otherwise a comma list of proxy addresses or CIDRs. `true` (trust every hop)
 * is refused: any client could then choose its own address and escape every per-address limit.
 */
export function trustProxyOf(value: string | undefined): false | number | string[] {
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

/**
 * Connection limits: MAX_CONNECTIONS open at once (each a file descriptor), at most
 * MAX_CONNECTIONS_PER_ADDRESS of them from one peer address, so one client holding idle sockets
 * cannot take every slot. The peer is the socket's: behind a proxy (TRUST_PROXY set) every
 * connection comes from the proxy, so there the default is no cap beyond MAX_CONNECTIONS.
 */
export function connectionsOf(e: Env, trustProxy: Config['trustProxy']): Config['connections'] {
  const perAddressDefault =
    trustProxy === false ? Math.min(128, e.MAX_CONNECTIONS) : e.MAX_CONNECTIONS;
  return {
    max: e.MAX_CONNECTIONS,
    perAddress: Math.min(e.MAX_CONNECTIONS_PER_ADDRESS ?? perAddressDefault, e.MAX_CONNECTIONS),
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
  };
}

/** The key this process signs with (inline, a file, or none) and the kids it trusts besides. */
export function signingOf(e: Env): Config['signing'] {
  return {
    key: e.SIGNING_KEY,
    keyFile: e.SIGNING_KEY_FILE,
    disabled: e.SIGNING_DISABLED,
    trustedKids: commaList(e.SIGNING_TRUSTED_KIDS) ?? [],
    pq: { enabled: e.PQ_SIGNATURES, keyFile: e.PQ_SIGNING_KEY_FILE },
  };
}

/** LOG_ORIGIN, else the origin PUBLIC_URL gives the log, else a fixed name. */
export function logOriginOf(e: Env): string {
  if (e.LOG_ORIGIN !== undefined) return e.LOG_ORIGIN;
  return e.PUBLIC_URL ? logPrefixOrigin(e.PUBLIC_URL) : 'verification-receipt-service/receipts-log';
}

/** The GitHub App's registration (manifest flow) and development webhook forwarding. */
export function githubSetupOf(e: Env): Config['githubSetup'] {
  return {
    webhookProxyUrl: e.WEBHOOK_PROXY_URL,
    gatePollMs: e.DEPLOYMENT_GATE_POLL_MS,
    org: e.GH_ORG,
    gheHost: e.GHE_HOST,
    gheProtocol: e.GHE_PROTOCOL,
    envFile: path.resolve(e.ENV_FILE ?? '.env'),
  };
}

/**
 * The PDF signing files (both or neither) and ISSUER_NAME, which defaults to the host of
 * PUBLIC_URL, else `Verification Receipt Service`.
 */
export function pdfSigningOf(e: Env): Config['pdfSigning'] {
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
export function tsaOf(e: Env): Config['tsa'] {
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
  return {
    urls,
    certFiles: certFiles.map((f) => path.resolve(f)),
    timeoutMs: e.TSA_TIMEOUT_MS,
    longTerm: e.PDF_LONG_TERM,
    renewalMarginDays: e.PDF_RENEWAL_MARGIN_DAYS,
  };
}

/** An IANA time zone Intl knows; unset: the process's own (TZ), which is UTC in the image. */
export function timeZoneOf(zone: string | undefined): string {
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
function databaseUrlOf(e: Env): string | undefined {
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
export function storeOf(e: Env, dataDir: string): StoreConfig {
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
export function urlsOf(publicUrl: string | undefined, port: number) {
  const trimmed = publicUrl?.replace(/\/+$/, '');
  return { publicUrl: trimmed, serviceUrl: trimmed ?? `http://localhost:${port}` };
}

/** OIDC tokens of CI runs: their issuers, and the audience they must name (PUBLIC_URL by default). */
export function ciOidcOf(e: Env): Config['ciOidc'] {
  return {
    issuers: oidcIssuers(e.CI_OIDC_ISSUERS),
    audience: e.CI_OIDC_AUDIENCE ?? e.PUBLIC_URL?.replace(/\/+$/, ''),
    clockSkewSeconds: e.CI_OIDC_CLOCK_SKEW_SECONDS,
    jwksCooldownMs: e.CI_OIDC_JWKS_COOLDOWN_MS,
  };
}

/** `a, b,,c` → ['a', 'b', 'c']; unset → undefined. */
export function commaList(raw: string | undefined): string[] | undefined {
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
export function githubConfig(e: Env): GitHubAppConfig | undefined {
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
export function workersOf(raw: number | 'auto', store: StoreConfig): number {
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
export function witnessesOf(
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
        `WITNESSES: "${item.slice(0, 200)}" is not <vkey>@<url> with a cosigner vkey (type 0x04 Ed25519 or 0x06 ML-DSA-44)`,
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
