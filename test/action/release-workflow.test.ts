import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';

/**
 * .github/workflows/release-action.yml: a version tag becomes a release whose notes give the
 * commit-pinned `uses:` line. Its step is run here in bash, with a `gh` on PATH that records its
 * arguments, under the variables GitHub sets for a tag push.
 */
interface Workflow {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, { steps: { uses?: string; run?: string; env?: Record<string, string> }[] }>;
}
const file = new URL('../../.github/workflows/release-action.yml', import.meta.url);
const workflow = load(fs.readFileSync(file, 'utf8')) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

describe('the action release workflow', () => {
  it('runs on version tags only, may only write releases, and uses no third-party action', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v[0-9]+.[0-9]+.[0-9]+'] } });
    expect(workflow.permissions).toEqual({ contents: 'write' });
    expect(steps.filter((s) => s.uses)).toEqual([]);
    // expressions reach the script only through env: a tag name cannot inject shell
    for (const step of steps) expect(step.run ?? '').not.toContain('${{');
  });

  it('publishes the release with the commit-pinned line in its notes', () => {
    const dir = tempDir('release-workflow-');
    const log = path.join(dir, 'gh-args.json');
    const gh = path.join(dir, 'gh');
    fs.writeFileSync(
      gh,
      `#!/usr/bin/env node\nrequire('fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)));\n`,
      { mode: 0o755 },
    );
    const [step] = steps;
    const sha = 'a'.repeat(40);
    const res = spawnSync('bash', ['-e', '-c', step?.run ?? ''], {
      env: {
        PATH: `${dir}:${process.env.PATH ?? ''}`,
        GH_TOKEN: 'token',
        TAG: 'v1.2.3',
        GITHUB_REPOSITORY: 'example-org/receipts',
        GITHUB_SHA: sha,
      },
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    const args = JSON.parse(fs.readFileSync(log, 'utf8')) as string[];
    expect(args.slice(0, 3)).toEqual(['release', 'create', 'v1.2.3']);
    expect(args).toContain('--verify-tag');
    const notes = args[args.indexOf('--notes') + 1];
    expect(notes).toMatch(
      new RegExp(`^\\s*uses: example-org/receipts/action@${sha} # v1\\.2\\.3$`, 'm'),
    );
  });
});
