import fs from 'node:fs';
import { ServiceError } from '../errors.js';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import { createServices, type ServiceOptions, type Services } from '../services.js';
import { openDatabase } from '../storage/database.js';
import { createRepositories, type Repositories } from '../storage/repositories.js';

/** A failure the operator caused (bad flag, missing file): printed without a stack trace. */
export class CliError extends ServiceError<'cli_usage'> {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super('cli_usage', message);
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
  if (ctx.services) return fn(ctx.services);
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
  try {
    const args = dashValuesJoined(ctx.args, options);
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError((err as Error).message);
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
