import fs from 'node:fs';
import { describeHttpError, postWithRetry } from './client.mjs';
import { ActionError } from './errors.mjs';

/** The service refuses larger files, as GitHub's App does: a policy is a few hundred bytes. */
export const MAX_POLICY_BYTES = 64 * 1024;

/**
 * @typedef {object} PolicyCheck The service's answer (POST /api/v1/repository-policy/check).
 * @property {boolean} valid
 * @property {string[]} problems One line per problem, with its path in the file.
 * @property {string[]} notes
 * @property {string[]} environments For a valid file: which receipts can meet each gate.
 */

/**
 * Check a `.github/receipts.yml` with the service's copy of the GitHub App's parser and schema:
 * the action carries no dependencies, so it asks the service rather than judging the file itself.
 *
 * @param {object} options
 * @param {string} options.file Path of the file, relative to the workspace.
 * @param {string} options.apiUrl
 * @param {string} options.apiKey
 * @param {number} options.timeoutMs
 * @param {number} options.maxAttempts
 * @param {(line: string) => void} options.log
 * @returns {Promise<PolicyCheck>}
 */
export async function checkPolicyFile(options) {
  const text = readPolicy(options.file);
  const response = await postWithRetry({
    url: `${options.apiUrl}/api/v1/repository-policy/check`,
    apiKey: options.apiKey,
    body: { text },
    timeoutMs: options.timeoutMs,
    maxAttempts: options.maxAttempts,
    log: options.log,
  });
  if (response.status !== 200) throw new ActionError(describeHttpError(response));
  const answer = response.json;
  const lists = ['problems', 'notes', 'environments'];
  if (
    typeof answer?.valid !== 'boolean' ||
    lists.some((name) => !Array.isArray(answer[name]) || answer[name].some(notText))
  ) {
    throw new ActionError('unexpected answer from the receipt service to the policy check');
  }
  return answer;
}

/** @param {unknown} value */
const notText = (value) => typeof value !== 'string';

/**
 * @param {string} file
 * @returns {string}
 */
function readPolicy(file) {
  let size;
  try {
    size = fs.statSync(file).size;
  } catch {
    throw new ActionError(
      `policy-file ${file} cannot be read: check out the repository first (actions/checkout)`,
    );
  }
  if (size > MAX_POLICY_BYTES) {
    throw new ActionError(`policy-file ${file} is larger than ${MAX_POLICY_BYTES} bytes`);
  }
  return fs.readFileSync(file, 'utf8');
}
