import type { SignatureTimestamper } from '../pdf/sign/pades.js';
import { requestTimestamp, type TsaOptions } from './client.js';
import type { TimestampOutcome } from './checkpoint-timestamper.js';

/**
 * The signature time-stamp of a PDF receipt (PAdES B-T): the configured authorities are asked in
 * order, once each, for a token over the signature value; the first checked one is used. None
 * answering leaves the signature at B-B (the PDF is then not kept, so a later download tries
 * again).
 */
export function signatureTimestamper(
  tsas: readonly TsaOptions[],
  report: (outcome: Omit<TimestampOutcome, 'treeSize'>) => void = () => {},
): SignatureTimestamper {
  return {
    async stamp(data) {
      for (const tsa of tsas) {
        const result = await requestTimestamp(tsa, data);
        report({
          tsaUrl: tsa.url,
          ok: result.ok,
          final: true,
          detail: result.ok ? 'pdf signature stamped' : result.reason,
        });
        if (result.ok) return result.token;
      }
      return undefined;
    },
  };
}
