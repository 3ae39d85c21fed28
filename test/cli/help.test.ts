import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../src/cli/run.js';
import { runCaptured } from '../helpers/cli.js';

/** `--help` on every command and subcommand, `--version`, and usage errors that show the way. */

const cli = (...argv: string[]) => runCaptured(argv);

/** Every `group sub` (or single command) the usage lists. */
function commands(): string[][] {
  return USAGE.split('\n')
    .filter((line) => /^ {2}[a-z]/.test(line))
    .map((line) => line.trim().split(/\s+/))
    .map(([group = '', sub = '']) => (/^[a-z-]+$/.test(sub) ? [group, sub] : [group]));
}

describe('CLI help', () => {
  it('every command listed in the usage answers --help with its own usage, exit 0', async () => {
    const all = commands();
    expect(all.length).toBeGreaterThan(15);
    for (const command of all) {
      const res = await cli(...command, '--help');
      expect(res.code, command.join(' ')).toBe(0);
      expect(res.out, command.join(' ')).toContain(command.join(' '));
    }
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(await cli('--version')).toMatchObject({ code: 0, out: `receipts ${version}` });
  });

  it('an unknown option says so and shows what the command takes (exit 2)', async () => {
    const res = await cli('seal', 'create', '--bogus');
    expect(res.code).toBe(2);
    expect(res.err).toContain("Unknown option '--bogus'");
    expect(res.err).toContain('seal create --notary-id ID');
  });
});
