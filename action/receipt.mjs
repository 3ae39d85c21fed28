#!/usr/bin/env node
/**
 * The composite action's only step: ask the verification receipt service for a receipt for this
 * workflow run (POST /api/v1/verifications/ci), publish it as step outputs and a job summary,
 * and fail the step according to `fail-on`.
 *
 * Exit codes: 0 receipt issued and accepted by `fail-on`; 1 receipt issued but its status is
 * covered by `fail-on`, or the `policy-file` is one the GitHub App would reject (then no receipt
 * is requested); 2 no receipt (bad input, rejected request, service unreachable).
 *
 * Plain Node >= 20, no dependencies: it runs straight from the action's checkout.
 */
import process from 'node:process';
import { URL } from 'node:url';
import { postWithRetry, describeHttpError } from './lib/client.mjs';
import { ActionError } from './lib/errors.mjs';
import { readInputs } from './lib/inputs.mjs';
import { requestIdToken } from './lib/oidc.mjs';
import { saveJson, subjectDigest } from './lib/artifacts.mjs';
import { checkPolicyFile } from './lib/policy.mjs';
import os from 'node:os';
import path from 'node:path';
import {
  addMask,
  annotateFile,
  createLogger,
  errorSummary,
  failsPolicy,
  receiptSummary,
  writeOutputs,
  writeSummary,
} from './lib/report.mjs';

const EXIT_OK = 0;
const EXIT_POLICY = 1;
const EXIT_ERROR = 2;

const env = process.env;
const apiKey = env.INPUT_API_KEY?.trim() ?? '';
addMask(apiKey);
const log = createLogger([apiKey]);

try {
  process.exitCode = await run(readInputs(env));
} catch (err) {
  const message =
    err instanceof ActionError
      ? err.message
      : `unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
  log.error(message);
  writeSummary(env.GITHUB_STEP_SUMMARY, log.redact(errorSummary(message)));
  process.exitCode = EXIT_ERROR;
}

/**
 * The run this job belongs to, `<run id>/<run attempt>`: the service holds the token to it
 * whatever the externalId is.
 *
 * @param {Record<string, string | undefined>} runnerEnv
 * @returns {string | undefined}
 */
function runName(runnerEnv) {
  const name = `${runnerEnv.GITHUB_RUN_ID?.trim()}/${runnerEnv.GITHUB_RUN_ATTEMPT?.trim() || '1'}`;
  return /^[0-9]+\/[0-9]+$/.test(name) ? name : undefined;
}

/**
 * @param {import('./lib/inputs.mjs').Inputs} inputs
 * @returns {Promise<number>} The exit code.
 */
async function run(inputs) {
  const { request, apiUrl, failOn } = inputs;
  warnOnPlainHttp(apiUrl);
  if (inputs.policyFile && !(await policyIsValid(inputs))) return EXIT_POLICY;
  log.info(
    `Requesting a verification receipt for ${request.repository.fullName}@${request.headSha} ` +
      `(event ${request.provenance.eventName}, externalId ${request.externalId}) from ${apiUrl}`,
  );
  const digest = await subjectDigest(env);
  if (digest) log.info(`The receipt will record the artifact digest ${digest}`);
  const oidcToken = await identityToken(inputs);
  const response = await postWithRetry({
    oidcToken,
    subjectDigest: digest,
    run: oidcToken ? runName(env) : undefined,
    url: `${apiUrl}/api/v1/verifications/ci`,
    apiKey: inputs.apiKey,
    body: request,
    timeoutMs: inputs.timeoutMs,
    maxAttempts: inputs.maxAttempts,
    log: log.info,
  });
  const result = receiptOf(response);
  const failed = failsPolicy(result.receiptStatus, failOn);
  await publish(inputs, result, failed, Boolean(oidcToken));
  return conclude(result, failOn, failed);
}

/**
 * Checks `policy-file` as the GitHub App will read it: each problem becomes an annotation on the
 * file and a line of the job summary. An invalid file rejects every gated deployment, so the step
 * fails before asking for a receipt.
 *
 * @param {import('./lib/inputs.mjs').Inputs} inputs
 * @returns {Promise<boolean>}
 */
async function policyIsValid(inputs) {
  const file = inputs.policyFile;
  const check = await checkPolicyFile({ ...inputs, file, log: log.info });
  for (const note of check.notes) log.info(`${file}: note: ${note}`);
  if (check.valid) {
    log.info(`${file} is valid; what each gated environment accepts:`);
    for (const line of check.environments) log.info(`  ${line}`);
    return true;
  }
  for (const problem of check.problems) annotateFile(file, log.redact(problem));
  const headline =
    `${file} is invalid (${check.problems.length} problem(s)): the GitHub App would reject ` +
    'every gated deployment of this repository with it; no receipt was requested';
  log.error(headline);
  const lines = check.problems.map((problem) => `- \`${file}\`: ${problem}`);
  writeSummary(env.GITHUB_STEP_SUMMARY, log.redact(`### ❌ ${headline}\n\n${lines.join('\n')}\n`));
  return false;
}

/**
 * The run's OIDC token (masked), or undefined when the job may not ask for one.
 *
 * @param {import('./lib/inputs.mjs').Inputs} inputs
 * @returns {Promise<string | undefined>}
 */
async function identityToken(inputs) {
  const oidcToken = await requestIdToken(env, inputs.oidcAudience, inputs.timeoutMs);
  if (oidcToken) {
    addMask(oidcToken);
    log.info(
      `Sending the run's OIDC token (audience ${inputs.oidcAudience}) to prove its identity`,
    );
  } else {
    log.warning(
      'no OIDC token: the job does not grant `permissions: id-token: write`, so the service cannot ' +
        'verify who ran this workflow and the receipt will be compliance_gap (ci.identity identity_unverified)',
    );
  }
  return oidcToken;
}

/**
 * Saves the evidence files, then writes the step outputs and the job summary.
 *
 * @param {import('./lib/inputs.mjs').Inputs} inputs
 * @param {import('./lib/report.mjs').CiResult} result
 * @param {boolean} failed
 * @param {boolean} identified whether an OIDC token was sent
 */
async function publish(inputs, result, failed, identified) {
  const { apiUrl, failOn } = inputs;
  const receiptUrl = `${apiUrl}/api/v1/receipt/${encodeURIComponent(result.receiptId)}`;
  const files = await saveEvidence(apiUrl, inputs.apiKey, result.receiptId, inputs.timeoutMs);
  const written = writeOutputs(env.GITHUB_OUTPUT, {
    'receipt-id': result.receiptId,
    'receipt-status': result.receiptStatus,
    conclusion: result.conclusion,
    'receipt-url': receiptUrl,
    'bundle-path': files.bundle ?? '',
    'attestation-path': files.attestation ?? '',
  });
  if (!written) log.info('GITHUB_OUTPUT is not set: step outputs not written');
  writeSummary(
    env.GITHUB_STEP_SUMMARY,
    log.redact(receiptSummary(result, receiptUrl, failOn, failed)),
  );
  if (!identified) {
    writeSummary(
      env.GITHUB_STEP_SUMMARY,
      '_No OIDC token was sent: the job does not grant `permissions: id-token: write`, so the ' +
        'service could not verify who ran this workflow._\n',
    );
  }
}

/**
 * Logs the outcome and gives the exit code `fail-on` asks for.
 *
 * @param {import('./lib/report.mjs').CiResult} result
 * @param {import('./lib/inputs.mjs').FailOn} failOn
 * @param {boolean} failed
 * @returns {number}
 */
function conclude(result, failOn, failed) {
  log.info(
    `${result.title}: receipt ${result.receiptId}, status ${result.receiptStatus}, conclusion ${result.conclusion}`,
  );
  log.info(result.summary);
  const headline = `receipt ${result.receiptId} has status ${result.receiptStatus} (${result.title})`;
  if (failed) {
    log.error(`${headline}; failing because fail-on is ${failOn}`);
    return EXIT_POLICY;
  }
  if (result.receiptStatus === 'clean') log.notice(headline);
  else log.warning(`${headline}; not failing because fail-on is ${failOn}`);
  return EXIT_OK;
}

/**
 * The adapter response of a 2xx answer; anything else is an ActionError.
 *
 * @param {import('./lib/client.mjs').HttpAnswer} response
 * @returns {import('./lib/report.mjs').CiResult}
 */
function receiptOf(response) {
  if (response.status < 200 || response.status > 299) {
    throw new ActionError(describeHttpError(response));
  }
  const result = response.json;
  const fields = ['receiptId', 'receiptStatus', 'conclusion', 'title', 'summary'];
  if (!result || fields.some((field) => typeof result[field] !== 'string')) {
    throw new ActionError(
      `unexpected answer from the receipt service (HTTP ${response.status}): ` +
        `expected ${fields.join(', ')}`,
    );
  }
  return result;
}

/**
 * The receipt bundle and the attestation, written under RUNNER_TEMP for later steps (upload,
 * offline verification). Needs a key with the read scope; otherwise says so and goes on.
 *
 * @param {string} apiUrl
 * @param {string} apiKey
 * @param {string} receiptId
 * @param {number} timeoutMs
 * @returns {Promise<{ bundle?: string, attestation?: string }>}
 */
async function saveEvidence(apiUrl, apiKey, receiptId, timeoutMs) {
  const dir = path.join(env.RUNNER_TEMP?.trim() || os.tmpdir(), 'verification-receipt');
  const base = `${apiUrl}/api/v1/receipt/${encodeURIComponent(receiptId)}`;
  /** @type {{ bundle?: string, attestation?: string }} */
  const files = {};
  for (const [name, suffix, file] of /** @type {const} */ ([
    ['bundle', 'bundle', `receipt-${receiptId}.bundle.json`],
    ['attestation', 'attestation', `receipt-${receiptId}.sigstore.json`],
  ])) {
    const saved = await saveJson(`${base}/${suffix}`, apiKey, path.join(dir, file), timeoutMs);
    if ('file' in saved) files[name] = saved.file;
    else log.warning(`the receipt ${name} was not saved: ${saved.problem}`);
  }
  return files;
}

/** @param {string} apiUrl */
function warnOnPlainHttp(apiUrl) {
  const { protocol, hostname } = new URL(apiUrl);
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
  if (protocol === 'http:' && !local) {
    log.warning('api-url uses plain http: the API key is sent unencrypted; use https');
  }
}
