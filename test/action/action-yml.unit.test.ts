import fs from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

/** The composite action's metadata: well-formed, documented, and injection-safe. */

interface Metadata {
  name: string;
  description: string;
  branding?: { icon: string; color: string };
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description?: string; value?: string }>;
  runs: {
    using: string;
    steps: { id?: string; run?: string; shell?: string; env?: Record<string, string> }[];
  };
}

const text = fs.readFileSync(new URL('../../action/action.yml', import.meta.url), 'utf8');
const action = load(text) as Metadata;

describe('action/action.yml', () => {
  it('is a documented composite action', () => {
    expect(action.name).toBeTruthy();
    expect(action.description).toBeTruthy();
    expect(action.branding).toMatchObject({ icon: expect.any(String), color: expect.any(String) });
    expect(action.runs.using).toBe('composite');
    for (const [name, spec] of [
      ...Object.entries(action.inputs),
      ...Object.entries(action.outputs),
    ]) {
      expect(spec.description?.trim(), name).toBeTruthy();
    }
  });

  it('declares the inputs, with api-url and api-key required', () => {
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining([
        'api-url',
        'api-key',
        'fail-on',
        'subject-kind',
        'summary',
        'details-url',
      ]),
    );
    expect(action.inputs['api-url']?.required).toBe(true);
    expect(action.inputs['api-key']?.required).toBe(true);
    expect(action.inputs['api-key']?.default).toBeUndefined();
    expect(action.inputs['fail-on']?.default).toBe('failure');
    expect(action.inputs['subject-kind']?.default).toBe('workflow_run');
  });

  it('maps every output to an output of a step that exists', () => {
    const stepIds = new Set(action.runs.steps.map((step) => step.id));
    expect(Object.keys(action.outputs).sort()).toEqual(
      [
        'conclusion',
        'receipt-id',
        'receipt-status',
        'receipt-url',
        'bundle-path',
        'attestation-path',
      ].sort(),
    );
    for (const [name, spec] of Object.entries(action.outputs)) {
      const match = /^\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) \}\}$/.exec(spec.value ?? '');
      expect(match, name).not.toBeNull();
      expect(stepIds.has(match?.[1])).toBe(true);
      expect(match?.[2]).toBe(name);
    }
  });

  it('passes every input through env, never as an expression in the shell text', () => {
    const steps = action.runs.steps.filter((step) => step.run !== undefined);
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      expect(step.run).not.toContain('${{');
      expect(step.shell).toBeTruthy();
    }
    const env = Object.assign({}, ...steps.map((step) => step.env ?? {})) as Record<string, string>;
    for (const name of Object.keys(action.inputs)) {
      const variable = `INPUT_${name.toUpperCase().replaceAll('-', '_')}`;
      expect(env[variable], variable).toBe(`\${{ inputs.${name} }}`);
    }
    expect(steps.map((step) => step.run?.trim())).toContain(
      'node "$GITHUB_ACTION_PATH/receipt.mjs"',
    );
  });
});

describe('action/README.md', () => {
  const readme = fs.readFileSync(new URL('../../action/README.md', import.meta.url), 'utf8');

  /** Documents named in prose (outside code blocks) that are not the target of a link. */
  function unlinkedDocuments(markdown: string): string[] {
    const prose = markdown
      .replace(/^```[\s\S]*?^```/gm, '')
      .replace(/\[[^\]\n]*\]\([^)\s]+\)/g, '');
    return [...prose.matchAll(/(?<![\w/-])(?:[\w.-]+\/)*[\w.-]+\.md\b|\bdocs\/[\w./-]+/g)].map(
      (m) => m[0],
    );
  }

  it('links every document it cites', () => {
    expect(unlinkedDocuments('See the service docs/checks.md.')).toEqual(['docs/checks.md']);
    expect(
      unlinkedDocuments('See [checks](../docs/checks.md).\n```sh\n# docs/x.md\n```\n'),
    ).toEqual([]);
    expect(unlinkedDocuments(readme)).toEqual([]);
  });
});
