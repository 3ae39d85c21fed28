import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import process from 'node:process';
import { FAIL_ON } from './inputs.mjs';

/**
 * Everything the step shows: workflow commands on stdout/stderr, step outputs (GITHUB_OUTPUT)
 * and the job summary (GITHUB_STEP_SUMMARY). Every text goes through `redact` first.
 */

/**
 * @typedef {object} CiResult The adapter's answer (§2.13), the fields this action uses.
 * @property {string} receiptId
 * @property {string} receiptStatus
 * @property {string} conclusion
 * @property {string} title
 * @property {string} summary
 * @property {string} [verificationTimestamp]
 * @property {string} [provenanceNote]
 */

/**
 * @typedef {object} Logger
 * @property {(text: string) => string} redact
 * @property {(text: string) => void} info
 * @property {(text: string) => void} notice
 * @property {(text: string) => void} warning
 * @property {(text: string) => void} error
 */

/** @type {Readonly<Record<string, string>>} */
const ICONS = { clean: '✅', compliance_gap: '⚠️', failure: '❌', revoked: '⛔' };

/** @param {string} line */
const stdout = (line) => process.stdout.write(`${line}\n`);
/** @param {string} line */
const stderr = (line) => process.stderr.write(`${line}\n`);

/**
 * Workflow command data escaping (the runner's own `escapeData`).
 *
 * @param {string} text
 * @returns {string}
 */
function escapeData(text) {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/**
 * Workflow command property escaping (the runner's own `escapeProperty`).
 *
 * @param {string} text
 * @returns {string}
 */
function escapeProperty(text) {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/**
 * An error annotation on a file of the repository (shown on the file in a pull request).
 *
 * @param {string} file
 * @param {string} text
 */
export function annotateFile(file, text) {
  stderr(`::error file=${escapeProperty(file)},title=Repository policy::${escapeData(text)}`);
}

/**
 * A logger that replaces each secret with *** in everything it prints.
 *
 * @param {string[]} secrets
 * @returns {Logger}
 */
export function createLogger(secrets) {
  const hidden = secrets.filter((secret) => secret.length > 0);
  /** @param {string} text */
  const redact = (text) => hidden.reduce((out, secret) => out.replaceAll(secret, '***'), text);
  return {
    redact,
    info: (text) => stdout(redact(text)),
    notice: (text) => stdout(`::notice title=Verification receipt::${escapeData(redact(text))}`),
    warning: (text) => stdout(`::warning title=Verification receipt::${escapeData(redact(text))}`),
    error: (text) => stderr(`::error title=Verification receipt::${escapeData(redact(text))}`),
  };
}

/**
 * Register `secret` with the runner's log masker. The command line is consumed by the runner and
 * never shown; it is the only line this action prints that contains the secret.
 *
 * @param {string} secret
 */
export function addMask(secret) {
  if (secret) stdout(`::add-mask::${escapeData(secret)}`);
}

/**
 * Does `status` fail the step under `failOn`? Unknown statuses fail unless fail-on is never.
 *
 * @param {string} status
 * @param {import('./inputs.mjs').FailOn} failOn
 * @returns {boolean}
 */
export function failsPolicy(status, failOn) {
  if (failOn === 'never') return false;
  return FAIL_ON[failOn].includes(status) || !Object.hasOwn(ICONS, status);
}

/**
 * Append outputs to GITHUB_OUTPUT, `name=value`, or heredoc form for multi-line values.
 *
 * @param {string | undefined} file
 * @param {Record<string, string>} outputs
 * @returns {boolean} Whether there was a file to write to.
 */
export function writeOutputs(file, outputs) {
  if (!file) return false;
  const lines = Object.entries(outputs).map(([name, value]) => {
    const text = String(value);
    if (!/[\r\n]/.test(text)) return `${name}=${text}\n`;
    const delimiter = `ghadelimiter_${randomUUID()}`;
    return `${name}<<${delimiter}\n${text}\n${delimiter}\n`;
  });
  fs.appendFileSync(file, lines.join(''), 'utf8');
  return true;
}

/**
 * Append Markdown to the job summary when the runner provides one.
 *
 * @param {string | undefined} file
 * @param {string} markdown
 */
export function writeSummary(file, markdown) {
  if (file) fs.appendFileSync(file, `${markdown}\n`, 'utf8');
}

/**
 * The job summary for an issued receipt.
 *
 * @param {CiResult} result
 * @param {string} receiptUrl
 * @param {string} failOn
 * @param {boolean} failed
 * @returns {string}
 */
export function receiptSummary(result, receiptUrl, failOn, failed) {
  const icon = ICONS[result.receiptStatus] ?? '❔';
  const lines = [
    `### ${icon} Verification receipt: ${inline(result.title)}`,
    '',
    '| Receipt status | Conclusion | Receipt | Verified at |',
    '|---|---|---|---|',
    `| \`${cell(result.receiptStatus)}\` | \`${cell(result.conclusion)}\` | ` +
      `[\`${cell(result.receiptId)}\`](${receiptUrl}) | ${cell(result.verificationTimestamp)} |`,
    '',
    ...String(result.summary)
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => `- ${inline(line)}`),
  ];
  if (result.provenanceNote) lines.push('', `_${inline(result.provenanceNote)}_`);
  lines.push(
    '',
    failed
      ? `**This step failed:** receipt status \`${result.receiptStatus}\` is covered by \`fail-on: ${failOn}\`.`
      : `This step passed (\`fail-on: ${failOn}\`).`,
  );
  return lines.join('\n');
}

/**
 * The job summary when no receipt could be obtained.
 *
 * @param {string} message
 * @returns {string}
 */
export function errorSummary(message) {
  return ['### ❌ Verification receipt: not issued', '', inline(message)].join('\n');
}

/**
 * One line of Markdown text: no raw HTML.
 *
 * @param {unknown} text
 * @returns {string}
 */
function inline(text) {
  return String(text)
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/[\r\n]+/g, ' ');
}

/**
 * @param {unknown} text
 * @returns {string}
 */
function cell(text) {
  return inline(text).replaceAll('|', '\\|');
}
