import type { Probot } from 'probot';
import type { DefaultBranchSource } from '../receipts/ports.js';

const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 1_000;

/**
 * Default branches for ci-provenance-v2 on the API path, asked with this app's own access: the
 * installation on the repository (GET /repos/{owner}/{repo}/installation with the app's JWT),
 * then GET /repos/{owner}/{repo} with that installation's token. Not installed: undefined (the
 * check WARNs); GitHub down: the error propagates (the request gets 503). Answers are kept five
 * minutes, at most a thousand repositories.
 */
export function githubDefaultBranches(probot: Probot, now = Date.now): DefaultBranchSource {
  const cache = new Map<string, { branch: string | undefined; at: number }>();
  const remember = (key: string, branch: string | undefined) => {
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, { branch, at: now() });
    return branch;
  };
  return {
    async defaultBranch(fullName) {
      const key = fullName.toLowerCase();
      const hit = cache.get(key);
      if (hit && now() - hit.at < TTL_MS) return hit.branch;
      const [owner = '', repo = ''] = fullName.split('/');
      const app = await probot.auth();
      let installationId: number;
      try {
        installationId = (await app.rest.apps.getRepoInstallation({ owner, repo })).data.id;
      } catch (err) {
        if ((err as { status?: unknown }).status === 404) return remember(key, undefined);
        throw err;
      }
      const installation = await probot.auth(installationId);
      const { data } = await installation.rest.repos.get({ owner, repo });
      return remember(key, data.default_branch);
    },
  };
}
