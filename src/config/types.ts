import type { Witness } from '../anchoring/witness/cosignature.js';
import type { WebhooksConfig } from './webhooks.js';

/**
 * The parsed configuration's shape: what `loadConfig` (src/config.ts) returns and the functions
 * of derived.ts build parts of. A module of its own so that derived.ts and src/config.ts both
 * import it and neither imports the other.
 */

export type StoreConfig =
  | {
      kind: 'postgres';
      url: string;
      schema?: string | undefined;
      poolMax: number;
      /** Longest wait for one query's answer before it counts as the store being unavailable. */
      queryTimeoutMs?: number | undefined;
    }
  /**
   * `dataDir: null` keeps the embedded database in memory (tests, benchmarks). `acquireTimeoutMs`:
   * the longest wait for the pool's connection once the database exists (default 30 s).
   */
  | { kind: 'embedded'; dataDir: string | null; acquireTimeoutMs?: number };

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
  /**
   * Open connections at most (`max`), from one peer address at most (`perAddress`: the socket's
   * peer, the proxy behind TRUST_PROXY), and how long a kept-alive connection waits for its
   * next request (`keepAliveTimeoutMs`).
   */
  connections: { max: number; perAddress: number; keepAliveTimeoutMs: number };
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
    /**
     * PQ_SIGNATURES: bundles carry an ML-DSA-44 signature of the receipt beside the Ed25519 one,
     * by the key whose 32-byte seed is in PQ_SIGNING_KEY_FILE (else `<DATA_DIR>/signing-key-ml-dsa-44.seed`,
     * generated on first use).
     */
    pq: { enabled: boolean; keyFile: string | undefined };
  };
  screeningListsDir: string | undefined;
  /**
   * PAdES signatures of PDF receipts: PDF_SIGNING_KEY_FILE + PDF_SIGNING_CERT_FILE (both or
   * neither; neither: a key and self-issued certificate in DATA_DIR), and the organisation a
   * self-issued certificate names (ISSUER_NAME).
   */
  pdfSigning: { keyFile: string | undefined; certFile: string | undefined; issuerName: string };
  /**
   * RFC 3161 time-stamp authorities (TSA_URLS) and the certificates their tokens must chain to;
   * PDF_LONG_TERM: PDF receipts are PAdES B-LTA (a DSS and a document time-stamp after the
   * signature), their archive time-stamp renewed PDF_RENEWAL_MARGIN_DAYS before its certificate
   * ends.
   */
  tsa: {
    urls: string[];
    certFiles: string[];
    timeoutMs: number;
    longTerm: boolean;
    renewalMarginDays: number;
  };
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
  /** ISSUER_CLOCK_SKEW_SECONDS: how far a revocation's x-signature-timestamp may be from now. */
  revocationClockSkewSeconds: number;
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
  /** Webhooks to relying parties: delivery, timeout, allowed private networks, the v1a key. */
  webhooks: WebhooksConfig;
}
