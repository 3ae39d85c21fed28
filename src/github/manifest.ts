import fs from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';

/**
 * The GitHub App manifest registered through GitHub's manifest flow: `app.yml` with the URLs of
 * this deployment (https://docs.github.com/apps/sharing-github-apps/registering-a-github-app-from-a-manifest).
 */
export const APP_YML = path.resolve(import.meta.dirname, '../../app.yml');

export interface ManifestUrls {
  /** Where the service is reached: PUBLIC_URL, else the address the request came to. */
  baseUrl: string;
  /** smee.io channel that forwards webhooks in development. */
  webhookProxyUrl: string | undefined;
}

export function appManifest(urls: ManifestUrls, file = APP_YML): Record<string, unknown> {
  const manifest = (load(fs.readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>;
  const hooks = (manifest.hook_attributes ?? {}) as Record<string, unknown>;
  return {
    ...manifest,
    url: urls.baseUrl,
    hook_attributes: {
      ...hooks,
      url: urls.webhookProxyUrl ?? `${urls.baseUrl}/api/github/webhooks`,
    },
    redirect_url: `${urls.baseUrl}/probot/setup`,
  };
}

/** `.env` lines for the credentials GitHub returns; values with newlines as `\n` escapes. */
export function envLines(values: Record<string, string>): string[] {
  return Object.entries(values).map(([k, v]) => `${k}=${v.replace(/\r?\n/g, '\\n')}`);
}

/**
 * The credentials merged into `file` (mode 0600), written whole or not at all: a temporary file
 * renamed over it, removed again when the rename fails, so no copy of the key is left behind.
 */
export function mergeEnvFile(
  file: string,
  values: Record<string, string>,
  rename: (from: string, to: string) => void = fs.renameSync,
): void {
  const kept = fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() && !((line.split('=')[0] ?? '').trim() in values))
    : [];
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, `${[...kept, ...envLines(values)].join('\n')}\n`, { mode: 0o600 });
    rename(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
