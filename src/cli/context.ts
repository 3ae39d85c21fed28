import fs from 'node:fs';
import type { Config } from '../config.js';
import { createServices, type ServiceOptions, type Services } from '../services.js';
import { openDatabase } from '../storage/database.js';
import { createRepositories, type Repositories } from '../storage/repositories.js';
import { CliError } from './errors.js';
import { requireStore } from './store.js';
import type { ParsedFlags } from './flags.js';

export { CliError } from './errors.js';
export { ParsedFlags } from './flags.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CliContext extends CliIo {
  /** The configuration, read from `env` when a command first asks for it. */
  readonly config: Config;
  /** The environment the configuration is read from (a demo server is started with it). */
  env: Record<string, string | undefined>;
  /** The command's flags, as declared in its help entry (help-records.ts, help-operations.ts). */
  flags: ParsedFlags;
  /** The command's operand (`keys revoke ID`), when it takes one. */
  operands: string[];
  /** Set when the running server executes the command (admin channel): use its services. */
  services?: Services;
  /** --init was given: an embedded store may be created where none exists. */
  init?: boolean;
}

/** Runs a command: its exit code when not 0 on success (`log verify`: 1 for an inconsistent log). */
export type Command = (ctx: CliContext) => Promise<number | void>;

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
