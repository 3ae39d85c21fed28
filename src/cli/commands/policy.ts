import fs from 'node:fs';
import { DEFAULT_TRUSTED_EVENTS } from '../../receipts/checks/ci.js';
import {
  checkRepoConfigText,
  gatedEnvironments,
  MAX_REPO_CONFIG_BYTES,
} from '../../github/policy-check.js';
import { REPO_CONFIG_PATH } from '../../github/repo-config.js';
import { CliError, type Command } from '../context.js';

/**
 * `receipts policy check [FILE]`: validates a `.github/receipts.yml` offline, as the App will
 * read it. Exit 0: valid (with what each gated environment accepts); 1: invalid, one line per
 * problem with its path; 2: the file cannot be read.
 */
export const policyCheckCommand: Command = async (ctx) => {
  const file = ctx.operands[0] ?? REPO_CONFIG_PATH;
  const text = readPolicyFile(file);
  const trusted = ctx.config.ciTrustedEvents ?? DEFAULT_TRUSTED_EVENTS;
  const result = checkRepoConfigText(text, trusted);
  if (!result.ok) {
    for (const problem of result.problems) ctx.out(`${file}: ${problem}`);
    throw new CliError(
      `${file} is invalid (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}): ` +
        'the App would reject every gated deployment of this repository with it',
      1,
    );
  }
  for (const note of result.notes) ctx.out(`${file}: note: ${note}`);
  ctx.out(`${file}: valid`);
  for (const line of gatedEnvironments(result.config)) ctx.out(`  ${line}`);
};

function readPolicyFile(file: string): string {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    throw new CliError(`cannot read ${file}`, 2, 'give the path of a .github/receipts.yml');
  }
  if (size > MAX_REPO_CONFIG_BYTES) {
    throw new CliError(`${file} is larger than ${MAX_REPO_CONFIG_BYTES} bytes`, 1);
  }
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`cannot read ${file}`, 2);
  }
}
