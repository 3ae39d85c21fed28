import { buildApp } from './app.js';
import { loadConfig, loadEnvFile } from './config.js';

/** Entry point: parse config, build the app, listen, drain on SIGTERM/SIGINT. */
async function main() {
  // Every file this process creates (embedded store, lock, admin socket, generated keys) is
  // private to its user, whatever the mode of an existing DATA_DIR.
  process.umask(0o077);
  const envFile = loadEnvFile();
  const config = loadConfig();
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
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
