import { verifyStatus, type CurrentStatus, type StatusCheck, type StatusResult } from './status.js';
import { step } from './steps.js';

/**
 * Which signed status statement a verification rests on. A statement fetched now (--online, the
 * page) or supplied by the relying party (--status FILE) comes first; else the one a bundle
 * carries; else the status is not checked. Each is verified the same way (status.ts): signed by
 * a pinned key, about this receipt, no older than the limit.
 */

/** A status document and where it came from, or why fetching one failed. */
export type StatusInput = { document: unknown; source?: string } | { error: string };

export interface StatusSources {
  given?: StatusInput;
  /** The status document a bundle carries (its `status` member), when it has one. */
  embedded?: unknown;
}

/** The current status when no statement was fetched, supplied or carried. */
export const NOT_CHECKED_OFFLINE =
  'offline: no status was fetched, supplied or carried in the bundle';

/** Says in the status-signature step where the statement came from. */
function labelled(result: StatusResult, source: string): StatusResult {
  const steps = result.steps.map((s) =>
    s.id === 'status-signature' ? { ...s, detail: `${s.detail} (${source})` } : s,
  );
  return { ...result, steps };
}

export function currentStatusOf(sources: StatusSources, check: StatusCheck): StatusResult {
  const { given, embedded } = sources;
  if (given && 'document' in given) {
    return labelled(
      verifyStatus(given.document, check),
      given.source ?? 'fetched from the service',
    );
  }
  const failed =
    given && 'error' in given ? `the current status could not be fetched: ${given.error}` : '';
  if (embedded !== undefined) {
    const source = `carried in the bundle${failed ? `; ${failed}` : ''}`;
    return labelled(verifyStatus(embedded, check), source);
  }
  // not obtained is not checked, never "active"
  const current: CurrentStatus = { state: 'not-checked', detail: failed || NOT_CHECKED_OFFLINE };
  return { steps: failed ? [step('status', 'WARN', failed)] : [], current };
}
