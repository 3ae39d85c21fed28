import { ProbotOctokit } from 'probot';

/** Stand-in for src/github/octokit.ts in tests: no retries, no throttling (no waits). */
export const AppOctokit = ProbotOctokit.defaults({
  retry: { enabled: false },
  throttle: { enabled: false },
});
