import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONS as VERIFY_OPTIONS } from '../../packages/verify/src/cli/options.js';
import { HelpRequested, type CliContext } from '../../src/cli/context.js';
import { LOG_VERIFY_OPTIONS } from '../../src/cli/commands/log.js';
import { commandHelp, HELP } from '../../src/cli/help.js';
import { COMMANDS } from '../../src/cli/run.js';
import { loadConfig } from '../../src/config.js';
import { runCaptured } from '../helpers/cli.js';

/**
 * `--help` on every command: its usage, a sentence, every flag its parser takes (with a
 * sentence and its default, or "required") and an example that uses only those flags. The flag
 * list is each command's own parser options, so a flag cannot be added without its help.
 */

const cli = (...argv: string[]) => runCaptured(argv);

/** The option names a command's parser takes, as the parser itself declares them. */
async function parserOptions(name: string): Promise<readonly string[]> {
  if (name === 'log verify') return Object.keys(LOG_VERIFY_OPTIONS);
  const command = COMMANDS[name];
  if (!command) throw new Error(`no command ${name}`);
  const ctx = {
    out: () => undefined,
    err: () => undefined,
    config: loadConfig({ DATA_DIR: '/nonexistent/receipts-help' }),
    env: {},
    args: [],
    help: true,
  } satisfies CliContext;
  try {
    await command(ctx);
  } catch (err) {
    if (err instanceof HelpRequested) return err.options;
    throw err;
  }
  throw new Error(`${name} ran instead of asking for help`);
}

const names = [...Object.keys(COMMANDS), 'log verify'];

describe('CLI help', () => {
  it('every command has help and every help entry a command', () => {
    expect(names.length).toBeGreaterThan(20);
    expect(new Set(names)).toEqual(new Set(Object.keys(HELP)));
  });

  it.each(names)(
    '%s --help lists every flag its parser takes, with a sentence and default',
    async (name) => {
      const options = await parserOptions(name);
      const res = await cli(...name.split(' '), '--help');
      expect(res.code, res.err).toBe(0);
      const lines = res.out.split('\n');
      expect(lines[0]).toBe(`usage: receipts ${HELP[name]?.usage}`);
      expect(lines[2]).toMatch(/^[A-Z].{20,}\.$/);
      for (const option of options) {
        const line = lines.find((l) => l.startsWith(`  --${option} `) || l === `  --${option}`);
        expect(line, `--${option} of ${name}`).toMatch(
          / {2}[a-z"'].{10,} \((required|default: .+)\)$/,
        );
      }
      const example = lines[lines.indexOf('example:') + 1] ?? '';
      expect(example.startsWith(`  receipts ${name}`) || example.includes(`receipts ${name}`)).toBe(
        true,
      );
      for (const used of example.match(/ --[a-z-]+/g) ?? []) {
        expect([...options, 'init'], `${used} in the example of ${name}`).toContain(used.slice(3));
      }
    },
  );

  it('a parser option without help is an error, not a silent gap', () => {
    expect(() => commandHelp('keys create', ['tenant', 'colour'])).toThrow(/no help for --colour/);
  });

  it('tenants policy --help names --ci-profile, its values and its default', async () => {
    const res = await cli('tenants', 'policy', '--help');
    expect(res.out).toMatch(/--ci-profile ID +ci-provenance-v1, ci-provenance-v2, or default/);
  });

  it('receipts help CMD is CMD --help; a group lists its commands; no command prints the overview', async () => {
    expect(await cli('help', 'keys', 'create')).toEqual(await cli('keys', 'create', '--help'));
    const group = await cli('keys', '--help');
    expect(group.code).toBe(0);
    expect(group.out).toContain('keys create --tenant T');
    expect(group.out).toContain('keys revoke ID');
    const overview = await cli();
    expect(overview.code).toBe(0);
    for (const name of names) expect(overview.out).toContain(`  ${HELP[name]?.usage}`);
  });

  it("receipts verify --help is the verifier package's, listing every option it parses", async () => {
    const res = await cli('verify', '--help');
    expect(res.code).toBe(0);
    for (const option of Object.keys(VERIFY_OPTIONS)) expect(res.out).toContain(`--${option}`);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(await cli('--version')).toMatchObject({ code: 0, out: `receipts ${version}` });
  });
});
