import type { SignatureTimestamper } from '../pdf/sign/pades.js';
import { backoffDelay, type Backoff } from '../retry.js';
import { requestTimestamp, type TsaOptions } from './client.js';
import type { TimestampOutcome } from './checkpoint-timestamper.js';

/**
 * The signature time-stamp of a PDF receipt (PAdES B-T): the configured authorities are asked in
 * order, once each, for a token over the signature value; the first checked one is used. None
 * answering leaves the signature at B-B (the PDF is then served but not kept, so a later download
 * tries again).
 *
 * An authority that failed is not asked again for a PDF signature until its back-off has passed
 * (RESTING: 30 s, doubling at each further failure up to 15 min; a success resets it), so while
 * an authority is down for good a download pays its timeout at most once per back-off and per
 * process, and gets the B-B PDF at once otherwise. The checkpoints' own time-stamps are not
 * affected: they keep their retries. The rests have no jitter: one only decides whether this
 * process's next PDF asks the authority.
 */
export const RESTING: Backoff = { initialMs: 30_000, factor: 2, maxMs: 15 * 60_000, jitter: 0 };

interface Resting {
  until: number;
  failures: number;
}

export function signatureTimestamper(
  tsas: readonly TsaOptions[],
  report: (outcome: Omit<TimestampOutcome, 'treeSize'>) => void = () => {},
  now: () => number = Date.now,
): SignatureTimestamper {
  const resting = new Map<string, Resting>();
  const rest = (url: string): void => {
    const failures = (resting.get(url)?.failures ?? 0) + 1;
    resting.set(url, { until: now() + backoffDelay(RESTING, failures), failures });
  };
  return {
    async stamp(data) {
      for (const tsa of tsas) {
        if ((resting.get(tsa.url)?.until ?? 0) > now()) continue;
        const result = await requestTimestamp(tsa, data);
        report({
          tsaUrl: tsa.url,
          ok: result.ok,
          final: true,
          detail: result.ok ? 'pdf signature stamped' : result.reason,
        });
        if (result.ok) {
          resting.delete(tsa.url);
          return result.token;
        }
        rest(tsa.url);
      }
      return undefined;
    },
  };
}
