import type { PdfSignerEndorsement } from './pdf/endorsement.js';

/**
 * The receipt bundle (docs/verification.md): one self-contained JSON document with
 * everything an offline verifier needs. Version 1 is frozen: a change is a new `version=`.
 */
export const BUNDLE_MEDIA_TYPE = 'application/vnd.verification-receipt.bundle+json;version=1';
/** Name of the bundle attached to a PDF receipt (a PDF embedded file). */
export const BUNDLE_ATTACHMENT_NAME = 'receipt-bundle.json';
/** The log leaf format: RFC 9162 leaf hash of the 32 bytes of the receipt hash. */
export const LEAF_VERSION = 'rfc9162-sha256-v1';

export interface BundleKey {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  /** RFC 7638 thumbprint. */
  kid: string;
  alg: 'EdDSA';
}

export interface BundleLogEntry {
  /** The log's origin line (its identity) and note verifier key (C2SP signed-note vkey). */
  origin: string;
  noteVerifierKey: string;
  leafVersion: typeof LEAF_VERSION;
  logIndex: number;
  treeSize: number;
  rootHash: string;
  inclusionProof: string[];
  /** The signed checkpoint (C2SP tlog-checkpoint) of `treeSize` and `rootHash`. */
  checkpoint: string;
  /**
   * RFC 3161 time-stamp tokens (base64 DER TimeStampToken) over the checkpoint as the log signed
   * it (its lines up to and including the log's own signature line, without cosignatures).
   */
  timestamps?: string[];
}

/** Most time-stamp tokens a bundle's log entry may carry (one per authority). */
export const MAX_BUNDLE_TIMESTAMPS = 8;

/**
 * A second signature over the same canonical receipt bytes, by the service's ML-DSA-44 key
 * (FIPS 204, pure, empty context): what keeps a receipt authentic once Ed25519 can be forged.
 * Verifiers that do not know it ignore it; the receipt, its hash and its log entry are the same
 * with or without it.
 */
export interface BundlePqSignature {
  alg: 'ML-DSA-44';
  /** RFC 7638 thumbprint of `publicKey`. */
  kid: string;
  /** base64url of the 2420-byte signature over the UTF-8 canonicalReceipt. */
  signature: string;
  publicKey: { kty: 'AKP'; alg: 'ML-DSA-44'; pub: string; kid: string };
}

export interface ReceiptBundle {
  mediaType: typeof BUNDLE_MEDIA_TYPE;
  /** The stored receipt, with receiptHash and receiptSignature. */
  receipt: Record<string, unknown>;
  /** RFC 8785 form of the receipt without receiptHash and receiptSignature. */
  canonicalReceipt: string;
  verificationMaterial: { publicKey: BundleKey | null };
  /** Present once the receipt is in a signed checkpoint. */
  logEntry?: BundleLogEntry;
  /** The receipt's ML-DSA-44 signature, when the service makes one (hybrid signatures). */
  pqSignature?: BundlePqSignature;
  /**
   * In a PDF receipt's attached bundle: the receipt key's statement naming the certificate the
   * PDF is signed with (pdf/endorsement.ts). Checked by the `pdf-signature` step.
   */
  pdfSigner?: PdfSignerEndorsement;
  /**
   * A signed status document (GET /status/{receiptHash}) kept with the bundle. It is signed on
   * its own, not by the receipt signature, and counts only while it is recent (status.ts).
   */
  status?: unknown;
}

export type BundleRead = { ok: true; bundle: ReceiptBundle } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the shape of a parsed bundle; the verifier checks the content. */
export function parseBundle(value: unknown): BundleRead {
  if (!isObject(value)) return { ok: false, reason: 'not a JSON object' };
  const mediaType = value.mediaType;
  if (
    typeof mediaType !== 'string' ||
    !mediaType.startsWith(BUNDLE_MEDIA_TYPE.split(';')[0] ?? '')
  ) {
    return { ok: false, reason: 'not a receipt bundle (mediaType)' };
  }
  if (mediaType !== BUNDLE_MEDIA_TYPE) {
    return { ok: false, reason: `unsupported bundle version: ${mediaType.slice(0, 100)}` };
  }
  if (!isObject(value.receipt)) return { ok: false, reason: 'receipt is missing' };
  if (typeof value.canonicalReceipt !== 'string') {
    return { ok: false, reason: 'canonicalReceipt is missing' };
  }
  const material = value.verificationMaterial;
  if (!isObject(material) || !('publicKey' in material)) {
    return { ok: false, reason: 'verificationMaterial.publicKey is missing' };
  }
  if (value.logEntry !== undefined && !isLogEntry(value.logEntry)) {
    return { ok: false, reason: 'logEntry is malformed' };
  }
  if (value.status !== undefined && !isObject(value.status)) {
    return { ok: false, reason: 'status is not a status document' };
  }
  return { ok: true, bundle: value as unknown as ReceiptBundle };
}

/** Every element a string; a hole of a sparse array (which `every` skips) is not one. */
const allStrings = (a: unknown[]): boolean => Array.from(a).every((x) => typeof x === 'string');

function isLogEntry(v: unknown): v is BundleLogEntry {
  if (!isObject(v)) return false;
  const strings = ['origin', 'noteVerifierKey', 'leafVersion', 'rootHash', 'checkpoint'];
  return (
    strings.every((k) => typeof v[k] === 'string') &&
    Number.isSafeInteger(v.logIndex) &&
    Number.isSafeInteger(v.treeSize) &&
    Array.isArray(v.inclusionProof) &&
    v.inclusionProof.length <= 64 &&
    allStrings(v.inclusionProof) &&
    (v.timestamps === undefined ||
      (Array.isArray(v.timestamps) &&
        v.timestamps.length <= MAX_BUNDLE_TIMESTAMPS &&
        allStrings(v.timestamps)))
  );
}
