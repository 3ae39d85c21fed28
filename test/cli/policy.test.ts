import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { runCaptured } from '../helpers/cli.js';

/**
 * `receipts policy check [FILE]` (FILE defaults to .github/receipts.yml): exit 0 valid, 1 invalid
 * (each problem a line), 2 unreadable.
 */
const dir = tempDir('policy-check-');
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};
const env = { DATA_DIR: path.join(dir, 'no-store') };

describe('receipts policy check', () => {
  it('a valid file: exit 0, and what each environment accepts', async () => {
    const file = write('ok.yml', 'deployments:\n  production:\n    identity: proven\n');
    const res = await runCaptured(['policy', 'check', file], env);
    expect(res.code, res.err).toBe(0);
    expect(res.out.split('\n')).toEqual([
      `${file}: valid`,
      expect.stringMatching(/^ {2}production: an ALLOW receipt of the commit issued by the App/),
    ]);
    expect(fs.existsSync(env.DATA_DIR)).toBe(false); // no store is opened
  });

  it('an invalid file: exit 1, one line per problem, and what it would do', async () => {
    const file = write('bad.yml', 'deployments:\n  production:\n    wait: soon\n    extra: 1\n');
    const res = await runCaptured(['policy', 'check', file], env);
    expect(res.code).toBe(1);
    expect(res.out.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${file}: \`deployments\\.production\\.wait\`: `)),
      `${file}: \`deployments.production\`: unknown key \`extra\``,
    ]);
    expect(res.err).toContain('the App would reject every gated deployment');
  });

  it('no such file: exit 2, naming it', async () => {
    const res = await runCaptured(['policy', 'check', path.join(dir, 'missing.yml')], env);
    expect(res.code).toBe(2);
    expect(res.err).toContain(`cannot read ${path.join(dir, 'missing.yml')}`);
  });
});
