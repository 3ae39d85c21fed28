#!/usr/bin/env node
import { loadEnvFile } from '../config.js';
import { runCli } from './run.js';

// Files the CLI creates (embedded store, keys, demo material) are private, as the server's are.
process.umask(0o077);
// the same variables as the server: set ones, then ENV_FILE (default ./.env)
loadEnvFile();

const code = await runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = code;
