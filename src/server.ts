import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { runPrimary } from './cluster/primary.js';
import { loadConfig, loadEnvFile } from './config.js';
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

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
