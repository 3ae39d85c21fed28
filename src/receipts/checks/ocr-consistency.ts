import { nameTokens } from '../../screening/normalise.js';
import { nameSimilarity } from '../../screening/similarity.js';
import { notarialText } from '../notarial/certificate-text.js';
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
 * reference data (propertyAddress, grantorName) are not compared. Under a profile whose
 * `documentSignatures.ocrFromDocumentText` is set, a request without OCR notary fields has them
 * read from the document's own text (the notarial certificate it prints) instead.
 */
export function checkOcrConsistency(ctx: RonCheckContext): CheckOutcome {
  const ocr = ctx.request.ocrData;
  const sent = ocr?.notaryName !== undefined || ocr?.notaryCommissionId !== undefined;
  const fromText =
    !sent && ctx.profile.documentSignatures?.ocrFromDocumentText ? documentRead(ctx) : undefined;
  if (typeof fromText === 'string') return pass(CHECK_ID, fromText);
  const read: Read = fromText ?? { ...ocr, source: 'OCR' };
  const findings = [compareCommissionId(ctx, read), compareNotaryName(ctx, read)].filter(
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

/** The notary fields read, and from where ("OCR", "document text"). */
interface Read {
  notaryName?: string | undefined;
  notaryCommissionId?: string | undefined;
  source: string;
}

/**
 * The notarial certificate as the document's own text prints it, when no OCR fields were sent;
 * a sentence saying why nothing was compared when the text names neither or cannot be read.
 */
function documentRead(ctx: RonCheckContext): Read | string | undefined {
  const evidence = ctx.documentEvidence;
  if (evidence === undefined) return undefined;
  const text =
    evidence.kind === 'read' ? evidence.text : { ok: false as const, reason: evidence.reason };
  if (!text.ok) {
    const why = text.reason;
    return `no OCR notary fields sent and the document's text cannot be read (${why}); nothing compared`;
  }
  const found = notarialText(text.text);
  if (found.notaryName === undefined && found.commissionId === undefined) {
    return "no OCR notary fields sent and the document's text names no notary or commission number; nothing compared";
  }
  return {
    notaryName: found.notaryName,
    notaryCommissionId: found.commissionId,
    source: 'document text',
  };
}

function compareCommissionId(ctx: RonCheckContext, fields: Read): Finding | undefined {
  const read = fields.notaryCommissionId;
  if (read === undefined) return undefined;
  const expected = ctx.request.ron.notaryId;
  const same = canonicalId(read) === canonicalId(expected);
  const verb = same ? 'matches' : 'differs from';
  return {
    mismatch: !same,
    text: `${fields.source} commission id ${quote(read)} ${verb} ron.notaryId ${quote(expected)}`,
  };
}

function compareNotaryName(ctx: RonCheckContext, fields: Read): Finding | undefined {
  const read = fields.notaryName;
  if (read === undefined) return undefined;
  if (ctx.notary === undefined) {
    return {
      mismatch: false,
      text: `${fields.source} notary name ${quote(read)} not compared: notary not registered`,
    };
  }
  const registered = ctx.notary.displayName;
  const score = nameSimilarity(nameTokens(read), nameTokens(registered));
  const same = score >= OCR_NAME_MATCH_THRESHOLD;
  const verb = same ? 'matches' : 'differs from';
  return {
    mismatch: !same,
    text: `${fields.source} notary name ${quote(read)} ${verb} registered name ${quote(registered)} (similarity ${score.toFixed(3)}, threshold ${OCR_NAME_MATCH_THRESHOLD})`,
  };
}

function canonicalId(id: string): string {
  return id.toUpperCase().replace(/[^A-Z0-9]/g, '');
}
