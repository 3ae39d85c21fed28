import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parseDockerignore } from './dockerignore-matcher.js';
import {
  keyValues,
  parseDockerfile,
  stagesOf,
  type Instruction,
  type Stage,
} from './dockerfile-parser.js';

/** The repository's Dockerfile, .dockerignore and package.json, parsed once. */

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

export const instructions = parseDockerfile(read('Dockerfile'));
export const stages = stagesOf(instructions);
export const final = stages.at(-1) as Stage;
export const ignoreRules = parseDockerignore(read('.dockerignore'));
export const pkg = JSON.parse(read('package.json')) as {
  license: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

export const inStage = (stage: Stage, keyword: string): Instruction[] =>
  stage.instructions.filter((i) => i.keyword === keyword);
export const lastIn = (stage: Stage, keyword: string): Instruction | undefined =>
  inStage(stage, keyword).at(-1);
export const stageEnv = (stage: Stage) =>
  Object.assign({}, ...inStage(stage, 'ENV').map(keyValues));
export const workdir = (stage: Stage) => lastIn(stage, 'WORKDIR')?.args.trim() ?? '/';

/** The stage the final one copies dist/ from. */
export const buildStage = (): Stage => {
  const from = inStage(final, 'COPY').find((c) => c.flags.from !== undefined)?.flags.from;
  const stage = stages.find((s) => s.name === from) ?? stages[Number(from)];
  if (!stage || stage === final) throw new Error(`no build stage named ${from}`);
  return stage;
};

/** The final stage's ENTRYPOINT, `["/bin/sh", "-c", script, name]`. */
export function entrypoint(): { script: string; name: string } {
  const json = lastIn(final, 'ENTRYPOINT')?.json;
  expect(json, 'ENTRYPOINT must be valid JSON (else Docker runs it as shell form)').toBeDefined();
  const [shell, dashC, script, name] = json ?? [];
  expect([shell, dashC]).toEqual(['/bin/sh', '-c']);
  expect(json).toHaveLength(4);
  return { script: script ?? '', name: name ?? '' };
}

/** The final stage's CMD in exec form. */
export const defaultCmd = () => lastIn(final, 'CMD')?.json ?? [];
