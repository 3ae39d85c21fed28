import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPTIONS as VERIFY_OPTIONS } from '../../packages/verify/src/cli/options.js';
import { HELP } from '../../src/cli/help.js';
import { COMMANDS } from '../../src/cli/run.js';
import { runCaptured } from '../helpers/cli.js';

/**
 * `--help` on every command, as commander prints it from the command's declaration: its usage
 * line, a sentence, every flag (with a sentence and its default, or "required") and an example
 * that uses only those flags. Commander parses the same declaration, so a flag the help does not
 * list is an unknown flag, not a silent gap.
 */

const cli = (...argv: string[]) => runCaptured(argv);
const names = Object.keys(COMMANDS);

/**
 * The entries of a help section (`Options:`), one per item: commander wraps a long description
 * onto indented lines, joined here to the item they continue.
 */
function section(out: string, heading: string): string[] {
  const lines = out.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === '') break;
    if (/^ {2}\S/.test(line)) items.push(line.trim());
    else items[items.length - 1] += ` ${line.trim()}`;
  }
  return items;
}

describe('CLI help', () => {
  it('every command has its declaration and every declaration a command', () => {
    expect(names.length).toBeGreaterThan(20);
    expect(new Set(names)).toEqual(new Set(Object.keys(HELP)));
  });

  it.each(names)(
    '%s --help: usage, a sentence, every flag with its default, an example',
    async (name) => {
      const help = HELP[name];
      const res = await cli(...name.split(' '), '--help');
      expect(res.code, res.err).toBe(0);
      const lines = res.out.split('\n');
      expect(lines[0]).toBe(
        `Usage: receipts ${help?.usage}${help?.usage === name ? ' [options]' : ''}`,
      );
      expect(lines[2]).toMatch(/^[A-Z].{20,}/);
      const options = section(res.out, 'Options:');
      const declared = [...Object.keys(help?.flags ?? {}), ...(help?.store ? ['init'] : [])];
      for (const flag of declared) {
        const item = options.find((o) => o.startsWith(`--${flag} `));
        expect(item, `--${flag} of ${name}`).toMatch(
          / {2}[a-z"'].{10,} \((required|default: .+)\)$/,
        );
      }
      expect(options.filter((o) => o.startsWith('--'))).toHaveLength(declared.length);
      const example = lines[lines.indexOf('Example:') + 1] ?? '';
      expect(example).toContain(`receipts ${name}`);
      for (const used of example.match(/ --[a-z-]+/g) ?? []) {
        expect(declared, `${used} in the example of ${name}`).toContain(used.slice(3));
      }
    },
  );

  it('tenants policy --help names --ci-profile, its values and its default', async () => {
    const res = await cli('tenants', 'policy', '--help');
    expect(section(res.out, 'Options:')).toContainEqual(
      expect.stringMatching(/^--ci-profile <ID> +ci-provenance-v1, ci-provenance-v2, or default/),
    );
  });

  it('receipts help CMD is CMD --help; a group lists its commands; no command prints the overview', async () => {
    expect(await cli('help', 'keys', 'create')).toEqual(await cli('keys', 'create', '--help'));
    const group = await cli('keys', '--help');
    expect(group.code).toBe(0);
    expect(section(group.out, 'Commands:').map((c) => c.split('  ')[0])).toEqual([
      'keys create',
      'keys list',
      'keys revoke',
    ]);
    // every command by its full name with the start of its sentence
    const overview = await cli();
    expect(overview.code).toBe(0);
    const listed = section(overview.out, 'Commands:');
    for (const name of [...names, 'verify']) {
      const sentence = name === 'verify' ? 'Checks a bundle' : HELP[name]?.summary.slice(0, 20);
      expect(listed, name).toContainEqual(expect.stringMatching(new RegExp(`^${name} +`)));
      expect(listed.find((c) => c.startsWith(`${name} `))).toContain(sentence);
    }
  });

  it('a group without its command prints its commands on stderr, exit 2', async () => {
    const res = await cli('signing-keys');
    expect(res.code).toBe(2);
    expect(res.out).toBe('');
    expect(res.err).toContain('signing-keys rotate');
    expect(res.err).toContain('signing-keys endorse');
  });

  it("receipts verify --help is the verifier package's, listing every option it parses", async () => {
    const res = await cli('verify', '--help');
    expect(res.code).toBe(0);
    for (const option of Object.keys(VERIFY_OPTIONS)) expect(res.out).toContain(`--${option}`);
  });

  it('the help and error shown in docs/cli.md are what the CLI prints', async () => {
    const doc = fs.readFileSync('docs/cli.md', 'utf8');
    const blocks = [...doc.matchAll(/```console\n\$ receipts (.+)\n([\s\S]*?)\n```\n/g)];
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const [, command = '', shown = ''] of blocks) {
      const res = await cli(...command.split(' '));
      expect([res.out, res.err].filter(Boolean).join('\n'), command).toBe(shown.trimEnd());
    }
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(await cli('--version')).toMatchObject({ code: 0, out: `receipts ${version}` });
  });
});
