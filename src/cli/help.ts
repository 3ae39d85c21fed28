/**
 * What `receipts <command> --help` says: for each command, its usage line, one sentence on what
 * it does, every flag with a sentence and its default (or that it is required), and one example.
 * The flags listed here are checked against each command's own parser options
 * (test/cli/help.test.ts), so a flag cannot be added without its line here.
 */
import type { CommandHelp, FlagHelp } from './help-types.js';
export type { CommandHelp, FlagHelp } from './help-types.js';
import { OPERATION_HELP } from './help-operations.js';
import { RECORD_HELP } from './help-records.js';

export const INIT_FLAG: FlagHelp = {
  text: 'create the embedded store in DATA_DIR when none exists there',
  default: 'refuse, naming DATA_DIR',
};

/** Every command's help, by its full name (`keys create`, `demo`). */
export const HELP: Record<string, CommandHelp> = { ...RECORD_HELP, ...OPERATION_HELP };

/** `receipts verify` is the verifier package's own command line, with its own --help. */
export const VERIFY_USAGE_LINE =
  'verify FILE (--jwks FILE|URL | --key FILE | --online URL | --log-policy FILE) [--status FILE | --offline] [--artifact FILE] [--json]';

/** The overview `receipts --help` prints: every command with its one sentence. */
export function overview(version: string): string {
  const lines = [`receipts ${version}: the verification receipt service's command line`, ''];
  lines.push('usage: receipts <command> [flags]', '');
  for (const help of Object.values(HELP)) {
    lines.push(`  ${help.usage}`, `      ${help.summary}`);
  }
  lines.push(
    `  ${VERIFY_USAGE_LINE}`,
    '      Checks a bundle or PDF receipt offline (no store, no service); see receipts verify --help.',
    '',
    '  --version                         print the version',
    '  --init                            with a command that opens the store: create it if none exists',
    '',
    'receipts <command> --help (or receipts help <command>) shows every flag, its default and an',
    'example. The CLI uses the same DATABASE_URL / DATA_DIR as the server (docs/configuration.md),',
    'read from the environment and ./.env; without DATABASE_URL the store is ./data.',
  );
  return lines.join('\n');
}

function flagLabel(name: string, flag: FlagHelp): string {
  return flag.value ? `--${name} ${flag.value}` : `--${name}`;
}

/**
 * A command's help from its registry entry and the options its parser really takes: a parser
 * option with no entry here is an error (the help test runs every command through this).
 */
export function commandHelp(command: string, parserOptions: readonly string[]): string {
  const help = HELP[command];
  if (!help) throw new Error(`no help for the command ${command}`);
  const missing = parserOptions.filter((o) => !help.flags[o]);
  if (missing.length > 0) {
    throw new Error(`receipts ${command}: no help for --${missing.join(', --')}`);
  }
  const flags = Object.entries(help.flags);
  if (help.store) flags.push(['init', INIT_FLAG]);
  const labels = flags.map(([name, flag]) => flagLabel(name, flag));
  const width = Math.max(0, ...labels.map((l) => l.length)) + 2;
  const lines = [`usage: receipts ${help.usage}`, '', help.summary];
  if (flags.length > 0) lines.push('', 'flags:');
  flags.forEach(([, flag], i) => {
    const state = flag.required ? 'required' : `default: ${flag.default ?? 'none'}`;
    lines.push(`  ${(labels[i] as string).padEnd(width)}${flag.text} (${state})`);
  });
  lines.push('', 'example:', `  ${help.example}`);
  if (help.store) {
    lines.push(
      '',
      'store: DATABASE_URL, else the embedded store in DATA_DIR (default ./data, from the current folder).',
    );
  }
  return lines.join('\n');
}

/** Whether `command` run with `args` changes the store (its output then names the store). */
export function writesStore(command: string, args: readonly string[]): boolean {
  const writes = HELP[command]?.writes;
  return typeof writes === 'function' ? writes(args) : writes === true;
}

/** The commands of a group (`keys`), for `receipts keys --help`. */
export function groupHelp(group: string): string | undefined {
  const entries = Object.entries(HELP).filter(([name]) => name.startsWith(`${group} `));
  if (entries.length === 0) return undefined;
  const lines = [`usage: receipts ${group} <command> [flags]`, ''];
  for (const [, help] of entries) lines.push(`  ${help.usage}`, `      ${help.summary}`);
  lines.push('', `receipts ${group} <command> --help shows every flag and an example.`);
  return lines.join('\n');
}
