import { Command, Help, Option } from 'commander';
import type { CliIo } from './context.js';
import { ParsedFlags } from './flags.js';
import type { CommandHelp, FlagHelp } from './help-types.js';
import { GROUP_SUMMARY, HELP, INIT_FLAG, VERIFY_HELP } from './help.js';

/**
 * The `receipts` command tree in commander, built from the declarations in help.ts: commander
 * parses the flags, prints every help and suggests the nearest command or flag for a typo.
 */

/** An error message quotes what was typed; a word longer than this is cut (argv has no bound). */
const MAX_QUOTED = 64;

const STORE_NOTE =
  'Store: DATABASE_URL, else the embedded store in DATA_DIR (default ./data, from the current folder).';

const OVERVIEW_NOTES = `
receipts <command> --help (or receipts help <command>) shows every flag, its default and an
example. The CLI uses the same DATABASE_URL / DATA_DIR as the server (docs/configuration.md),
read from the environment and ./.env; without DATABASE_URL the store is ./data. A command that
opens the store takes --init: create it if none exists.`;

/** A command's name below `receipts`: `keys create`. */
function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function leaves(cmd: Command): Command[] {
  return cmd.commands.length > 0 ? cmd.commands.flatMap(leaves) : [cmd];
}

/**
 * The overview and a group's help list every command below them by its full name (`keys
 * create`) with its one sentence. Commander matches a mistyped command against the same
 * method outside help, where it stays the direct children (`receipts isuers`: `issuers`).
 */
class ReceiptsHelp extends Help {
  private listing = false;

  override formatHelp(cmd: Command, helper: Help): string {
    this.listing = true;
    return super.formatHelp(cmd, helper);
  }

  override visibleCommands(cmd: Command): Command[] {
    const direct = super.visibleCommands(cmd);
    return this.listing ? direct.flatMap(leaves) : direct;
  }

  override subcommandTerm(cmd: Command): string {
    return fullName(cmd);
  }
}

class ReceiptsCommand extends Command {
  override createCommand(name?: string): ReceiptsCommand {
    return new ReceiptsCommand(name);
  }

  override createHelp(): Help {
    return Object.assign(new ReceiptsHelp(), this.configureHelp());
  }

  /**
   * A flag that takes a value followed by a flag is a forgotten value (`--tenant --id X`), not a
   * tenant named `--id`; a value that starts with `--` is written `--tenant=--...`. A value that
   * starts with one dash (a base64url key, one time in 64) is the flag's value.
   */
  override parseOptions(argv: string[]) {
    const end = argv.indexOf('--');
    (end < 0 ? argv : argv.slice(0, end)).forEach((arg, i) => {
      const option = this.options.find((o) => o.long === arg);
      if (option?.required && argv[i + 1]?.startsWith('--')) {
        this.error(`error: ${arg} needs a value (one starting with -- is written ${arg}=--...)`, {
          exitCode: 2,
          code: 'receipts.missingValue',
        });
      }
    });
    return super.parseOptions(argv);
  }
}

function option(name: string, flag: FlagHelp): Option {
  const state = flag.required ? 'required' : `default: ${flag.default ?? 'none'}`;
  const label = flag.value ? `--${name} <${flag.value}>` : `--${name}`;
  const option = new Option(label, `${flag.text} (${state})`);
  if (!flag.repeatable) return option;
  return option.argParser((value: string, previous: string[] | undefined) => [
    ...(previous ?? []),
    value,
  ]);
}

/** The flags commander parsed for `cmd`, by their names on the command line. */
function parsedFlags(cmd: Command): ParsedFlags {
  const names = cmd.options.map((o) => [(o.long ?? '').slice(2), o.attributeName()] as const);
  return new ParsedFlags(
    new Map(names.map(([name, key]) => [name, cmd.getOptionValue(key)])),
    new Set(names.filter(([, key]) => cmd.getOptionValueSource(key) === 'cli').map(([n]) => n)),
  );
}

/** Runs the command named `name` with what commander parsed for it. */
export type Execute = (name: string, flags: ParsedFlags, operands: string[]) => Promise<void>;

function addCommand(parent: Command, name: string, help: CommandHelp, execute: Execute): void {
  const leaf = parent.command(name.split(' ').at(-1) as string);
  leaf.summary(help.summary).description(help.summary);
  const rest = help.usage.slice(name.length + 1);
  if (rest) leaf.usage(rest);
  for (const [flag, text] of Object.entries(help.flags)) leaf.addOption(option(flag, text));
  if (help.store) leaf.addOption(option('init', INIT_FLAG));
  if (help.operand) leaf.argument(help.operand);
  if (help.dashOperand) leaf.allowUnknownOption();
  leaf.showHelpAfterError(
    `run \`receipts ${name} --help\` for every flag and an example\nusage: receipts ${help.usage}`,
  );
  leaf.addHelpText(
    'after',
    `\nExample:\n  ${help.example}${help.store ? `\n\n${STORE_NOTE}` : ''}`,
  );
  leaf.action(() => execute(name, parsedFlags(leaf), leaf.args));
}

function group(program: Command, name: string): Command {
  const existing = program.commands.find((c) => c.name() === name);
  if (existing) return existing;
  return program
    .command(name)
    .helpCommand(false)
    .description(GROUP_SUMMARY[name] ?? '')
    .showHelpAfterError(`run \`receipts ${name} --help\` for its commands`)
    .addHelpText('after', `\nreceipts ${name} <command> --help shows every flag and an example.`);
}

/** Cuts every quoted word in commander's message to MAX_QUOTED characters. */
function cutQuoted(message: string): string {
  return message.replace(
    new RegExp(`'([^'\\n]{${MAX_QUOTED}})[^'\\n]+'`, 'g'),
    (_, kept: string) => `'${kept}...'`,
  );
}

/**
 * The `receipts` program, writing to `io`: help to `out`, errors to `err`, and never exiting the
 * process (a CommanderError is thrown instead, for runCli to turn into an exit code).
 */
export function buildProgram(io: CliIo, version: string, execute: Execute): Command {
  const line = (write: (line: string) => void) => (text: string) => write(text.replace(/\n$/, ''));
  const program = new ReceiptsCommand('receipts')
    .description("the verification receipt service's command line")
    .version(`receipts ${version}`, '-v, --version', 'print the version')
    .helpCommand(false)
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: line(io.out),
      writeErr: line(io.err),
      outputError: (message, write) => write(cutQuoted(message)),
    })
    .showHelpAfterError('run `receipts --help` for every command')
    .addHelpText('after', OVERVIEW_NOTES);
  for (const [name, help] of Object.entries(HELP)) {
    const groupName = name.split(' ')[0] as string;
    addCommand(name === groupName ? program : group(program, groupName), name, help, execute);
  }
  // listed and suggested here; runCli hands `receipts verify` to the verifier before parsing
  program
    .command('verify')
    .summary(VERIFY_HELP.summary)
    .usage(VERIFY_HELP.usage.slice('verify '.length));
  return program;
}
