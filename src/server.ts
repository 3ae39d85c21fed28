import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { runPrimary } from './cluster/primary.js';
import { ConfigError, loadConfig, loadEnvFile } from './config.js';
import { githubStatus } from './http/plugins/services.js';
import { landingLines } from './http/routes/landing.js';

/**
 * Entry point: parse config, build the app, listen, drain on SIGTERM/SIGINT. With WORKERS > 1
 * this process is the cluster's primary and forks workers that run this file again.
 */
async function main() {
  // Every file this process creates (embedded store, lock, admin socket, generated keys) is
  // private to its user, whatever the mode of an existing DATA_DIR.
  process.umask(0o077);
  const envFile = loadEnvFile();
  const config = loadConfig();
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config);
  const app = await buildApp({ config });
  if (envFile) app.log.info({ envFile }, 'loaded variables from the env file (set ones win)');
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const url = await app.listen({ port: config.port, host: config.host });
  if (process.stdout.isTTY && (cluster.isPrimary || cluster.worker?.id === 1))
    process.stderr.write(`${banner(app, url)}\n`);
}

/** The human start-up summary, for a terminal (the JSON log has the same facts). */
function banner(app: Awaited<ReturnType<typeof buildApp>>, url: string): string {
  const { config, signer, signingKey, anchoring } = app.services;
  const key = signer
    ? `${signer.kid}${signingKey?.generated ? ` (generated now, ${signingKey.file})` : ''}`
    : 'none (SIGNING_DISABLED)';
  return [
    `verification receipt service listening on ${url}`,
    `  store      ${config.store.kind === 'embedded' ? `embedded, ${config.dataDir}` : 'PostgreSQL'}`,
    `  signing    ${key}`,
    `  log        ${config.logOrigin} (vkey ${anchoring.verifierKey ?? 'none'})`,
    `  GitHub App ${githubStatus(config)}`,
    ...(config.publicUrl
      ? []
      : [`  warning    PUBLIC_URL is not set: PDF receipts link to ${config.serviceUrl}`]),
    ...landingLines(config, url),
  ].join('\n');
}

/**
 * What stopped the start and what to do, on one line (no stack: the operator reads it in a
 * terminal or a container's status). A store that cannot be opened is the usual other cause.
 */
function startFailure(err: unknown): string {
  const text = (err instanceof Error ? err.message : String(err))
    .trim()
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ');
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof ConfigError)
    return `cannot start: ${text}; fix the variables named (docs/configuration.md) and start again`;
  // the lock's message already says what to do
  if (code === 'store_locked') return `cannot start: ${text}`;
  return (
    `cannot start: ${text}; check that the store is reachable (DATABASE_URL) or that DATA_DIR ` +
    'is writable with free space, then start again (the log above has the details)'
  );
}

main().catch((err: unknown) => {
  console.error(startFailure(err));
  process.exit(1);
});
