import { ServiceError } from '../errors.js';

/**
 * A failure the operator caused (bad flag, missing file): printed as one line without a stack
 * trace, then `hint` (what to do) when there is one. Exit code 2 is a usage error, which also
 * shows the command's usage line unless `usage` says otherwise (a log that cannot be read).
 */
export class CliError extends ServiceError<'cli_usage'> {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 2,
    readonly hint?: string,
    readonly usage = exitCode === 2,
  ) {
    super('cli_usage', message);
  }
}
