import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { main, USAGE } from '../../src/cli/main.js';
import { OPTIONS } from '../../src/cli/options.js';

/**
 * The command line on recorded fixtures, in process: the --json object matches its published
 * schema in every outcome, and the help names every option the parser accepts.
 */
const fixtures = path.join(import.meta.dirname, '../fixtures');
const at = (name: string) => path.join(fixtures, name);
const schema = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, '../../verify-result.schema.json'), 'utf8'),
);
const validate = new Ajv2020.default({ strict: false }).compile(schema);

/** bundle.json with one changed character in the receipt: not authentic. */
function tampered(): string {
  const bundle = JSON.parse(fs.readFileSync(at('bundle.json'), 'utf8'));
  bundle.receipt.policyProfile = `${String(bundle.receipt.policyProfile)}x`;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verify-main-')), 'bundle.json');
  fs.writeFileSync(file, JSON.stringify(bundle));
  return file;
}

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('receipt-verify --json', () => {
  it('prints one object that matches verify-result.schema.json, whatever the outcome', async () => {
    const cases: [string[], number][] = [
      [[at('receipt.pdf'), '--jwks', at('jwks.json'), '--offline'], 0],
      [[at('receipt.pdf'), '--jwks', at('jwks.json')], 3],
      [[at('bundle-block.json'), '--jwks', at('jwks.json')], 3],
      [[at('bundle.json'), '--jwks', at('jwks.json'), '--status', at('status-active.json')], 3],
      [[at('jwks.json'), '--jwks', at('jwks.json')], 2],
      [[at('bundle.json'), '--log-policy', at('log.policy'), '--offline'], 0],
      [[at('bundle.json'), '--insecure-ignore-trust', '--offline'], 0],
      [[tampered(), '--jwks', at('jwks.json'), '--offline'], 1],
    ];
    for (const [args, code] of cases) {
      const res = await run(...args, '--json');
      expect(res.code, `${args.join(' ')}: ${res.out}`).toBe(code);
      const report = JSON.parse(res.out);
      expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
      expect(report.exitCode).toBe(code);
    }
  });

  it('completes a bundle with a .tlog-proof given next to it', async () => {
    const res = await run(
      at('bundle-size3.json'),
      at('receipt.tlog-proof'),
      '--jwks',
      at('jwks.json'),
      '--offline',
    );
    expect(res.code, res.out).toBe(0);
    expect(res.out).toMatch(/^PASS {2}log-inclusion +leaf 1 is in the tree of 5/m);
  });
});

describe('receipt-verify --help', () => {
  it('lists every option the parser accepts, and exits 0', async () => {
    for (const name of Object.keys(OPTIONS)) expect(USAGE, name).toContain(`--${name}`);
    const res = await run('--help');
    expect(res.code).toBe(0);
    expect(res.out).toBe(USAGE);
  });

  it('a usage error is one line and a pointer to --help, exit 2', async () => {
    const res = await run(at('bundle.json'), '--key');
    expect(res.code).toBe(2);
    expect(res.err.split('\n')).toHaveLength(2);
    expect(res.err).toMatch(/^error: /);
    // after `npx` the bin `receipt-verify` is not on PATH: the pointer names the package
    expect(res.err).toContain('npx @verification-receipts/verify --help');
  });

  it('groups --json and --help under Output, names a schema the package ships, points to the glossary', async () => {
    const groups = USAGE.split(/\n\n(?=[A-Z][^\n]*:\n)/);
    const group = (title: string) => groups.find((g) => g.startsWith(title)) ?? '';
    expect(group('CI receipts')).not.toMatch(/--json|--help/);
    expect(group('Output:')).toMatch(/--json[\s\S]*--help, -h/);
    const schemaFile = /(\S+\.schema\.json)/.exec(group('Output:'))?.[1] ?? '';
    const pkg = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8'),
    );
    expect(pkg.files).toContain(schemaFile);
    expect(fs.existsSync(path.join(import.meta.dirname, '../..', schemaFile))).toBe(true);
    // after `npx` there is no clone: the glossary ships in the package (its prepack copies it)
    expect(USAGE).toContain('GLOSSARY.md in this package');
    expect(pkg.files).toContain('GLOSSARY.md');
    expect(pkg.scripts.prepack).toContain("copyFileSync('../../docs/glossary.md', 'GLOSSARY.md')");
    expect(fs.existsSync(path.join(import.meta.dirname, '../../../../docs/glossary.md'))).toBe(
      true,
    );
  });
});
