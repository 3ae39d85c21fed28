import { createHash, randomBytes } from 'node:crypto';
import {
  MAX_TOKEN_BYTES,
  tokenOfResponse,
  verifyTimestampToken,
} from '@verification-receipts/verify/internals';
import { readBounded } from '../bounded-body.js';
import { algorithm, bool, integer, octets, seq } from '../asn1/der.js';

/**
 * An RFC 3161 client over HTTP (RFC 3161 3.4): a TimeStampReq with a SHA-256 message imprint, a
 * 64-bit nonce and certReq true, POSTed as application/timestamp-query; the answer is read up to
 * MAX_ANSWER_BYTES within the timeout, no redirect followed, and its token kept only once it is
 * checked: the imprint is of the data, the nonce is ours, the signature verifies, the
 * certificate is a time-stamping one pinned in TSA_CERT_FILES or issued by one.
 */

/** Largest answer read: a token with a certificate chain is a few KiB. */
export const MAX_ANSWER_BYTES = MAX_TOKEN_BYTES + 1024;
const SHA256 = '2.16.840.1.101.3.4.2.1';

export interface TsaOptions {
  url: string;
  /** Pinned certificates (DER) a token's signer must be, or be issued by. */
  trusted: readonly Uint8Array[];
  timeoutMs: number;
}

export type StampResult =
  { ok: true; token: Buffer; genTime: Date; tsaName: string } | { ok: false; reason: string };

export function timestampRequest(data: Uint8Array, nonce: Buffer): Buffer {
  const digest = createHash('sha256').update(data).digest();
  return seq(integer(1), seq(algorithm(SHA256), octets(digest)), integer(nonce), bool(true));
}

/** Asks one authority for a token over `data`; never throws. */
export async function requestTimestamp(
  tsa: TsaOptions,
  data: Uint8Array,
  signal?: AbortSignal,
): Promise<StampResult> {
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0] ?? 0) & 0x7f || 0x01; // positive, 8 octets
  try {
    const timeout = AbortSignal.timeout(tsa.timeoutMs);
    const res = await fetch(tsa.url, {
      method: 'POST',
      body: new Uint8Array(timestampRequest(data, nonce)),
      headers: { 'content-type': 'application/timestamp-query' },
      redirect: 'error',
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    const body = await readBounded(res, MAX_ANSWER_BYTES);
    if (res.status !== 200) return { ok: false, reason: `HTTP ${res.status}` };
    const answer = tokenOfResponse(body);
    if (!answer.ok) return answer;
    const check = await verifyTimestampToken(answer.token, { data, nonce, trusted: tsa.trusted });
    if (!check.ok) return check;
    return {
      ok: true,
      token: Buffer.from(answer.token),
      genTime: check.genTime,
      tsaName: check.tsa,
    };
  } catch (err) {
    const name = err instanceof Error ? err.name : 'Error';
    const reason =
      name === 'TimeoutError'
        ? `no answer within ${tsa.timeoutMs} ms`
        : `${name}: ${String((err as Error)?.message ?? err).slice(0, 200)}`;
    return { ok: false, reason };
  }
}
