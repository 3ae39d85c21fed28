import { ProbotOctokit } from 'probot';

/** The Octokit tests give `buildApp`: Probot's own, without retries or throttling (no waits). */
export const TestOctokit = ProbotOctokit.defaults({
  retry: { enabled: false },
  throttle: { enabled: false },
});
