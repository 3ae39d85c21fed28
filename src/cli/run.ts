import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { ConfigError, loadConfig, processEnvironment, type Config } from '../config.js';
import { DataDirLockedError } from '../storage/data-dir-lock.js';
import { issuerCommands, signRevocationCommand } from './commands/issuers.js';
import { anchorRunCommand } from './commands/anchor.js';
import { demoCommand } from './commands/demo.js';
import { keyCommands } from './commands/keys.js';
import { logInfoCommand, logVerifyCommand } from './commands/log.js';
import { sealCreateCommand } from './commands/seal.js';
import { initCommand, migrateCommand } from './commands/migrate.js';
import { notaryCommands } from './commands/notaries.js';
import { policyCheckCommand } from './commands/policy.js';
import { signingKeyCommands } from './commands/signing-keys.js';
import { tenantCommands } from './commands/tenants.js';
import { main as verifyCommand } from '@verification-receipts/verify/cli';
import type { Services } from '../services.js';
import { adminSocketPath, forwardToServer } from './admin-channel.js';
import { CliError, type CliContext, type CliIo, type Command } from './context.js';
import type { ParsedFlags } from './flags.js';
import { HELP, writesStore } from './help.js';
import { buildProgram } from './program.js';
import { describeStore } from './store.js';

const GROUPS: Record<string, Record<string, Command>> = {
  keys: keyCommands,
  issuers: issuerCommands,
  anchor: { run: anchorRunCommand },
  log: { info: logInfoCommand, verify: logVerifyCommand },
  seal: { create: sealCreateCommand },
  notaries: notaryCommands,
  policy: { check: policyCheckCommand },
  'signing-keys': signingKeyCommands,
  tenants: tenantCommands,
};

/** Every command by its full name (`keys create`, `demo`); its flags and help are in HELP. */
export const COMMANDS: Record<string, Command> = {
  init: initCommand,
  migrate: migrateCommand,
  demo: demoCommand,
  'sign-revocation': signRevocationCommand,
  ...Object.fromEntries(
    Object.entries(GROUPS).flatMap(([group, subs]) =>
      Object.entries(subs).map(([sub, command]) => [`${group} ${sub}`, command]),
    ),
  ),
};

/** The package version (package.json next to dist/ and src/). */
function version(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** Commander's ways of ending a run that printed what was asked for. */
const ANSWERED = new Set(['commander.helpDisplayed', 'commander.version']);

interface Invocation {
  argv: string[];
  io: CliIo;
  env: Record<string, string | undefined>;
  services: Services | undefined;
}

/**
 * Runs one CLI invocation; returns the process exit code: 0 success, 1 not found or failed,
 * 2 bad usage (whatever commander refuses), 3 no store, store locked or bad configuration. With
 * `services` (the admin channel) the command runs inside the server, on its services and
 * configuration.
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  env: Record<string, string | undefined> = processEnvironment(),
  services?: Services,
): Promise<number> {
  // offline verification needs no configuration, store or service: the verifier's own CLI
  if (argv[0] === 'verify') return verifyCommand(argv.slice(1), io);
  // `receipts help keys create` is `receipts keys create --help`
  if (argv[0] === 'help') return runCli([...argv.slice(1), '--help'], io, env, services);
  let code = 0;
  const run: Invocation = { argv, io, env, services };
  const program = buildProgram(io, version(), async (name, flags, operands) => {
    code = await execute(name, flags, operands, run);
  });
  if (argv.length === 0) {
    program.outputHelp();
    return 0;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    // commander has printed the error (or the help a group without its command needs)
    if (err instanceof CommanderError) return ANSWERED.has(err.code) ? 0 : 2;
    throw err;
  }
}

async function execute(
  name: string,
  flags: ParsedFlags,
  operands: string[],
  run: Invocation,
): Promise<number> {
  const { io, env, services } = run;
  let config: Config | undefined;
  const ctx: CliContext = {
    out: (line) => io.out(line),
    err: (line) => io.err(line),
    env,
    flags,
    operands,
    // read when a command first needs it: `log verify` runs with no configuration at all
    get config() {
      return (config ??= services?.config ?? loadConfig(env));
    },
    init: flags.given('init'),
    ...(services ? { services } : {}),
  };
  try {
    const code = (await (COMMANDS[name] as Command)(ctx)) ?? 0;
    if (code === 0 && writesStore(name, flags)) {
      const line = `store: ${describeStore(ctx.config.store, services !== undefined)}`;
      (flags.given('json') ? io.err : io.out)(line);
    }
    return code;
  } catch (err) {
    return failed(err, name, run);
  }
}

/** One line for what went wrong, one for what to do, the usage line on usage errors. */
function printError(io: CliIo, err: CliError, command: string): number {
  io.err(`error: ${err.message}`);
  const hint =
    err.hint ??
    (err.exitCode === 2 ? `run \`receipts ${command} --help\` for every flag and an example` : '');
  if (hint) io.err(hint);
  if (err.usage) io.err(`usage: receipts ${HELP[command]?.usage ?? command}`);
  return err.exitCode;
}

async function failed(err: unknown, name: string, run: Invocation): Promise<number> {
  const { io } = run;
  if (err instanceof CliError) return printError(io, err, name);
  if (err instanceof DataDirLockedError && !run.services) {
    // the server holds the embedded store: let it run the command (admin channel)
    const code = await forwardToServer(run.argv, adminSocketPath(err.dataDir), io);
    if (code !== undefined) return code;
  }
  if (err instanceof DataDirLockedError || err instanceof ConfigError) {
    io.err(`error: ${err.message}`);
    io.err(
      err instanceof ConfigError
        ? 'fix the variable (docs/configuration.md lists every one and its default)'
        : 'stop that process, or run the command on the machine where the server runs',
    );
    return 3;
  }
  io.err(`error: ${err instanceof Error ? err.message : String(err)}`);
  return 1;
}
