/// <reference lib="dom" />
import { jwkKey } from '../primitives.js';
import { readEvidence } from '../read.js';
import { verifyStatus } from '../status.js';
import { verifyBundle, type Step, type Verdict } from '../verify.js';
import type { BundleLogEntry } from '../bundle.js';

/**
 * The /verify page: the offline verifier (src/evidence) in the browser. The file never leaves
 * the page; the only requests are the ones the user asks for (the public status). The trusted
 * keys are the service's JWKS, inlined into the page when it was served.
 */

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function trustedKeys(): Uint8Array[] {
  try {
    const set = JSON.parse($('trusted-keys').textContent ?? '{}') as { keys?: unknown[] };
    return (set.keys ?? []).map(jwkKey).filter((k): k is Uint8Array => k !== undefined);
  } catch {
    return [];
  }
}

const keys = trustedKeys();
let current: { bundle: unknown; verdict: Verdict } | undefined;

function el(tag: string, className: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.textContent = text;
  return node;
}

function renderSteps(list: HTMLElement, steps: readonly Step[]): void {
  list.replaceChildren(
    ...steps.map((s) => {
      const item = el('li', '', '');
      item.dataset.step = s.id;
      item.dataset.status = s.status;
      const text = el('div', '', '');
      text.append(el('div', 'step-id', s.id), el('div', 'step-detail', s.detail));
      item.append(el('span', `badge ${s.status}`, s.status), text);
      return item;
    }),
  );
}

function fact(list: HTMLElement, label: string, value: unknown): void {
  if (value === undefined || value === null || value === '') return;
  list.append(
    el('dt', '', label),
    el('dd', '', typeof value === 'string' ? value : JSON.stringify(value)),
  );
}

function renderReceipt(verdict: Verdict): void {
  const r = (verdict.receipt ?? {}) as Record<string, unknown>;
  const facts = $('facts');
  facts.replaceChildren();
  fact(facts, 'Decision', r.decision);
  fact(facts, 'Receipt', r.receiptId);
  fact(facts, 'Issued', r.createdAt);
  fact(facts, 'Policy', r.policyProfile);
  const subject = (r.subject ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(subject)) fact(facts, `Subject ${k}`, v);
  fact(facts, 'Receipt hash', r.receiptHash);
  const checks = Array.isArray(r.checks) ? (r.checks as Record<string, unknown>[]) : [];
  $('checks').replaceChildren(
    ...checks.map((c) => {
      const item = el('li', '', '');
      const status = String(c.status);
      const text = el('div', '', '');
      text.append(
        el('div', 'step-id', String(c.checkId)),
        el('div', 'step-detail', String(c.details ?? '')),
      );
      item.append(
        el('span', `badge ${['PASS', 'FAIL', 'WARN'].includes(status) ? status : 'SKIP'}`, status),
        text,
      );
      return item;
    }),
  );
}

function renderVerdict(verdict: Verdict): void {
  const box = $('verdict');
  box.className = `verdict ${verdict.verified ? 'pass' : 'fail'}`;
  box.dataset.verified = String(verdict.verified);
  const title = verdict.verified
    ? 'Verified'
    : verdict.unreadable
      ? 'Not a receipt this page can read'
      : `Not verified: the ${verdict.failedStep ?? ''} step failed`;
  const detail = verdict.verified
    ? 'The receipt is intact, signed by a key of this service and, when anchored, in its log.'
    : (verdict.steps.find((s) => s.status === 'FAIL')?.detail ?? '');
  box.replaceChildren(document.createTextNode(title), el('small', '', detail));
}

async function check(file: File): Promise<void> {
  const read = await readEvidence(new Uint8Array(await file.arrayBuffer()));
  const verdict: Verdict = read.ok
    ? verifyBundle(read.bundle, { keys, source: 'the keys this page was served with' })
    : {
        verified: false,
        unreadable: true,
        failedStep: 'format',
        steps: [{ id: 'format', status: 'FAIL', detail: read.reason }],
      };
  current = read.ok ? { bundle: read.bundle, verdict } : undefined;
  $('result').hidden = false;
  renderVerdict(verdict);
  renderSteps($('steps'), verdict.steps);
  renderReceipt(verdict);
  $('online-steps').replaceChildren();
  $('check-status').hidden = !current || verdict.unreadable;
}

async function fetchStatus(hash: string, treeSize?: number): Promise<unknown> {
  const query = treeSize ? `?treeSize=${treeSize}` : '';
  const res = await fetch(`/status/${encodeURIComponent(hash)}${query}`, {
    headers: { accept: 'application/json' },
  });
  if (res.status === 404) throw new Error('this service holds no receipt with that hash');
  if (!res.ok) throw new Error(`the service answered ${res.status}`);
  return res.json();
}

async function checkStatus(): Promise<void> {
  if (!current) return;
  const b = current.bundle as { receipt?: { receiptHash?: string }; logEntry?: BundleLogEntry };
  const hash = String(b.receipt?.receiptHash ?? '');
  let steps: Step[];
  try {
    steps = verifyStatus(await fetchStatus(hash, b.logEntry?.treeSize), hash, keys, b.logEntry);
  } catch (err) {
    steps = [{ id: 'status', status: 'FAIL', detail: (err as Error).message }];
  }
  renderSteps($('online-steps'), steps);
}

/** Opened from a QR code (`?hash=`): the user asked for the status of that receipt. */
async function statusFromLink(hash: string): Promise<void> {
  const section = $('status-request');
  const summary = $('status-summary');
  section.hidden = false;
  try {
    const doc = await fetchStatus(hash);
    const [signature, status] = verifyStatus(doc, hash, keys);
    const statement =
      (doc as { statement?: { status?: string; revokedAt?: string; revokedBy?: string } })
        .statement ?? {};
    if (signature?.status !== 'PASS') {
      summary.textContent = `The status answer could not be verified: ${signature?.detail ?? ''}`;
      summary.className = 'status-summary revoked';
    } else if (statement.status === 'revoked') {
      summary.textContent = `Revoked at ${statement.revokedAt ?? '?'} by issuer ${statement.revokedBy ?? '?'}.`;
      summary.className = 'status-summary revoked';
    } else {
      summary.textContent = `Active: not revoked (${status?.detail ?? ''}).`;
      summary.className = 'status-summary active';
    }
    summary.dataset.status = statement.status ?? 'unknown';
  } catch (err) {
    summary.textContent = (err as Error).message;
    summary.className = 'status-summary revoked';
    summary.dataset.status = 'error';
  }
}

function wire(): void {
  const input = $<HTMLInputElement>('file');
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void check(file);
  });
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const file = e.dataTransfer?.files[0];
    if (file) void check(file);
  });
  $('check-status').addEventListener('click', () => void checkStatus());
  const hash = new URLSearchParams(location.search).get('hash');
  if (hash && /^sha256:[0-9a-f]{64}$/.test(hash)) void statusFromLink(hash);
}

wire();
