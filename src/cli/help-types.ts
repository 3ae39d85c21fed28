/** The shape of the `receipts` command's help: one entry per command, one per flag. */

export interface FlagHelp {
  /** The value's placeholder (`T`, `FILE`); none for a boolean flag. */
  value?: string;
  text: string;
  /** What happens without the flag; a required flag says `required` instead. */
  default?: string;
  required?: true;
}

export interface CommandHelp {
  usage: string;
  summary: string;
  flags: Record<string, FlagHelp>;
  example: string;
  /** Opens the store (DATABASE_URL or DATA_DIR): takes --init. */
  store?: true;
  /** Changes the store (always, or given these arguments): its output names the store it used. */
  writes?: true | ((args: readonly string[]) => boolean);
}
