import { verifyArtifact } from './artifact.js';
import { parseBundle, type BundleLogEntry, type ReceiptBundle } from './bundle.js';
import { checkpoint, inclusion, witnesses } from './log/steps.js';
import { pdfBinding } from './pdf/binding.js';
import { pdfSignatureStep } from './pdf/endorsement.js';
import type { PdfSignature } from './pdf/signature.js';
import { evidenceHorizon, type HorizonFacts } from './horizon.js';
import { jwkKey } from './primitives.js';
import {
  canonicalForm,
  keyId,
  keyTrust,
  pqSignature,
  receiptHash,
  signature,
} from './receipt-steps.js';
import type { CurrentStatus } from './status.js';
import { currentStatusOf, type StatusInput } from './status-source.js';
import { step, type Step } from './steps.js';
import { hasTrustRoot, signingKeysFor, type TrustRoot } from './trust.js';
import { conclude, unreadable, type Verdict } from './verdict.js';

/**
 * Verification of a receipt bundle (docs/verification.md), step by step, written from the
 * published formats and sharing no code with the service that issues receipts, so a bug there is
 * not hidden by the same bug here. Runs unchanged in Node and in browsers.
 */

export interface VerifyOptions {
  /** What the relying party trusts; without a root the receipt is not verified. */
  trust: TrustRoot;
  /**
   * Set when the bundle came from a PDF receipt: the text printed on its pages and its PAdES
   * signature, as readBundle() read them; `allowUnsigned` accepts a PDF without a signature
   * (made before receipts were signed) with a warning.
   */
  pdf?: { printed?: { text: string }; signature?: PdfSignature; allowUnsigned?: boolean };
  /** The document the receipt is about, as the relying party holds it. */
  artifact?: Uint8Array | { sha256: string };
  /**
   * The public status fetched for this receipt or supplied by the relying party, or why it could
   * not be fetched; without one, the status the bundle carries is checked, if any.
   */
  status?: StatusInput;
  now?: Date;
  maxStatusAgeSeconds?: number;
  /** Accept an unknown current status (--offline): an authentic ALLOW receipt is then exit 0. */
  acceptUnknownStatus?: boolean;
  /** The `timestamps` step, from checkTimestamps() (asynchronous: WebCrypto). */
  timestamps?: Step;
  /** The authorities of those time-stamps, from checkTimestamps(), for the evidence horizon. */
  timestampAuthorities?: HorizonFacts['timestampAuthorities'];
  /**
   * Require the receipt's ML-DSA-44 signature (--require-pq): without it, or when it does not
   * verify under a pinned ML-DSA-44 key, the receipt is not authentic.
   */
  requirePq?: boolean;
}

export function verifyBundle(input: unknown, options: VerifyOptions): Verdict {
  const { trust } = options;
  const trustText = describeTrust(trust);
  const read = parseBundle(input);
  if (!read.ok) return unreadable(read.reason, trustText);
  const bundle = read.bundle;
  const steps = [
    step('format', 'PASS', `receipt bundle, ${bundle.mediaType}`),
    ...(options.pdf ? [pdfBinding(options.pdf.printed, bundle.receipt)] : []),
    ...receiptSteps(bundle, trust, options.pdf, options.requirePq === true),
    ...(options.artifact ? [verifyArtifact(options.artifact, bundle.receipt)] : []),
    ...(options.timestamps ? [options.timestamps] : []),
  ];
  const online = statusSteps(bundle, options);
  const unlogged = notInPinnedLog(bundle, trust);
  const verdict = conclude({
    steps: [...steps, ...online.steps],
    receipt: bundle.receipt,
    currentStatus: online.current,
    trust: trustText,
    insecure: !hasTrustRoot(trust) && trust.insecureIgnoreTrust === true,
    noTrustRoot: !hasTrustRoot(trust) && trust.insecureIgnoreTrust !== true,
    ...(options.acceptUnknownStatus === true ? { acceptUnknownStatus: true } : {}),
    ...(unlogged ? { notInPinnedLog: unlogged } : {}),
  });
  return verdict.authentic ? { ...verdict, evidence: horizonOf(verdict.steps, options) } : verdict;
}

/** What the verification relied on, and until when it holds (./horizon.ts). */
function horizonOf(steps: Step[], options: VerifyOptions) {
  const sig = options.pdf?.signature;
  const log = options.trust.log;
  return evidenceHorizon({
    steps,
    ...(sig?.present && sig.ok && sig.notAfter && sig.algorithm
      ? { pdfSigner: { notAfter: sig.notAfter, algorithm: sig.algorithm } }
      : {}),
    ...(options.timestampAuthorities ? { timestampAuthorities: options.timestampAuthorities } : {}),
    ...(log && log.quorum > 0
      ? {
          witnessAlgorithms: [
            ...new Set(
              log.witnesses.map((w) => (w.type === 'ml-dsa-44' ? 'ML-DSA-44' : 'Ed25519')),
            ),
          ],
        }
      : {}),
  });
}

/**
 * The receipt's own steps and its log steps; key-trust may rest on the pinned log. For a PDF, the
 * PDF signature's certificate must be a pinned one or endorsed by a pinned key: never by the
 * receipt's own key when only the log vouches for it (the log proves the receipt's content, and
 * that content can be re-signed by anyone with a key of their own).
 */
function receiptSteps(
  bundle: ReceiptBundle,
  trust: TrustRoot,
  pdf: VerifyOptions['pdf'],
  requirePq: boolean,
): Step[] {
  const key = jwkKey(bundle.verificationMaterial.publicKey);
  const log = logSteps(bundle.logEntry, bundle.receipt.receiptHash, key, trust);
  const trusted = keyTrust(key, trust, log.underPinnedLog);
  const pdfTrust = {
    keys: signingKeysFor(trust, key),
    ...(trust.pdfCertificates ? { certificates: trust.pdfCertificates } : {}),
    ...(pdf?.allowUnsigned ? { allowUnsigned: true } : {}),
  };
  const pq = pqSignature(bundle, trust, requirePq);
  return [
    canonicalForm(bundle),
    receiptHash(bundle),
    keyId(bundle, key),
    trusted,
    signature(bundle, key),
    ...(pq ? [pq] : []),
    ...(pdf ? [pdfSignatureStep(pdf.signature, bundle.pdfSigner, pdfTrust)] : []),
    ...log.steps,
  ];
}

function logSteps(
  entry: BundleLogEntry | undefined,
  hash: unknown,
  key: Uint8Array | undefined,
  trust: TrustRoot,
): { steps: Step[]; underPinnedLog: boolean } {
  if (!entry) {
    const later =
      'not in the log yet (no logEntry): fetch the bundle or its tlog-proof again later';
    return {
      steps: [
        step('log-inclusion', 'SKIP', later),
        step('checkpoint', 'SKIP', 'no checkpoint without a log entry'),
      ],
      underPinnedLog: false,
    };
  }
  const included = inclusion(entry, hash);
  const signed = checkpoint(entry, key, trust);
  const cosigned = witnesses(entry, trust.log, signed.text);
  const proved =
    included.status === 'PASS' && signed.step.status === 'PASS' && cosigned.status !== 'FAIL';
  return {
    steps: [included, signed.step, cosigned],
    underPinnedLog: proved && signed.underPinnedLog,
  };
}

function statusSteps(
  bundle: ReceiptBundle,
  options: VerifyOptions,
): { steps: Step[]; current: CurrentStatus } {
  const { trust } = options;
  const bundleKey = jwkKey(bundle.verificationMaterial.publicKey);
  const sources = {
    ...(options.status ? { given: options.status } : {}),
    ...(bundle.status !== undefined ? { embedded: bundle.status } : {}),
  };
  return currentStatusOf(sources, {
    receiptHash: String(bundle.receipt.receiptHash ?? ''),
    keys: signingKeysFor(trust, bundleKey),
    ...(bundle.logEntry ? { logEntry: bundle.logEntry } : {}),
    ...(trust.log ? { log: trust.log } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.maxStatusAgeSeconds !== undefined
      ? { maxAgeSeconds: options.maxStatusAgeSeconds }
      : {}),
  });
}

/** Why an authentic receipt is not yet acceptable under a pinned log, or undefined. */
function notInPinnedLog(bundle: ReceiptBundle, trust: TrustRoot): string | undefined {
  if (!trust.log || trust.logFromService === true || bundle.logEntry) return undefined;
  return (
    `the receipt is not in the pinned log ${trust.log.origin} yet (no logEntry): fetch the ` +
    'bundle or its tlog-proof again once it is anchored'
  );
}

export function describeTrust(trust: TrustRoot): string {
  const parts = [
    ...(trust.keys?.length ? [trust.source ?? `${trust.keys.length} pinned key(s)`] : []),
    ...(trust.pdfCertificates?.length
      ? [`${trust.pdfCertificates.length} pinned PDF certificate(s)`]
      : []),
    ...(trust.log
      ? [
          `log ${trust.log.origin}${trust.log.quorum ? ` with ${trust.log.quorum} witness(es)` : ''}`,
        ]
      : []),
  ];
  if (parts.length > 0) return parts.join('; ');
  return trust.insecureIgnoreTrust
    ? 'none (--insecure-ignore-trust: the key in the file itself)'
    : 'none';
}
