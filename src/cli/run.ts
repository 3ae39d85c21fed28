import { readFileSync } from 'node:fs';
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
import { CliError, HelpRequested, type CliIo, type Command } from './context.js';
import { commandHelp, groupHelp, HELP, overview, writesStore } from './help.js';
import { describeStore } from './store.js';
import { nearest } from './suggest.js';

const GROUPS: Record<string, Record<string, Command>> = {
  keys: keyCommands,
  issuers: issuerCommands,
  anchor: { run: anchorRunCommand },
  log: { info: logInfoCommand },
  seal: { create: sealCreateCommand },
  notaries: notaryCommands,
  policy: { check: policyCheckCommand },
  'signing-keys': signingKeyCommands,
  tenants: tenantCommands,
};

const SINGLE: Record<string, Command> = {
  init: initCommand,
  migrate: migrateCommand,
  demo: demoCommand,
  'sign-revocation': signRevocationCommand,
};

/** The overview `receipts --help` prints (every command with one sentence). */
export const USAGE = overview(version());

/** Every command by its full name (`keys create`, `demo`), for help and suggestions. */
export const COMMANDS: Record<string, Command> = {
  ...SINGLE,
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

const HINT_HELP = 'run `receipts --help` for every command';

type Resolved =
  | { kind: 'command'; name: string; command: Command; args: string[] }
  | { kind: 'group'; group: string }
  | { kind: 'unknown'; error: CliError };

/** The command `argv` names, or why it names none (with the nearest valid command). */
function resolve(argv: string[]): Resolved {
  const [first = '', second, ...rest] = argv;
  const single = SINGLE[first];
  if (single) return { kind: 'command', name: first, command: single, args: argv.slice(1) };
  const group = GROUPS[first];
  if (!group) {
    const near = nearest(first, [...Object.keys(SINGLE), ...Object.keys(GROUPS), 'verify']);
    const message = `unknown command '${first.slice(0, 64)}'${near ? `; did you mean '${near}'?` : ''}`;
    return { kind: 'unknown', error: new CliError(message, 2, HINT_HELP) };
  }
  const subs = group === GROUPS.log ? [...Object.keys(group), 'verify'] : Object.keys(group);
  if (second === undefined || second.startsWith('-')) return { kind: 'group', group: first };
  const command = group[second];
  if (command) return { kind: 'command', name: `${first} ${second}`, command, args: rest };
  const near = nearest(second, subs);
  const message = `unknown command '${first} ${second.slice(0, 64)}'${near ? `; did you mean '${first} ${near}'?` : ''}`;
  return { kind: 'unknown', error: new CliError(message, 2, `run \`receipts ${first} --help\``) };
}

/** `--help`, `-h` (before a `--`) ask for help; `--init` asks to create the store. */
function globalFlags(argv: string[]): { args: string[]; help: boolean; init: boolean } {
  const end = argv.indexOf('--');
  const flagsPart = end < 0 ? argv : argv.slice(0, end);
  const help = flagsPart.includes('--help') || flagsPart.includes('-h');
  const init = flagsPart.includes('--init');
  const args = argv.filter(
    (a, i) => (end >= 0 && i >= end) || (a !== '--help' && a !== '-h' && a !== '--init'),
  );
  return { args, help, init };
}

/** One line for what went wrong, one for what to do, the usage line on usage errors. */
function printError(io: CliIo, err: CliError, command?: string): number {
  io.err(`error: ${err.message}`);
  const usage = command ? HELP[command]?.usage : undefined;
  const hint =
    err.hint ??
    (err.exitCode === 2 && command
      ? `run \`receipts ${command} --help\` for every flag and an example`
      : undefined);
  if (hint) io.err(hint);
  if (err.exitCode === 2 && usage) io.err(`usage: receipts ${usage}`);
  return err.exitCode;
}

/** The commands whose whole work is opening (making, migrating) the store. */
const OPENS_STORE = ['init', 'migrate'];

/** `receipts <group>`: its help when asked for, else a usage error listing its commands. */
function groupAnswer(io: CliIo, group: string, help: boolean): number {
  const text = groupHelp(group) ?? USAGE;
  if (help) {
    io.out(text);
    return 0;
  }
  const commands = text.split('\n').slice(2).join('\n');
  return printError(io, new CliError(`receipts ${group} needs a command`, 2, commands));
}

/**
 * Runs one CLI invocation; returns the process exit code. With `services` (the admin channel)
 * the command runs inside the server, on its services and configuration.
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  env: Record<string, string | undefined> = processEnvironment(),
  services?: Services,
): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-v') {
    io.out(`receipts ${version()}`);
    return 0;
  }
  // offline verification needs no configuration, store or service: the verifier's own CLI
  if (argv[0] === 'verify') return verifyCommand(argv.slice(1), io);
  const asked = argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv;
  const { args, help, init } = globalFlags(asked);
  if (args.length === 0) {
    io.out(USAGE);
    return 0;
  }
  if (args[0] === 'verify') return verifyCommand([...args.slice(1), '--help'], io);
  // monitoring a served log needs no configuration or store either
  if (args[0] === 'log' && args[1] === 'verify') {
    return logVerifyCommand(args.slice(2), io, undefined, help);
  }
  const resolved = resolve(args);
  if (resolved.kind === 'unknown') return printError(io, resolved.error);
  if (resolved.kind === 'group') return groupAnswer(io, resolved.group, help);
  if (init && !help && !HELP[resolved.name]?.store && !OPENS_STORE.includes(resolved.name)) {
    return printError(
      io,
      new CliError(`--init: receipts ${resolved.name} opens no store`),
      resolved.name,
    );
  }
  try {
    const config = services?.config ?? configFor(env, help);
    const ctx = { ...io, config, env, args: resolved.args, help, init };
    await resolved.command({ ...ctx, ...(services ? { services } : {}) });
    if (writesStore(resolved.name, resolved.args) && !OPENS_STORE.includes(resolved.name)) {
      const line = `store: ${describeStore(config.store, services !== undefined)}`;
      (args.includes('--json') ? io.err : io.out)(line);
    }
    return 0;
  } catch (err) {
    return failed(err, { io, name: resolved.name, args, services });
  }
}

/** The configuration; for --help only, a configuration error does not stand in the way. */
function configFor(env: Record<string, string | undefined>, help: boolean): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (help) return loadConfig({});
    throw err;
  }
}

async function failed(
  err: unknown,
  run: { io: CliIo; name: string; args: string[]; services: Services | undefined },
): Promise<number> {
  const { io, name } = run;
  if (err instanceof HelpRequested) {
    try {
      io.out(commandHelp(name, err.options));
      return 0;
    } catch (missing) {
      io.err(`error: ${(missing as Error).message}`);
      return 1;
    }
  }
  if (err instanceof CliError) return printError(io, err, name);
  if (err instanceof DataDirLockedError && !run.services) {
    // the server holds the embedded store: let it run the command (admin channel)
    const code = await forwardToServer(run.args, adminSocketPath(err.dataDir), io);
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
