import { createHash } from 'node:crypto';
import {
  DerError,
  equalBytes,
  parseCertificate,
  type Certificate,
} from '@verification-receipts/verify/internals';
import { checkCrl, crlUrls } from './crl.js';

/**
 * The revocation data of a B-LT DSS: for each certificate whose issuer publishes a CRL (an http
 * URL in its cRLDistributionPoints), that CRL, fetched, checked against the issuer found among the
 * same certificates (its name, its signature, its freshness) and read for the certificate's
 * serial. Trust anchors (self-issued certificates) are not looked up. What could not be had, and
 * what a CRL says is revoked, is reported as a finding, never dropped silently.
 */

/** Fetches a CRL's bytes from an http URL; throws (with a reason) when it cannot. */
export type CrlFetcher = (url: string) => Promise<Uint8Array>;

export interface RevocationFinding {
  /** The certificate's subject common name and serial (hex), for logs. */
  certificate: string;
  url?: string;
  /** embedded: a checked CRL goes into the DSS; unavailable: published but not had. */
  outcome: 'embedded' | 'unavailable' | 'revoked';
  reason?: string;
  revokedAt?: Date;
}

export interface RevocationData {
  /** Checked CRLs (DER), one per distinct CRL. */
  crls: Uint8Array[];
  findings: RevocationFinding[];
}

/** Looks up the revocation data of these certificates (the DSS's). */
export type RevocationSource = (certificates: readonly Uint8Array[]) => Promise<RevocationData>;

const keyOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function collectCrls(
  certificates: readonly Uint8Array[],
  fetchCrl: CrlFetcher,
  now: Date = new Date(),
): Promise<RevocationData> {
  const parsed = distinct(certificates);
  const fetched = new Map<string, Promise<Uint8Array>>();
  const fetchOnce = (url: string) => {
    let bytes = fetched.get(url);
    if (!bytes) {
      bytes = fetchCrl(url);
      bytes.catch(() => undefined);
      fetched.set(url, bytes);
    }
    return bytes;
  };
  const out: RevocationData = { crls: [], findings: [] };
  const embedded = new Set<string>();
  for (const cert of parsed) {
    if (equalBytes(cert.issuer, cert.subject)) continue;
    const urls = safeUrls(cert);
    if (urls.length === 0) continue;
    const name = `${cert.commonName ?? '(no name)'} serial ${Buffer.from(cert.serial).toString('hex')}`;
    // every certificate under the issuer's name (a re-keyed CA has several): the CRL's
    // signature decides which one issued it
    const issuers = parsed.filter((c) => c !== cert && equalBytes(c.subject, cert.issuer));
    if (issuers.length === 0) {
      out.findings.push({
        certificate: name,
        outcome: 'unavailable',
        reason: "the issuer's certificate is not among the validation material",
      });
      continue;
    }
    const finding = await firstUsable(cert, issuers, urls, fetchOnce, now);
    out.findings.push({ certificate: name, ...finding.finding });
    if (finding.crl && !embedded.has(keyOf(finding.crl))) {
      embedded.add(keyOf(finding.crl));
      out.crls.push(finding.crl);
    }
  }
  return out;
}

/**
 * What `issuer`'s CRL says of `cert`: from the first of the certificate's http distribution
 * points whose CRL checks out under `issuer` (revoked or not), else why none did; undefined when
 * the certificate names no http CRL.
 */
export async function crlStatus(
  cert: Certificate,
  issuer: Certificate,
  fetchCrl: CrlFetcher,
  now: Date = new Date(),
): Promise<Omit<RevocationFinding, 'certificate'> | undefined> {
  const urls = safeUrls(cert);
  if (urls.length === 0) return undefined;
  return (await firstUsable(cert, [issuer], urls, fetchCrl, now)).finding;
}

/** The certificates, parsed, each once; unreadable ones are left out (they name no CRL). */
function distinct(certificates: readonly Uint8Array[]): Certificate[] {
  const seen = new Set<string>();
  const out: Certificate[] = [];
  for (const der of certificates) {
    const key = keyOf(der);
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      out.push(parseCertificate(der));
    } catch (err) {
      if (!(err instanceof DerError)) throw err;
    }
  }
  return out;
}

function safeUrls(cert: Certificate): string[] {
  try {
    return crlUrls(cert);
  } catch (err) {
    if (err instanceof DerError) return [];
    throw err;
  }
}

/** The first URL whose CRL checks out under one of `issuers` (revoked or not); else why none did. */
async function firstUsable(
  cert: Certificate,
  issuers: Certificate[],
  urls: string[],
  fetchCrl: CrlFetcher,
  now: Date,
): Promise<{ finding: Omit<RevocationFinding, 'certificate'>; crl?: Uint8Array }> {
  const reasons: string[] = [];
  for (const url of urls) {
    let bytes: Uint8Array;
    try {
      bytes = await fetchCrl(url);
    } catch (err) {
      reasons.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    const checks = issuers.map((issuer) => checkCrl(bytes, cert, issuer, now));
    const check = checks.find((c) => c.ok) ?? checks[0];
    if (!check?.ok) {
      reasons.push(`${url}: ${check?.reason ?? 'no issuer'}`);
      continue;
    }
    if (check.revokedAt) {
      return {
        finding: {
          url,
          outcome: 'revoked',
          revokedAt: check.revokedAt,
          reason: `revoked at ${check.revokedAt.toISOString()} according to its issuer's CRL`,
        },
        crl: bytes,
      };
    }
    return { finding: { url, outcome: 'embedded' }, crl: bytes };
  }
  return {
    finding: { url: urls[0] ?? '', outcome: 'unavailable', reason: reasons.join('; ') },
  };
}
