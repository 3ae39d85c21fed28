import type { FlagHelp } from './help-types.js';

/** Flag help used by many commands. */
export const json = (what: string): FlagHelp => ({
  text: `print ${what} as JSON instead of text`,
  default: 'text',
});
export const tenant = (text: string, dflt?: string): FlagHelp =>
  dflt ? { value: 'T', text, default: dflt } : { value: 'T', text, required: true };
