import type { CiVerificationResponse } from '../contract/ci.js';
import { absoluteUrl, receiptPath, verifyCommand, verifyPagePath } from '../contract/links.js';
import type { ReceiptRecord } from '../receipts/ports.js';

/** What a completed check run shows: conclusion, title and a Markdown summary. */
export interface CheckOutput {
  conclusion: 'success' | 'failure' | 'neutral';
  title: string;
  summary: string;
  /** The check's "Details" link. */
  detailsUrl?: string | undefined;
}

/** A table cell or inline text: no pipes, no line breaks, no stray backticks. */
function cell(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/`/g, "'");
}

function links(publicUrl: string | undefined, receiptId: string): string {
  const receiptUrl = absoluteUrl(publicUrl, receiptPath(receiptId));
  if (!publicUrl) {
    return `Receipt JSON: \`${receiptUrl}\` · PDF: \`${receiptUrl}/pdf\` (set PUBLIC_URL for links)`;
  }
  return `[Receipt JSON](${receiptUrl}) · [Receipt PDF](${receiptUrl}/pdf) (tenant API key)`;
}

/** The public verify page for a receipt hash: no API key, the check happens in the browser. */
export function verifyPageUrl(publicUrl: string, receiptHash: string): string {
  return `${publicUrl}${verifyPagePath(receiptHash)}`;
}

/** What anyone needs to check the receipt without an API key, or without us at all. */
function withoutKey(publicUrl: string | undefined, receipt: ReceiptRecord['receipt']): string[] {
  const kid = receipt.receiptSignature?.kid ?? 'unsigned';
  const offline = [
    `Verify offline: the receipt bundle (\`GET ${receiptPath(receipt.receiptId)}/bundle\`, or the`,
    `PDF, which carries it) with \`${verifyCommand('FILE', publicUrl ?? '<PUBLIC_URL>')}\`;`,
    `receipt hash \`${receipt.receiptHash}\`,`,
    `signed by kid \`${kid}\` (Ed25519, RFC 8785 canonical form).`,
  ].join(' ');
  if (!publicUrl) return ['', offline];
  return [
    '',
    `**Verify without an API key:** [in the browser](${verifyPageUrl(publicUrl, receipt.receiptHash)}) ·` +
      ` [public status](${publicUrl}/status/${receipt.receiptHash}) ·` +
      ` [signing keys](${publicUrl}/.well-known/jwks.json)`,
    '',
    offline,
  ];
}

export interface ReceiptOutputInput {
  record: ReceiptRecord;
  response: CiVerificationResponse;
  publicUrl: string | undefined;
  workflowRunUrl?: string | undefined;
}

/** The check run for an issued (or already issued) receipt, from the adapter response. */
export function receiptOutput(input: ReceiptOutputInput): CheckOutput {
  const { record, response, publicUrl } = input;
  const { receipt } = record;
  const reasons = receipt.reasons.length
    ? receipt.reasons.map((r) => `\`${cell(r)}\``).join(', ')
    : 'none';
  const rows = receipt.checks.map(
    (c) => `| \`${cell(c.checkId)}\` | ${c.status} | ${cell(c.details ?? '')} |`,
  );
  const summary = [
    `**Decision:** ${receipt.decision} · **Status:** \`${response.receiptStatus}\``,
    '',
    `**Reasons:** ${reasons}`,
    '',
    '| Check | Result | Details |',
    '| --- | --- | --- |',
    ...rows,
    '',
    `**Receipt:** \`${receipt.receiptId}\``,
    '',
    links(publicUrl, receipt.receiptId),
    ...withoutKey(publicUrl, receipt),
    '',
    `Receipt hash \`${receipt.receiptHash}\` · policy profile \`${receipt.policyProfile}\`` +
      (response.provenanceNote ? ` · ${cell(response.provenanceNote)}` : ''),
    ...(input.workflowRunUrl ? ['', `Workflow run: ${input.workflowRunUrl}`] : []),
  ].join('\n');
  return {
    conclusion: response.conclusion,
    title: response.title,
    summary,
    // "Details" opens the public verify page: repository owners hold no API key
    detailsUrl: publicUrl ? verifyPageUrl(publicUrl, receipt.receiptHash) : undefined,
  };
}

export const FAIL_CLOSED_TITLE = 'Verification receipt not issued';

/** Fail closed: no receipt, so the check fails, saying why in words safe to show anyone. */
export function failClosedOutput(reason: string): CheckOutput {
  return {
    conclusion: 'failure',
    title: FAIL_CLOSED_TITLE,
    summary: [
      `**No verification receipt was issued for this run**, so it is not verified.`,
      '',
      `Reason: ${reason.replace(/[\r\n]+/g, ' ')}`,
      '',
      'Fix the cause and re-run this check (or the workflow) to try again.',
    ].join('\n'),
  };
}

export const IN_PROGRESS_OUTPUT = {
  title: 'Waiting for the workflow run to finish',
  summary: 'A verification receipt is issued for this commit when the workflow run completes.',
};
