import { BodyTooLargeError, readBounded } from '../bounded-body.js';
import { MAX_CRL_BYTES, parseCrl } from '../pdf/sign/crl.js';
import {
  collectCrls,
  crlStatus,
  type CrlFetcher,
  type RevocationFinding,
  type RevocationSource,
} from '../pdf/sign/revocation.js';
import type {
  CertificateRevocation,
  CertificateStatus,
} from '../receipts/certificate-revocation.js';

/**
 * CRLs for the DSS of PAdES B-LT (src/pdf/sign/revocation.ts checks them): fetched over plain
 * http (RFC 5280 4.2.1.13: CRLs are signed, so their transport need not be; https and ldap are not
 * followed) from the URLs a certificate names, each GET bounded by `timeoutMs` (the body's
 * reading included) and MAX_CRL_BYTES, no redirect followed. Every certificate's outcome goes
 * to `onFinding` (logs and the `pdf_revocation_data_total` metric).
 */

export interface CrlClientOptions {
  timeoutMs: number;
  /** Largest body read (default MAX_CRL_BYTES). */
  maxBytes?: number;
}

/** GETs one CRL; throws an Error whose message says why there is none. */
export function crlFetcher(options: CrlClientOptions): CrlFetcher {
  const limit = options.maxBytes ?? MAX_CRL_BYTES;
  const explain = (err: unknown): never => {
    const name = err instanceof Error ? err.name : 'Error';
    const cause = { cause: err };
    if (name === 'TimeoutError') throw new Error(`no answer within ${options.timeoutMs} ms`, cause);
    if (err instanceof BodyTooLargeError) throw new Error(`larger than ${limit} bytes`, cause);
    throw new Error(`${name}: ${String((err as Error)?.message ?? err).slice(0, 200)}`, cause);
  };
  return async (url) => {
    if (!/^http:\/\//i.test(url)) throw new Error('only http CRL URLs are fetched');
    const res = await fetch(url, {
      // a redirect's own answer (3xx) is the answer: its target is not a URL the CA signed
      redirect: 'manual',
      headers: { accept: 'application/pkix-crl' },
      signal: AbortSignal.timeout(options.timeoutMs),
    }).catch(explain);
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      throw new Error(`HTTP ${res.status}`);
    }
    return readBounded(res, limit).catch(explain);
  };
}

/** The revocation source of the PDF signer and the renewal job; findings go to `onFinding`. */
export function crlRevocationSource(
  options: CrlClientOptions,
  onFinding: (finding: RevocationFinding) => void,
): RevocationSource {
  const fetchCrl = crlFetcher(options);
  return async (certificates) => {
    const data = await collectCrls(certificates, fetchCrl);
    for (const finding of data.findings) onFinding(finding);
    return data;
  };
}

/** How long a fetched CRL is reused at most (its nextUpdate may end that sooner). */
const CRL_REUSE_MS = 10 * 60 * 1000;
/** How long a failed fetch is answered from its failure before it is tried again. */
const CRL_RETRY_MS = 60 * 1000;
/** Distinct CRL URLs kept. */
const CRL_CACHE_ENTRIES = 64;

/**
 * The revocation of a notary's certificate path (`doc.signatures`): each certificate's CRL from
 * its issuer's distribution points, checked under the next certificate of the path. A CRL is
 * reused until the earlier of its nextUpdate and CRL_REUSE_MS, and a failure for CRL_RETRY_MS, so
 * issuance under one CA costs one fetch per period, and a CA whose server is down costs each
 * request nothing after the first timeout.
 */
export function crlCertificateRevocation(
  options: CrlClientOptions & { now?: () => Date },
): CertificateRevocation {
  const now = options.now ?? (() => new Date());
  const fetchCrl = reusedCrls(crlFetcher(options), now);
  return {
    async statusOf(path) {
      const out: CertificateStatus[] = [];
      for (let i = 0; i + 1 < path.length; i++) {
        const cert = path[i]!;
        const finding = await crlStatus(cert, path[i + 1]!, fetchCrl, now());
        const source = `CRL ${finding?.url}`;
        if (!finding) out.push({ state: 'unpublished' });
        else if (finding.outcome === 'unavailable') {
          out.push({ state: 'unknown', reason: finding.reason ?? 'no CRL could be had' });
        } else if (finding.outcome === 'embedded') out.push({ state: 'good', source });
        else {
          // a listed certificate without a date counts as revoked from the start
          const revokedAt = finding.revokedAt ?? new Date(0);
          out.push({ state: 'revoked', revokedAt, source });
        }
      }
      return out;
    },
  };
}

/** One fetch per URL and period, shared by concurrent callers; at most CRL_CACHE_ENTRIES URLs. */
function reusedCrls(fetchCrl: CrlFetcher, now: () => Date): CrlFetcher {
  const kept = new Map<string, { bytes: Promise<Uint8Array>; until: number }>();
  return (url) => {
    const at = now().getTime();
    const hit = kept.get(url);
    if (hit && hit.until > at) return hit.bytes;
    kept.delete(url);
    const entry = { bytes: fetchCrl(url), until: at + CRL_RETRY_MS };
    entry.bytes.then(
      (bytes) => (entry.until = Math.min(at + CRL_REUSE_MS, nextUpdateOf(bytes) ?? at)),
      () => undefined,
    );
    kept.set(url, entry);
    while (kept.size > CRL_CACHE_ENTRIES) kept.delete(kept.keys().next().value!);
    return entry.bytes;
  };
}

function nextUpdateOf(bytes: Uint8Array): number | undefined {
  try {
    return parseCrl(bytes).nextUpdate?.getTime();
  } catch {
    return undefined;
  }
}
