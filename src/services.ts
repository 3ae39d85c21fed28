import { AnchorService } from './anchoring/anchor-service.js';
import { consistencyProof } from './anchoring/proofs.js';
import type { NoteSigner } from './anchoring/signed-note.js';
import { Witnessing } from './anchoring/witness/witnessing.js';
import type { Config } from './config.js';
import type { Decision } from './contract/common.js';
import { receiptLinks } from './contract/links.js';
import { DEFAULT_TRUSTED_EVENTS } from './receipts/checks/ci.js';
import { OidcVerifier } from './receipts/ci-identity/oidc.js';
import type { IntegrityFailureReporter } from './receipts/intact.js';
import { ReceiptIssuer } from './receipts/issuance.js';
import { LogWaiters } from './receipts/log-waiters.js';
import { loadKeySource, loadPqSeed } from './files/signing-key-file.js';
import { trustedKeys, type KeyTrust } from './receipts/key-trust.js';
import { KeyRingSource } from './receipts/keyring.js';
import type { DefaultBranchSource, SigningKeyStore } from './receipts/ports.js';
import { ReceiptService, type ReceiptServiceDeps } from './receipts/service.js';
import { DeploymentGates } from './receipts/deployment-gates/gates.js';
import { createPqSigner, type PqSigner } from './receipts/pq-signer.js';
import { createSigner, type Ed25519PublicJwk, type Signer } from './receipts/signer.js';
import type { Repositories } from './storage/repositories.js';
import { isStoreUnavailable } from './storage/unavailable.js';
import { loadScreeningLists } from './files/screening-lists.js';
import type { ScreeningLists } from './screening/lists.js';
import { PdfSigner } from './pdf/sign/index.js';
import { SignedReceiptPdfMaker } from './pdf/signed-receipt.js';
import type { SignedPdfDeps, StoredPdfMismatch } from './receipts/signed-pdf.js';
import { timekeepingOf, type Timestamping } from './timestamping/index.js';
import { crlCertificateRevocation } from './timestamping/crl-client.js';
import { renewDuePdfs, type RenewalRun } from './timestamping/pdf-renewal.js';
import { WebhookDispatcher, type DispatcherDeps } from './webhooks/dispatcher.js';
import { httpSender } from './webhooks/sender.js';
import { WebhookService } from './webhooks/service.js';
import {
  webhookKeyFromSecret,
  webhookKeyFromSigningKey,
  type WebhookKey,
} from './webhooks/signatures.js';
import { TargetPolicy } from './webhooks/target.js';

/**
 * The composition root: the one place the domain is wired to its stores. The Fastify plugins
 * and every CLI command build their services here, so the server and the CLI sign, verify and
 * seal with the same objects.
 */
export interface Services {
  config: Config;
  /**
   * Every store, for the CLI's admin commands only: the server's adapters (src/http,
   * src/github) go through the use cases below (enforced by lint).
   */
  stores: Repositories;
  /** Undefined when SIGNING_DISABLED=true (or a CLI command that signs nothing). */
  signer: Signer | undefined;
  /** The ML-DSA-44 signer of bundles (PQ_SIGNATURES), published in the JWKS as an AKP key. */
  pqSigner: PqSigner | undefined;
  /** Where the signing key came from, and whether this start generated it. */
  signingKey: { file: string | undefined; generated: boolean } | undefined;
  /** The trusted signing keys (chain of trust), for verification and the JWKS. */
  keyTrust(): Promise<KeyTrust>;
  keyRing: KeyRingSource;
  anchoring: AnchorService;
  receipts: ReceiptService;
  /** The GitHub App's deployment gate: its judgement, decisions and their records. */
  deploymentGates: DeploymentGates;
  /** `Prefer: wait` answers, woken by the store's seal notices (one listener for all). */
  logWaiters: LogWaiters;
  /** Adds the active signing key to the ring in the store; says whether it was rotated out. */
  registerSigner(): Promise<{ retired: boolean } | undefined>;
  /** Signs PDF receipts (PAdES); its certificate is published. */
  pdfSigner: PdfSigner;
  /** RFC 3161 time-stamping of checkpoints and PDF signatures, when TSA_URLS is set. */
  timestamping: Timestamping | undefined;
  /**
   * Renews the kept PDFs' archive time-stamps that are due (PAdES B-LTA: TSA_URLS with
   * PDF_LONG_TERM); undefined without long-term PDFs.
   */
  renewDuePdfs: (() => Promise<RenewalRun>) | undefined;
  /** Webhooks to relying parties: subscriptions, the v1a key, the sender of deliveries. */
  webhooks: Webhooks;
}

export interface Webhooks {
  service: WebhookService;
  /** The v1a key, published at /.well-known/webhook-jwks.json; undefined if signing is off. */
  key: WebhookKey | undefined;
  targets: TargetPolicy;
  /** A dispatcher over this process's stores; tests override its clock or sender. */
  dispatcher(overrides?: Partial<DispatcherDeps>): WebhookDispatcher;
}

export interface ServiceOptions {
  /** Load (or generate) the signing key; commands that sign nothing skip it. Default true. */
  loadSigner?: boolean;
  /** Load the screening lists; commands that issue nothing skip it. Default true. */
  loadScreening?: boolean;
  /** Told the decision of every receipt this process issues (metrics). */
  onIssued?: (decision: Decision) => void;
  /** Told of every stored receipt refused because it no longer verifies (log, metrics). */
  onIntegrityFailure?: IntegrityFailureReporter;
  /** Told of every kept PDF that is not the one the service signed (log, metrics). */
  onStoredPdfMismatch?: (mismatch: StoredPdfMismatch) => void;
  /** The GitHub App's default-branch answers (ci-provenance-v2), when the app is configured. */
  defaultBranches?: DefaultBranchSource | undefined;
}

export async function createServices(
  config: Config,
  stores: Repositories,
  options: ServiceOptions = {},
): Promise<Services> {
  const source =
    options.loadSigner === false || config.signing.disabled ? undefined : loadKeySource(config);
  const signer = source ? createSigner(source.pem) : undefined;
  const signingKey = source ? { file: source.file, generated: source.generated } : undefined;
  const pqSigner =
    signer && config.signing.pq.enabled ? createPqSigner(loadPqSeed(config)) : undefined;
  const screening = await loadScreeningLists(
    options.loadScreening === false ? undefined : config.screeningListsDir,
  );
  const keyTrust = keyTrustSource(stores.signingKeys, signer, config.signing.trustedKids);
  const keyRing = new KeyRingSource(async () => (await keyTrust()).trusted);
  const witnessing = witnessingOf(config, stores);
  const time = timekeepingOf(config, stores.checkpointTimestamps);
  const anchoring = new AnchorService(
    stores.log,
    signer && noteSignerOf(signer, config.logOrigin),
    config.logOrigin,
    async () => (await keyRing.current()).publicKeys(),
    witnessing,
    time.timekeeping,
  );
  const issuer = issuerOf(config, stores, screening, signer, options);
  const { pdfSigner, pdfs } = pdfsOf(config, stores, time, options);
  const receipts = receiptServiceOf(config, stores, options, {
    issuer,
    keyRing,
    anchoring,
    signer,
    pqSigner,
    pdfs,
  });
  const registerSigner = async () =>
    signer ? stores.signingKeys.ensureRegistered(signer.publicJwk) : undefined;
  return {
    config,
    stores,
    signer,
    pqSigner,
    signingKey,
    keyTrust,
    keyRing,
    anchoring,
    receipts,
    deploymentGates: new DeploymentGates({
      gates: stores.deploymentGates,
      receipts,
      signer,
      storeUnavailable: isStoreUnavailable,
    }),
    logWaiters: logWaitersOf(stores, anchoring),
    registerSigner,
    pdfSigner,
    timestamping: time.timestamping,
    renewDuePdfs: pdfRenewalOf(config, stores, time.timestamping),
    webhooks: webhooksOf(config, stores, receipts, source?.pem),
  };
}

/** The PDF signer (PAdES, B-T with TSA_URLS, B-LTA with PDF_LONG_TERM) and the signed PDFs' keeping. */
function pdfsOf(
  config: Config,
  stores: Repositories,
  time: ReturnType<typeof timekeepingOf>,
  options: ServiceOptions,
): { pdfSigner: PdfSigner; pdfs: SignedPdfDeps } {
  const pdfSigner = new PdfSigner(
    time.pdfCredentials,
    time.timestamping?.signatures,
    time.timestamping && config.tsa.longTerm
      ? {
          tsaCertificates: time.timestamping.certificates,
          revocation: time.timestamping.revocation,
        }
      : undefined,
  );
  const maker = new SignedReceiptPdfMaker(pdfSigner, {
    serviceUrl: config.serviceUrl,
    issuerName: config.issuerName,
    timeZone: config.pdfTimeZone,
  });
  return {
    pdfSigner,
    pdfs: {
      store: stores.receiptPdfs,
      maker,
      onStoredPdfMismatch: options.onStoredPdfMismatch,
    },
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The renewal of kept PDFs' archive time-stamps, when PDFs are made B-LTA. */
function pdfRenewalOf(
  config: Config,
  stores: Repositories,
  timestamping: Timestamping | undefined,
): (() => Promise<RenewalRun>) | undefined {
  if (!timestamping || !config.tsa.longTerm) return undefined;
  return () =>
    renewDuePdfs({
      store: stores.receiptPdfs,
      timestamper: timestamping.signatures,
      tsaCertificates: timestamping.certificates,
      marginMs: config.tsa.renewalMarginDays * DAY_MS,
      revocation: timestamping.revocation,
    });
}

/** How long a delivery stays leased beyond its attempt's timeout. */
const WEBHOOK_LEASE_MARGIN_MS = 30_000;
/** Attempts one dispatcher keeps open at once (each claimed and recorded on its own). */
export const WEBHOOK_SLOTS = 32;

/** The webhooks: the v1a key (WEBHOOK_SIGNING_KEY, else derived from the signing key). */
function webhooksOf(
  config: Config,
  stores: Repositories,
  receipts: ReceiptService,
  signingPem: string | undefined,
): Webhooks {
  const { webhooks } = config;
  const key = webhooks.signingKey
    ? webhookKeyFromSecret(webhooks.signingKey)
    : signingPem
      ? webhookKeyFromSigningKey(signingPem)
      : undefined;
  const targets = new TargetPolicy(webhooks.allowedNetworks, undefined, webhooks.timeoutMs);
  return {
    service: new WebhookService(stores.webhooks, targets),
    key,
    targets,
    dispatcher: (overrides = {}) =>
      new WebhookDispatcher({
        store: stores.webhooks,
        facts: receipts,
        links: receiptLinks(config.publicUrl),
        targets,
        send: httpSender('verification-receipts-webhooks/1'),
        webhookKey: key,
        timeoutMs: webhooks.timeoutMs,
        leaseMs: webhooks.timeoutMs + WEBHOOK_LEASE_MARGIN_MS,
        slots: WEBHOOK_SLOTS,
        ...overrides,
      }),
  };
}

/** The receipt use cases, over the stores and what createServices built before them. */
function receiptServiceOf(
  config: Config,
  stores: Repositories,
  options: ServiceOptions,
  built: Pick<
    ReceiptServiceDeps,
    'issuer' | 'keyRing' | 'anchoring' | 'signer' | 'pqSigner' | 'pdfs'
  >,
): ReceiptService {
  return new ReceiptService({
    ...built,
    stores,
    publicUrl: config.publicUrl,
    links: receiptLinks(config.publicUrl),
    revocationClockSkewSeconds: config.revocationClockSkewSeconds,
    ciIdentity: new OidcVerifier(config.ciOidc),
    defaultBranches: options.defaultBranches,
    ...(options.onIntegrityFailure ? { onIntegrityFailure: options.onIntegrityFailure } : {}),
  });
}

/**
 * `Prefer: wait` answers, woken by the store's seal notices (and, for `witnessed`, its
 * cosignature notices) and sharing one read per notice.
 */
function logWaitersOf(stores: Repositories, anchoring: AnchorService): LogWaiters {
  const policy = anchoring.witnessQuorum;
  return new LogWaiters({
    sealed: { notices: stores.sealNotices, probe: (ids) => stores.receipts.sealedAmong(ids) },
    witnessed: {
      notices: stores.cosignatureNotices,
      probe: async (ids) =>
        policy
          ? stores.receipts.witnessedAmong(ids, policy.witnesses, policy.quorum)
          : stores.receipts.sealedAmong(ids),
    },
  });
}

/** The witnesses asked to cosign each checkpoint, when `WITNESSES` names any. */
function witnessingOf(config: Config, stores: Repositories): Witnessing | undefined {
  if (config.witnesses.list.length === 0) return undefined;
  return new Witnessing({
    witnesses: config.witnesses.list,
    quorum: config.witnesses.quorum,
    timeoutMs: config.witnesses.timeoutMs,
    store: stores.log,
    proof: (from, to) => consistencyProof(from, to, stores.log.nodeStore()),
  });
}

/** Issuance: the checks' stores and lists, the receipt signer and the trusted CI events. */
function issuerOf(
  config: Config,
  stores: Repositories,
  screening: ScreeningLists,
  signer: Signer | undefined,
  options: ServiceOptions,
): ReceiptIssuer {
  return new ReceiptIssuer({
    receipts: stores.receipts,
    notaries: stores.notaries,
    tenantPolicies: stores.tenantPolicies,
    tokenUses: stores.tokenUses,
    oidcClockSkewSeconds: config.ciOidc.clockSkewSeconds,
    screening,
    certificateRevocation: crlCertificateRevocation({ timeoutMs: config.tsa.timeoutMs }),
    signer,
    trustedEvents: config.ciTrustedEvents ?? [...DEFAULT_TRUSTED_EVENTS],
    ...(options.onIssued ? { onIssued: options.onIssued } : {}),
  });
}

/**
 * The trusted part of the stored ring, read through the store's in-memory copy (a rotation in
 * another process clears it through the change feed) and with the endorsement signatures checked
 * again only when the stored keys or endorsements change.
 */
function keyTrustSource(
  store: SigningKeyStore,
  signer: Signer | undefined,
  trustedKids: readonly string[],
): () => Promise<KeyTrust> {
  let cached: { fingerprint: string; trust: KeyTrust } | undefined;
  return async () => {
    const [records, endorsements] = await Promise.all([store.list(), store.endorsements()]);
    const fingerprint = JSON.stringify([
      records.map((r) => [r.jwk.kid, r.jwk.x]),
      endorsements.map((e) => [e.subjectKid, e.endorserKid, e.signature]),
    ]);
    if (cached?.fingerprint !== fingerprint) {
      const pinned: Ed25519PublicJwk[] = records
        .filter((r) => trustedKids.includes(r.jwk.kid))
        .map((r) => r.jwk);
      const anchors = signer ? [signer.publicJwk, ...pinned] : pinned;
      cached = { fingerprint, trust: trustedKeys(records, endorsements, anchors) };
    }
    return cached.trust;
  };
}

/** The log signs checkpoints with the service key, under the log's origin as key name. */
export function noteSignerOf(signer: Signer, origin: string): NoteSigner {
  return {
    keyName: origin,
    publicKey: new Uint8Array(Buffer.from(signer.publicJwk.x, 'base64url')),
    sign: (message) => signer.sign(message),
  };
}
