/** The shape of the `receipts` command's declarations: one entry per command, one per flag. */
import type { ParsedFlags } from './flags.js';

export interface FlagHelp {
  /** The value's placeholder (`T`, `FILE`); none for a boolean flag. */
  value?: string;
  text: string;
  /** What happens without the flag; a required flag says `required` instead. */
  default?: string;
  required?: true;
  /** May be given more than once; the command receives every value in order. */
  repeatable?: true;
}

export interface CommandHelp {
  usage: string;
  summary: string;
  flags: Record<string, FlagHelp>;
  /** The command's operand, in commander's notation: `<ID>` required, `[FILE]` optional. */
  operand?: string;
  /**
   * The operand is a base64url id, which starts with '-' one time in 64: such a word is taken as
   * the operand, not refused as an unknown flag.
   */
  dashOperand?: true;
  example: string;
  /** Opens the store (DATABASE_URL or DATA_DIR): takes --init. */
  store?: true;
  /** Changes the store (always, or given these flags): its output names the store it used. */
  writes?: true | ((flags: ParsedFlags) => boolean);
}
