import type { Certificate } from '@verification-receipts/verify/internals';

/**
 * The port through which `doc.signatures` learns whether a signer's certificates were revoked
 * (src/receipts/notarial/revocation.ts judges what it answers).
 */

/** What an issuer publishes about one certificate. */
export type CertificateStatus =
  | { state: 'good'; source: string }
  | { state: 'revoked'; revokedAt: Date; source: string }
  | { state: 'unknown'; reason: string }
  /** The certificate names no CRL: its issuer offers nothing to look up. */
  | { state: 'unpublished' };

/**
 * For each certificate of a validated path but the last (the trust anchor), leaf first, what its
 * issuer (the next certificate of the path) publishes about it. Never throws.
 */
export interface CertificateRevocation {
  statusOf(path: readonly Certificate[]): Promise<CertificateStatus[]>;
}
