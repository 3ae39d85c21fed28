import { ScreeningListFormatError } from '../../screening/list-format.js';
import { nameTokens } from '../../screening/normalise.js';
import {
  STRONG_MATCH_THRESHOLD,
  UnknownScreeningSourceError,
  WEAK_MATCH_THRESHOLD,
  type ScreeningLists,
  type ScreeningMatch,
} from '../../screening/lists.js';
import type { CheckOutcome } from '../types.js';
import type { RonCheckContext } from './context.js';
import { fail, judged, pass, quote, warn } from './outcome.js';

const CHECK_ID = 'registry.screening';
/** How many of the best matches the details name. */
const MATCHES_SHOWN = 3;

/**
 * `registry.screening`: screens `registryScreening.subjectName` against the requested lists
 * (`sourceIds`, or every configured list), re-reading them first when `forceRefresh` is set.
 * The best match decides: strong -> FAIL `screening_strong_match`, weak -> WARN
 * `screening_possible_match`. When screening cannot happen the profile's `requireScreening`
 * makes it a FAIL, otherwise a WARN (and no subject at all a PASS). An unknown source id is not
 * an outcome: UnknownScreeningSourceError propagates so the request is refused (HTTP 400).
 */
export async function checkRegistryScreening(ctx: RonCheckContext): Promise<CheckOutcome> {
  const requested = ctx.request.registryScreening;
  const subjectName = requested?.subjectName;
  if (subjectName === undefined) return withoutSubject(ctx.profile.requireScreening);
  const gap = ctx.profile.requireScreening ? 'FAIL' : 'WARN';
  const subject = `subject ${quote(subjectName)}`;
  if (nameTokens(subjectName).length === 0) {
    const text = `${subject} has no letters or digits to match`;
    return judged(CHECK_ID, gap, 'screening_subject_unusable', text);
  }
  const sourceIds = requested?.sourceIds ?? ctx.screening.knownSourceIds();
  if (sourceIds.length === 0) {
    const text = `${subject} not screened: no screening lists are configured`;
    return judged(CHECK_ID, gap, 'screening_unavailable', text);
  }
  try {
    const forceRefresh = requested?.forceRefresh === true;
    const matches = await ctx.screening.screen(subjectName, sourceIds, { forceRefresh });
    return verdict(
      `${subject} screened against ${describeLists(ctx.screening, sourceIds)}`,
      matches,
    );
  } catch (error) {
    if (error instanceof UnknownScreeningSourceError) throw error;
    const text = `${subject} not screened: ${readFailure(error)}`;
    return judged(CHECK_ID, gap, 'screening_unavailable', text);
  }
}

function withoutSubject(required: boolean): CheckOutcome {
  const text = 'no registryScreening.subjectName supplied; no screening performed';
  return required
    ? fail(CHECK_ID, 'screening_subject_missing', `${text}, but the profile requires it`)
    : pass(CHECK_ID, text);
}

function verdict(screened: string, matches: ScreeningMatch[]): CheckOutcome {
  const best = matches[0];
  const thresholds = `strong >= ${STRONG_MATCH_THRESHOLD}, weak >= ${WEAK_MATCH_THRESHOLD}`;
  if (best === undefined) return pass(CHECK_ID, `${screened}: no match (${thresholds})`);
  const shown = matches.slice(0, MATCHES_SHOWN).map(describeMatch).join('; ');
  const text = `${screened}: ${matches.length} match(es) (${thresholds}); best: ${shown}`;
  return best.strength === 'strong'
    ? fail(CHECK_ID, 'screening_strong_match', text)
    : warn(CHECK_ID, 'screening_possible_match', text);
}

function describeMatch(match: ScreeningMatch): string {
  const name = quote(match.matchedName);
  return `${match.sourceId}/${match.entryId} ${name} score ${match.score.toFixed(3)} (${match.strength})`;
}

/** Each list with its entry count and file digest, so the exact list version is on record. */
function describeLists(screening: ScreeningLists, sourceIds: readonly string[]): string {
  return [...new Set(sourceIds)]
    .map((id) => {
      const info = screening.info(id);
      return info ? `${id} (${info.entries} entries, ${info.sha256})` : id;
    })
    .join(', ');
}

/** A list read failure without file system paths (internal topology stays out of receipts). */
function readFailure(error: unknown): string {
  if (error instanceof ScreeningListFormatError) return `list file unreadable: ${error.message}`;
  const code = (error as { code?: unknown } | null)?.code;
  return `list file could not be read (${typeof code === 'string' ? code : 'unknown error'})`;
}
