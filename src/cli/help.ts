/**
 * What each `receipts` command declares: its usage line, one sentence on what it does, every
 * flag with a sentence and its default (or that it is required), and one example. The parser and
 * the help are built from the same entries (program.ts), so a flag has its help line or does not
 * exist.
 */
import type { ParsedFlags } from './flags.js';
import type { CommandHelp, FlagHelp } from './help-types.js';
export type { CommandHelp, FlagHelp } from './help-types.js';
import { OPERATION_HELP } from './help-operations.js';
import { RECORD_HELP } from './help-records.js';

export const INIT_FLAG: FlagHelp = {
  text: 'create the embedded store in DATA_DIR when none exists there',
  default: 'refuse, naming DATA_DIR',
};

/** Every command's declaration, by its full name (`keys create`, `demo`), in the order listed. */
export const HELP: Record<string, CommandHelp> = { ...RECORD_HELP, ...OPERATION_HELP };

/** `receipts verify` is the verifier package's own command line, with its own --help. */
export const VERIFY_HELP = {
  usage:
    'verify FILE (--jwks FILE|URL | --key FILE | --online URL | --log-policy FILE) [--status FILE | --offline] [--artifact FILE] [--json]',
  summary:
    'Checks a bundle or PDF receipt offline (no store, no service); see receipts verify --help.',
};

/** The sentence for each group of commands (`receipts keys --help`). */
export const GROUP_SUMMARY: Record<string, string> = {
  keys: 'API keys: create one (its secret printed once), list them, revoke one.',
  notaries: 'The notaries a tenant accepts seals and signing certificates from.',
  issuers: "The issuers whose Ed25519 keys may revoke a tenant's receipts.",
  tenants: "A tenant's policy: CI repositories and profile, notary trust anchors.",
  seal: 'SIM-ECDSA-v1 notary seals, for tests and demos.',
  policy: "A repository's .github/receipts.yml, checked offline.",
  anchor: 'Sealing pending receipts and revocations into a signed checkpoint.',
  log: 'The transparency log: its identity, and monitoring a served log.',
  'signing-keys': "The service's Ed25519 signing keys: rotate, list, endorse.",
};

/** Whether `command` run with `flags` changes the store (its output then names the store). */
export function writesStore(command: string, flags: ParsedFlags): boolean {
  const writes = HELP[command]?.writes;
  return typeof writes === 'function' ? writes(flags) : writes === true;
}
