/**
 * What a verifier trusts, given by the relying party and never taken from the file it checks.
 * Without a trust root a receipt is not verified: a bundle carries its own key, so anyone can
 * make a consistent one.
 */

/** A C2SP tlog-cosignature signature type: Ed25519 (vkey type 0x04) or ML-DSA-44 (0x06). */
export type CosignatureType = 'ed25519' | 'ml-dsa-44';

/** A witness the relying party requires cosignatures from (C2SP tlog-cosignature). */
export interface PinnedWitness {
  name: string;
  /** The 4-byte key ID of the cosignature key (of its type). */
  keyId: Uint8Array;
  /** Raw public key: 32 bytes (Ed25519) or 1312 bytes (ML-DSA-44). */
  publicKey: Uint8Array;
  /** Absent: Ed25519. */
  type?: CosignatureType;
}

/** The log identity a relying party pins (C2SP tlog-policy, or --log-origin / --log-vkey). */
export interface PinnedLog {
  origin: string;
  /** The log's Ed25519 note key; absent when only the origin is pinned. */
  publicKey?: Uint8Array;
  witnesses: readonly PinnedWitness[];
  /** Cosignatures required from distinct witnesses (0: none). */
  quorum: number;
}

export interface TrustRoot {
  /** Pinned raw Ed25519 keys of the issuing service (from a JWKS or a key file). */
  keys?: readonly Uint8Array[];
  /**
   * Pinned raw ML-DSA-44 keys of the issuing service (the AKP keys of its JWKS): the keys a
   * receipt's post-quantum signature must be made with.
   */
  pqKeys?: readonly Uint8Array[];
  /** Where the pinned keys came from, for the report. */
  source?: string;
  /**
   * `sha256:<hex>` of the PDF signing certificates the relying party pinned (the service
   * publishes its own at /.well-known/pdf-signing-cert.pem): a PDF signed by one of them is
   * signed by the service, whatever the bundle inside says.
   */
  pdfCertificates?: readonly string[];
  /** The pinned log: its checkpoints must be of this origin and key. */
  log?: PinnedLog;
  /**
   * The log came with the service's keys (--online, the page), rather than being pinned by the
   * relying party (a policy file, --log-vkey, --log-origin, or a library caller's own `log`).
   * Only a log the relying party pinned holds back a receipt that is not in it yet.
   */
  logFromService?: boolean;
  /**
   * Accept the key the bundle carries. The result then proves integrity only, never origin:
   * anyone can sign a consistent bundle with a key of their own.
   */
  insecureIgnoreTrust?: boolean;
}

/**
 * The keys a signature (checkpoint, status statement) may be made with: the pinned ones, and the
 * file's own key only when trust is ignored on request.
 */
export const signingKeysFor = (trust: TrustRoot, fileKey: Uint8Array | undefined): Uint8Array[] => [
  ...(trust.keys ?? []),
  ...(trust.insecureIgnoreTrust && fileKey ? [fileKey] : []),
];

/** Whether `trust` pins anything that can make a receipt authentic. */
export const hasTrustRoot = (trust: TrustRoot): boolean =>
  (trust.keys?.length ?? 0) > 0 || trust.log?.publicKey !== undefined;
