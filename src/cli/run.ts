import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.js';
import { DataDirLockedError } from '../storage/data-dir-lock.js';
import { issuerCommands, signRevocationCommand } from './commands/issuers.js';
import { anchorRunCommand } from './commands/anchor.js';
import { demoCommand } from './commands/demo.js';
import { keyCommands } from './commands/keys.js';
import { logInfoCommand, logVerifyCommand } from './commands/log.js';
import { sealCreateCommand } from './commands/seal.js';
import { migrateCommand } from './commands/migrate.js';
import { notaryCommands } from './commands/notaries.js';
import { signingKeyCommands } from './commands/signing-keys.js';
import { tenantCommands } from './commands/tenants.js';
import { main as verifyCommand } from '@verification-receipts/verify/cli';
import type { Services } from '../services.js';
import { adminSocketPath, forwardToServer } from './admin-channel.js';
import { CliError, type CliIo, type Command } from './context.js';

const GROUPS: Record<string, Record<string, Command>> = {
  keys: keyCommands,
  issuers: issuerCommands,
  anchor: { run: anchorRunCommand },
  log: { info: logInfoCommand },
  seal: { create: sealCreateCommand },
  notaries: notaryCommands,
  'signing-keys': signingKeyCommands,
  tenants: tenantCommands,
};

export const USAGE = `usage: receipts <command> [flags]

  keys create --tenant T --name N --scopes verify,read,anchor,revoke [--json]
  keys list [--json]
  keys revoke ID
  notaries add --tenant T --id ID --name NAME --state XX --expires YYYY-MM-DD --public-key-file PEM
  notaries list [--tenant T] [--json]
  notaries remove --tenant T --id ID
  issuers add --tenant T --id ISSUER (--public-key BASE64URL | --public-key-file PEM)
  issuers list [--tenant T]
  issuers remove --id ISSUER
  tenants policy --tenant T [--ci-repositories owner/*,owner/repo | --clear]
                                    pin the repositories a tenant may get CI receipts for
  sign-revocation --issuer ID --key-file PEM --receipt UUID [--json]
  seal create --notary-id ID --state XX --doc-hash sha256:HEX --key-file NOTARY_P256.pem
  anchor run
  log info [--url PREFIX]           the log's origin, note verifier key, size and root
  log verify --url PREFIX [--vkey VKEY] [--witness VKEY]... [--state FILE]
                                    monitor a served log: every tile, the root, consistency
  signing-keys rotate [--out FILE]
  signing-keys list
  signing-keys endorse KID
  migrate
  demo [--url URL] [--dir DIR]      the whole story against a running (or started) service
  verify FILE (--jwks FILE|URL | --key FILE | --online URL | --log-policy FILE) [--artifact FILE] [--json]
                                    check a bundle or PDF receipt offline (no store, no service)

  --version                         print the version

Every command takes --help. The CLI uses the same DATABASE_URL / DATA_DIR as the server (see
docs/configuration.md).`;

/**
 * The USAGE lines of the command `argv` names (a group, or a group and subcommand), with their
 * continuation lines; undefined when it names none.
 */
export function commandHelp(argv: readonly string[]): string | undefined {
  const words = argv.filter((a) => !a.startsWith('-')).slice(0, 2);
  if (words.length === 0) return undefined;
  const lines = USAGE.split('\n');
  const picked: string[] = [];
  let taking = false;
  for (const line of lines) {
    if (/^ {2}\S/.test(line)) {
      const [group, sub] = line.trim().split(/\s+/);
      taking = group === words[0] && (words.length < 2 || sub === words[1] || !GROUPS[group ?? '']);
    } else if (!/^ {3,}\S/.test(line)) {
      taking = false;
    }
    if (taking) picked.push(line);
  }
  return picked.length > 0 ? `usage: receipts\n${picked.join('\n')}` : undefined;
}

/** The package version (package.json next to dist/ and src/). */
function version(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function resolve(argv: string[]): { command: Command; args: string[] } | undefined {
  const [group, sub, ...rest] = argv;
  if (group === 'migrate') return { command: migrateCommand, args: argv.slice(1) };
  if (group === 'demo') return { command: demoCommand, args: argv.slice(1) };
  if (group === 'sign-revocation') return { command: signRevocationCommand, args: argv.slice(1) };
  const command = group && sub ? GROUPS[group]?.[sub] : undefined;
  return command ? { command, args: rest } : undefined;
}

/**
 * Runs one CLI invocation; returns the process exit code. With `services` (the admin channel)
 * the command runs inside the server, on its services and configuration.
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  env: Record<string, string | undefined> = process.env,
  services?: Services,
): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-v') {
    io.out(`receipts ${version()}`);
    return 0;
  }
  // offline verification needs no configuration, store or service
  if (argv[0] === 'verify') return verifyCommand(argv.slice(1), io);
  // neither does monitoring a served log
  if (argv[0] === 'log' && argv[1] === 'verify') return logVerifyCommand(argv.slice(2), io);
  if (argv[0] !== 'help' && (argv.includes('--help') || argv.includes('-h'))) {
    const help = commandHelp(argv);
    (help ? io.out : io.err)(help ?? USAGE);
    return help ? 0 : 2;
  }
  const resolved = resolve(argv);
  if (!resolved) {
    (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' ? io.out : io.err)(USAGE);
    return argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' ? 0 : 2;
  }
  try {
    const config = services?.config ?? loadConfig(env);
    await resolved.command({
      ...io,
      config,
      env,
      args: resolved.args,
      ...(services ? { services } : {}),
    });
    return 0;
  } catch (err) {
    if (err instanceof CliError) {
      io.err(`error: ${err.message}`);
      // a usage error: show what the command takes
      const help = err.exitCode === 2 ? commandHelp(argv) : undefined;
      if (help) io.err(help);
      return err.exitCode;
    }
    if (err instanceof DataDirLockedError && !services) {
      // the server holds the embedded store: let it run the command (admin channel)
      const code = await forwardToServer(argv, adminSocketPath(err.dataDir), io);
      if (code !== undefined) return code;
    }
    if (err instanceof DataDirLockedError || err instanceof ConfigError) {
      io.err(`error: ${err.message}`);
      return 3;
    }
    io.err(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
