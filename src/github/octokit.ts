import { ProbotOctokit } from 'probot';

/**
 * The default Octokit class Probot builds its GitHub clients from: Probot's own, with retries and
 * rate-limit throttling. `buildApp({ octokit })` replaces it (tests pass one without either).
 */
export const AppOctokit: typeof ProbotOctokit = ProbotOctokit;
