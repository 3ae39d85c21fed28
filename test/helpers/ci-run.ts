import { randomInt } from 'node:crypto';
import type { CiVerificationRequest } from '../../src/contract/ci.js';

export type RunRequest = CiVerificationRequest & { runId: string };

/**
 * An adapter request for a push run of `repo` with the default externalId
 * `<repo>/<run id>/<attempt>`; `runId` is the test's own (strip it with `bodyOf` before sending).
 */
export function runRequest(repo = 'acme/widgets'): RunRequest {
  const runId = String(randomInt(1e9));
  return {
    runId,
    externalId: `${repo}/${runId}/1`,
    headSha: 'c0ffee'.padEnd(40, '0'),
    subject: { kind: 'workflow_run', summary: 'build' },
    repository: { fullName: repo, htmlUrl: `https://github.com/${repo}` },
    provenance: { eventName: 'push' },
  };
}

/** The request as sent: without the test's own `runId`. */
export function bodyOf(request: CiVerificationRequest & { runId?: string }): CiVerificationRequest {
  const body: CiVerificationRequest & { runId?: string } = { ...request };
  delete body.runId;
  return body;
}
