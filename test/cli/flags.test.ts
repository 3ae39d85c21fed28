import { describe, expect, it } from 'vitest';
import { CliError, flags, type CliContext } from '../../src/cli/context.js';

const ctx = (args: string[]) => ({ args }) as unknown as CliContext;
const options = { 'public-key': { type: 'string' }, json: { type: 'boolean' } } as const;

/** Flags of the operator CLI: base64url values may start with '-' (one key in 64). */
describe('CLI flags', () => {
  it('takes a value that starts with one dash as the value of a string flag', () => {
    const parsed = flags(ctx(['--public-key', '-Xy_z', 'rest']), options);
    expect(parsed.values['public-key']).toBe('-Xy_z');
    expect(parsed.positionals).toEqual(['rest']);
  });

  it('still refuses a forgotten value: a string flag followed by another flag', () => {
    expect(() => flags(ctx(['--public-key', '--json']), options)).toThrow(CliError);
    expect(() => flags(ctx(['--public-key', '--json']), options)).toThrow(
      /--public-key needs a value/,
    );
  });

  it('does not join a dash value to a boolean flag, and unknown flags are errors', () => {
    expect(() => flags(ctx(['--json', '-Xy_z']), options)).toThrow(/unknown flag -X/);
  });
});
