import { createPrivateKey } from 'node:crypto';
import fs from 'node:fs';
import { Probot, type Options as ProbotOptions, type ProbotOctokit } from 'probot';
import { ConfigError, type GitHubAppConfig } from '../config.js';

export type ProbotLogger = NonNullable<ProbotOptions['log']>;

/** `PRIVATE_KEY` wins over `PRIVATE_KEY_PATH`; `\n` escapes (one-line env files) are undone. */
export function readPrivateKey(github: GitHubAppConfig): string {
  const raw =
    github.privateKey ??
    (github.privateKeyPath ? fs.readFileSync(github.privateKeyPath, 'utf8') : undefined);
  if (!raw) throw new ConfigError('GitHub App: PRIVATE_KEY or PRIVATE_KEY_PATH is required');
  const pem = raw.includes('\\n') ? raw.replace(/\\n/g, '\n') : raw;
  try {
    createPrivateKey(pem);
  } catch {
    throw new ConfigError('GitHub App: the private key is not a PEM-encoded RSA private key');
  }
  return pem;
}

/** GitHub Enterprise Server: `<GHE_PROTOCOL>://<GHE_HOST>/api/v3`; github.com otherwise. */
export function githubBaseUrl(github: GitHubAppConfig): string | undefined {
  if (!github.gheHost) return undefined;
  return `${github.gheProtocol || 'https'}://${github.gheHost}/api/v3`;
}

export function probotOptions(
  github: GitHubAppConfig,
  log: ProbotLogger,
  Octokit: typeof ProbotOctokit,
): ProbotOptions {
  return {
    appId: github.appId,
    privateKey: readPrivateKey(github),
    secret: github.webhookSecret,
    baseUrl: githubBaseUrl(github),
    Octokit,
    log,
  };
}

export function createProbot(
  github: GitHubAppConfig,
  log: ProbotLogger,
  Octokit: typeof ProbotOctokit,
): Probot {
  return new Probot(probotOptions(github, log, Octokit));
}
