/**
 * The flags commander parsed for one command, by their names on the command line
 * (`public-key`, not commander's `publicKey`). Asking for a flag the command does not declare is
 * a programming error, so a misspelt name in a command fails its first test run.
 */
export class ParsedFlags {
  constructor(
    private readonly values: ReadonlyMap<string, unknown>,
    private readonly fromCommandLine: ReadonlySet<string>,
  ) {}

  /** A flag with a value: the value given, or undefined. */
  string(name: string): string | undefined {
    const value = this.value(name);
    if (value !== undefined && typeof value !== 'string') {
      throw new Error(`--${name} is not a flag with one value`);
    }
    return value;
  }

  /** A switch: whether it was given. */
  boolean(name: string): boolean {
    return this.value(name) === true;
  }

  /** A repeatable flag: every value given, in order. */
  list(name: string): string[] {
    const value = this.value(name);
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new Error(`--${name} is not a repeatable flag`);
    return value as string[];
  }

  /** Whether the flag was on the command line (false for a flag the command does not take). */
  given(name: string): boolean {
    return this.fromCommandLine.has(name);
  }

  private value(name: string): unknown {
    if (!this.values.has(name)) throw new Error(`the command declares no flag --${name}`);
    return this.values.get(name);
  }
}
