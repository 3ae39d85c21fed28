import { BodyTooLargeError, readBounded } from '../bounded-body.js';
import { MAX_CRL_BYTES } from '../pdf/sign/crl.js';
import {
  collectCrls,
  type CrlFetcher,
  type RevocationFinding,
  type RevocationSource,
} from '../pdf/sign/revocation.js';

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
