import { nameTokens } from '../../screening/normalise.js';
import { nameSimilarity } from '../../screening/similarity.js';
import type { CheckOutcome } from '../types.js';
import type { RonCheckContext } from './context.js';
import { pass, quote, warn } from './outcome.js';

const CHECK_ID = 'ocr.consistency';

/**
 * Minimum name similarity (screening normalisation and score) for the OCR'd notary name to count
 * as the registered display name: tolerates case, accents, punctuation, word order and a
 * character misread in a longer name, not a different or missing word.
 */
export const OCR_NAME_MATCH_THRESHOLD = 0.92;

/**
 * `ocr.consistency`: compares what OCR read off the document with what the request and the
 * registry say: `ocrData.notaryName` against the registered display name, and
 * `ocrData.notaryCommissionId` against `ron.notaryId` (upper case, letters and digits only).
 * Disagreement is a WARN `ocr_mismatch` (OCR is evidence for review, not proof). Fields without
 * reference data (propertyAddress, grantorName) are not compared.
 */
export function checkOcrConsistency(ctx: RonCheckContext): CheckOutcome {
  const findings = [compareCommissionId(ctx), compareNotaryName(ctx)].filter(
    (finding): finding is Finding => finding !== undefined,
  );
  if (findings.length === 0) {
    return pass(CHECK_ID, 'no OCR notary name or commission id supplied; nothing compared');
  }
  const summary = findings.map((finding) => finding.text).join('; ');
  return findings.some((finding) => finding.mismatch)
    ? warn(CHECK_ID, 'ocr_mismatch', summary)
    : pass(CHECK_ID, summary);
}

interface Finding {
  mismatch: boolean;
  text: string;
}

function compareCommissionId(ctx: RonCheckContext): Finding | undefined {
  const read = ctx.request.ocrData?.notaryCommissionId;
  if (read === undefined) return undefined;
  const expected = ctx.request.ron.notaryId;
  const same = canonicalId(read) === canonicalId(expected);
  const verb = same ? 'matches' : 'differs from';
  return {
    mismatch: !same,
    text: `OCR commission id ${quote(read)} ${verb} ron.notaryId ${quote(expected)}`,
  };
}

function compareNotaryName(ctx: RonCheckContext): Finding | undefined {
  const read = ctx.request.ocrData?.notaryName;
  if (read === undefined) return undefined;
  if (ctx.notary === undefined) {
    return {
      mismatch: false,
      text: `OCR notary name ${quote(read)} not compared: notary not registered`,
    };
  }
  const registered = ctx.notary.displayName;
  const score = nameSimilarity(nameTokens(read), nameTokens(registered));
  const same = score >= OCR_NAME_MATCH_THRESHOLD;
  const verb = same ? 'matches' : 'differs from';
  return {
    mismatch: !same,
    text: `OCR notary name ${quote(read)} ${verb} registered name ${quote(registered)} (similarity ${score.toFixed(3)}, threshold ${OCR_NAME_MATCH_THRESHOLD})`,
  };
}

function canonicalId(id: string): string {
  return id.toUpperCase().replace(/[^A-Z0-9]/g, '');
}
