import { ServiceError } from '../errors.js';

/** A variable the configuration refuses; the message names it and what it must be. */
export class ConfigError extends ServiceError<'config_invalid'> {
  override name = 'ConfigError';
  constructor(message: string) {
    super('config_invalid', message);
  }
}
