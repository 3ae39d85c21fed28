import fs from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import { createServices, type ServiceOptions, type Services } from '../services.js';
import { openDatabase } from '../storage/database.js';
import { createRepositories, type Repositories } from '../storage/repositories.js';
import { CliError } from './errors.js';
import { requireStore } from './store.js';
import { nearest } from './suggest.js';

export { CliError } from './errors.js';

/**
 * Thrown instead of running a command invoked with --help, carrying the options its parser
 * takes: the help printed is checked against them (src/cli/help.ts).
 */
export class HelpRequested extends Error {
  override name = 'HelpRequested';
  constructor(readonly options: readonly string[]) {
    super('help requested');
  }
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CliContext extends CliIo {
  config: Config;
  /** The environment the configuration was read from (a demo server is started with it). */
  env: Record<string, string | undefined>;
  args: string[];
  /** Set when the running server executes the command (admin channel): use its services. */
  services?: Services;
  /** --help was given: the parser throws HelpRequested instead of parsing. */
  help?: boolean;
  /** --init was given: an embedded store may be created where none exists. */
  init?: boolean;
}

export type Command = (ctx: CliContext) => Promise<void>;

/**
 * Opens the store the server uses (same DATABASE_URL / DATA_DIR), builds the services through
 * the same composition root as the server, runs `fn`, closes the store.
 */
export async function withServices<T>(
  ctx: CliContext,
  fn: (services: Services) => Promise<T>,
  options: ServiceOptions = {},
): Promise<T> {
  if (ctx.help) throw new HelpRequested([]);
  if (ctx.services) return fn(ctx.services);
  if (!ctx.init) requireStore(ctx.config.store);
  const db = await openDatabase(ctx.config.store);
  try {
    return await fn(await createServices(ctx.config, createRepositories(db), options));
  } finally {
    await db.close();
  }
}

/** For commands that only manage records (keys, notaries, issuers): no key, no lists loaded. */
export function withStore<T>(ctx: CliContext, fn: (repos: Repositories) => Promise<T>) {
  return withServices(ctx, (services) => fn(services.stores), {
    loadSigner: false,
    loadScreening: false,
  });
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with strict flags; unknown or malformed flags become a CliError. */
export function flags<O extends Options>(ctx: CliContext, options: O) {
  return parseFlags(ctx.args, options, { help: ctx.help, positionals: true });
}

/**
 * parseArgs for a command's flags: with `help`, HelpRequested with the option names instead;
 * Node's messages replaced by one line that names the flag and, for a misspelt one, the
 * nearest valid flag.
 */
export function parseFlags<O extends Options>(
  args: string[],
  options: O,
  mode: { help?: boolean | undefined; positionals: boolean },
) {
  if (mode.help) throw new HelpRequested(Object.keys(options));
  try {
    const joined = dashValuesJoined(args, options);
    return parseArgs({
      args: joined,
      options,
      allowPositionals: mode.positionals,
      strict: true,
    });
  } catch (err) {
    throw new CliError(parseArgsMessage(err as Error & { code?: string }, Object.keys(options)));
  }
}

function parseArgsMessage(err: Error & { code?: string }, names: string[]): string {
  const quoted = /'([^']+)'/.exec(err.message)?.[1] ?? '';
  const flag = quoted.replace(/ <value>$/, '');
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const near = flag.startsWith('--')
        ? nearest(flag.slice(2), names)
        : nearest(flag.replace(/^-/, ''), names);
      return `unknown flag ${flag}${near ? `; did you mean --${near}?` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /ambiguous/.test(err.message)
        ? `${flag} needs a value (one starting with -- is written ${flag}=--...)`
        : /argument missing/.test(err.message)
          ? `${flag} needs a value`
          : `${flag} takes no value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}': this command takes flags only`;
    default:
      return err.message;
  }
}

/**
 * `--flag -value` as `--flag=-value` for a string flag: a base64url key or id starts with '-' one
 * time in 64, and parseArgs refuses such a value as ambiguous. A value that starts with `--` is
 * still refused, so a forgotten value (`--tenant --id X`) stays an error.
 */
function dashValuesJoined(args: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    const option = arg.startsWith('--') ? options[arg.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-[^-]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/**
 * The arguments of a command that takes no flags, all positional: a key id is base64url and may
 * start with '-', which parseArgs would take for a flag. A leading `--` is dropped.
 */
export function positionalsOnly(ctx: CliContext): string[] {
  if (ctx.help) throw new HelpRequested([]);
  return ctx.args[0] === '--' ? ctx.args.slice(1) : [...ctx.args];
}

export function required(value: string | boolean | undefined, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new CliError(`--${name} is required`);
  return value;
}

/** The text of a file named by a flag (a PEM key, usually), or a CliError naming it. */
export function readFlagFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
}
