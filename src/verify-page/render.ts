/// <reference lib="dom" />
import type { EvidenceHorizon, Step, Verdict } from '@verification-receipts/verify';
import { reasonText } from '@verification-receipts/verify/internals';
import type { Banner } from './banner.js';
import { $, el, row } from './dom.js';
import { statusSentence } from './status.js';
import { keyWords, readable } from './words.js';

/**
 * What the page shows for a verdict: the banner first, then the decision, its reasons and the
 * current status in words, then the receipt's facts and the technical steps for whoever wants
 * to see how the verdict was reached.
 */

const LABEL = { accepted: 'Accepted', caution: 'Caution', rejected: 'Rejected' } as const;

const DECISION_TEXT: Partial<Record<string, string>> = {
  ALLOW: 'ALLOW: every check passed',
  FLAG: 'FLAG: passed with gaps in the evidence',
  BLOCK: 'BLOCK: a check failed',
};

/** While a file is read or the status fetched: no verdict yet, so none is shown. */
export function renderBusy(message: string): void {
  const box = $('verdict');
  $('result').hidden = false;
  box.className = 'verdict busy';
  box.removeAttribute('data-verdict');
  box.removeAttribute('data-qr-mismatch');
  box.setAttribute('aria-busy', 'true');
  box.replaceChildren(el('strong', 'verdict-headline', message));
}

export function renderBanner(banner: Banner): void {
  const box = $('verdict');
  box.className = `verdict ${banner.verdict}`;
  box.removeAttribute('aria-busy');
  box.dataset.verdict = banner.verdict;
  if (banner.qrMismatch) box.dataset.qrMismatch = 'true';
  else box.removeAttribute('data-qr-mismatch');
  box.replaceChildren(
    el('span', 'verdict-label', LABEL[banner.verdict]),
    el('strong', 'verdict-headline', banner.headline),
    el('span', 'verdict-detail', banner.detail),
  );
}

export function renderVerdict(verdict: Verdict, banner: Banner, artifactName?: string): void {
  $('result').hidden = false;
  $('details').hidden = false;
  renderBanner(banner);
  renderSummary(verdict, artifactName);
  renderFacts(verdict);
  renderSteps($('steps'), verdict.steps);
  renderChecks(verdict);
  // the status is only asked for a receipt of this service
  $('recheck').hidden = !keyTrusted(verdict);
}

/** Whether the receipt is signed by one of the keys the page was served with. */
export const keyTrusted = (v: Verdict | undefined): boolean =>
  v?.steps.some((s) => s.id === 'key-trust' && s.status === 'PASS') ?? false;

function renderSummary(verdict: Verdict, artifactName?: string): void {
  const d = verdict.decision;
  const reasons = d?.reasons ?? [];
  const list = el('ul', 'reasons');
  list.append(
    ...(reasons.length === 0
      ? [el('li', '', 'None')]
      : reasons.map((label) => {
          const item = el('li', '', `${reasonText(label)} `);
          item.append(el('code', '', label));
          return item;
        })),
  );
  const current = verdict.currentStatus;
  const status = el('span', `current ${current.state}`, `This receipt ${statusSentence(current)}`);
  status.id = 'current-status';
  status.dataset.state = current.state;
  $('summary').replaceChildren(
    ...(d ? row('Decision', DECISION_TEXT[d.decision] ?? d.decision) : []),
    ...(d ? row('Reasons', list) : []),
    ...row('Current status', status),
    ...row('Document', documentText(verdict, artifactName)),
    ...(verdict.evidence ? evidenceRows(verdict.evidence) : []),
  );
}

/**
 * Until when the evidence holds and the algorithms it relies on, each with its horizon: what the
 * command line's `--json` reports as `evidence` (the verifier's horizon.ts), in words.
 */
function evidenceRows(h: EvidenceHorizon): HTMLElement[] {
  const until = el(
    'span',
    'evidence-until',
    h.until === null
      ? 'No end date: nothing it relies on states one.'
      : `${h.until.slice(0, 10)}, the end of ${h.limitedBy ?? 'what it relies on'}.`,
  );
  until.id = 'evidence-until';
  until.dataset.until = h.until ?? '';
  const list = el('ul', 'evidence-algorithms');
  list.id = 'evidence-algorithms';
  list.append(
    ...h.algorithms.map((a) => {
      const item = el('li', '', `${a.name} (${a.usedFor.join(', ')}): ${a.horizon}`);
      item.dataset.algorithm = a.name;
      return item;
    }),
  );
  return [...row('Evidence holds until', until), ...row('Relies on', list)];
}

function documentText(verdict: Verdict, artifactName?: string): string {
  const step = verdict.steps.find((s) => s.id === 'artifact');
  if (!step || !artifactName) return 'Not compared: choose the document itself to compare it.';
  return step.status === 'PASS'
    ? `${artifactName} is the document this receipt is about.`
    : `${artifactName} is NOT the document this receipt is about.`;
}

function fact(list: HTMLElement, label: string, value: unknown): void {
  const text = readable(value);
  if (text) list.append(...row(label, text));
}

function renderFacts(verdict: Verdict): void {
  const r = verdict.receipt ?? {};
  const facts = $('facts');
  facts.replaceChildren();
  fact(facts, 'Receipt', r.receiptId);
  fact(facts, 'Issued', r.createdAt);
  fact(facts, 'Policy', r.policyProfile);
  const subject = (r.subject ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(subject)) fact(facts, `Subject ${keyWords(k)}`, v);
  fact(facts, 'Receipt hash', r.receiptHash);
}

function badged(id: string, status: string, detail: string): HTMLElement {
  const item = el('li');
  const text = el('div');
  text.append(el('div', 'step-id', id), el('div', 'step-detail', detail));
  const badge = ['PASS', 'FAIL', 'WARN'].includes(status) ? status : 'SKIP';
  item.append(el('span', `badge ${badge}`, status), text);
  return item;
}

export function renderSteps(list: HTMLElement, steps: readonly Step[]): void {
  list.replaceChildren(
    ...steps.map((s) => {
      const item = badged(s.id, s.status, s.detail);
      item.dataset.step = s.id;
      item.dataset.status = s.status;
      return item;
    }),
  );
}

function renderChecks(verdict: Verdict): void {
  const r = verdict.receipt ?? {};
  const checks = Array.isArray(r.checks) ? (r.checks as Record<string, unknown>[]) : [];
  $('checks').replaceChildren(
    ...checks.map((c) => badged(String(c.checkId), String(c.status), String(c.details ?? ''))),
  );
}

/** The document's own signatures, one item per line of the report; hidden when there are none. */
export function renderArtifactSignatures(lines: readonly string[]): void {
  const list = $('artifact-signatures');
  list.replaceChildren(...lines.map((line) => el('li', '', line.trim())));
  list.hidden = lines.length === 0;
  $('artifact-signatures-title').hidden = lines.length === 0;
}
