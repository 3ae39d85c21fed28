import type { CheckOutcome } from '../types.js';
import { RON_CHECK_ORDER, type RonCheckId } from './catalogue.js';
import type { RonCheck, RonCheckContext } from './context.js';
import { checkDocumentHash } from './document-hash.js';
import { checkDocumentSignatures } from './document-signatures.js';
import { checkOcrConsistency } from './ocr-consistency.js';
import { checkPropertyJurisdiction } from './property-jurisdiction.js';
import { checkRegistryScreening } from './registry-screening.js';
import { checkRequestTimestamp } from './request-timestamp.js';
import { checkCommission } from './ron-commission.js';
import { checkSeal } from './ron-seal.js';

export { CHECK_REASONS, RON_CHECK_ORDER, type CheckId, type RonCheckId } from './catalogue.js';
export { DEFAULT_TRUSTED_EVENTS, runCiChecks, type CiCheckContext } from './ci.js';
export type { RonCheck, RonCheckContext } from './context.js';
export { decide, reasonsOf } from './decision.js';

const RON_CHECKS: Readonly<Record<RonCheckId, RonCheck>> = {
  'doc.hash': checkDocumentHash,
  'doc.signatures': checkDocumentSignatures,
  'ron.seal': checkSeal,
  'ron.commission': checkCommission,
  'property.jurisdiction': checkPropertyJurisdiction,
  'ocr.consistency': checkOcrConsistency,
  'registry.screening': checkRegistryScreening,
  'request.timestamp': checkRequestTimestamp,
};

/**
 * Run the checks `ctx.profile` enables, one after another in RON_CHECK_ORDER, and return their
 * outcomes in that order. Rejects only with UnknownScreeningSourceError (a 400, see
 * registry.screening); every other finding is an outcome.
 */
export async function runRonChecks(ctx: RonCheckContext): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = [];
  for (const checkId of RON_CHECK_ORDER) {
    if (ctx.profile.checks.includes(checkId)) outcomes.push(await RON_CHECKS[checkId](ctx));
  }
  return outcomes;
}
