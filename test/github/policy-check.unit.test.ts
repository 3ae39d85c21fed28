import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkRepoConfigText,
  gatedEnvironments,
  MAX_REPO_CONFIG_BYTES,
} from '../../src/github/policy-check.js';

/**
 * `.github/receipts.yml` checked offline with the App's own schema: one line per problem with
 * its path, and in words what each gated environment accepts. The documentation's examples are
 * checked the same way, so none of them would reject a deployment.
 */
const TRUSTED = ['push'];
const check = (text: string) => checkRepoConfigText(text, TRUSTED);

describe('checkRepoConfigText', () => {
  it('a valid file: what each environment accepts, the OIDC requirement said plainly', () => {
    const result = check(
      [
        'deployments:',
        '  production:',
        '    identity: oidc',
        '    denySelfHostedRunners: true',
        '    maxAge: 2h',
        "  '*':",
        '    allowComplianceGap: true',
        '    wait: 30m',
      ].join('\n'),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [production, rest] = gatedEnvironments(result.config);
    expect(production).toMatch(/^production: an ALLOW receipt of the commit issued by the/);
    expect(production).toContain("the App's own receipts never meet it");
    expect(production).toContain('GitHub-hosted runners; at most 2h old; waits 60m');
    expect(rest).toMatch(/^any other environment: an ALLOW or FLAG receipt .* issued by the App/);
    expect(rest).toContain('waits 30m');
  });

  it('a workflow condition also needs the OIDC token (only the token names the workflow)', () => {
    const result = check('deployments:\n  prod:\n    workflow: .github/workflows/release.yml\n');
    expect(result.ok && gatedEnvironments(result.config)[0]).toContain('never meet it');
  });

  it('every problem on its own line, with its path', () => {
    const result = check(
      'trustedEvent: [push]\ndeployments:\n  production:\n    identity: sometimes\n    maxAge: 2 hours\n',
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(/^`deployments\.production\.identity`: .*"oidc"\|"proven"/),
        expect.stringMatching(/^`deployments\.production\.maxAge`: must be a number followed by/),
        'unknown key `trustedEvent`',
      ],
    });
  });

  it('an unknown key names the mapping it is in; a value of the wrong kind says both kinds', () => {
    const result = check(
      'deployments:\n  production:\n    requireDecision: ALLOW\n  staging: 3\nworkflows: release\n',
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        '`workflows`: expected a list, found a text',
        '`deployments.production`: unknown key `requireDecision`',
        '`deployments.staging`: expected a mapping (keys and values), found a number',
      ],
    });
  });

  it('YAML it cannot read: the line and column', () => {
    expect(check('deployments:\n  prod: [\n')).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^not valid YAML \(line \d+, column \d+\): /)],
    });
    expect(check('- push\n- release\n')).toEqual({
      ok: false,
      problems: ['not a YAML mapping (the file must hold keys and values)'],
    });
  });

  it('an empty file is valid and gates nothing; _extends is noted, not followed', () => {
    const empty = check('');
    expect(empty.ok && gatedEnvironments(empty.config)).toEqual([
      'no `deployments` entry: the App gates no deployment of this repository',
    ]);
    const extended = check('_extends: other-repo\n');
    expect(extended.ok && extended.notes).toEqual([
      expect.stringContaining('`_extends` is resolved by the App from another repository'),
    ]);
  });

  it('refuses a file larger than the bound before parsing it', () => {
    const big = `workflows: [${'a,'.repeat(MAX_REPO_CONFIG_BYTES / 2)}a]`;
    expect(check(big)).toEqual({
      ok: false,
      problems: [`the file is larger than ${MAX_REPO_CONFIG_BYTES} bytes`],
    });
  });

  it("docs/github-app.md's examples of the file are all valid", () => {
    const doc = readFileSync(new URL('../../docs/github-app.md', import.meta.url), 'utf8');
    const blocks = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1] ?? '')
      .filter((text) => /^(workflows|trustedEvents|policyProfile|deployments):/m.test(text));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) expect(check(block), block).toMatchObject({ ok: true });
  });
});
