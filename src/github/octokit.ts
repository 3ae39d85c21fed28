import { ProbotOctokit } from 'probot';

/**
 * The Octokit class Probot builds its GitHub clients from: Probot's own, with retries and
 * rate-limit throttling. Kept in its own module so tests can swap in a class with both turned
 * off (`vi.mock`), since the app is built by `buildApp` and has no other way to receive one.
 */
export const AppOctokit: typeof ProbotOctokit = ProbotOctokit;
