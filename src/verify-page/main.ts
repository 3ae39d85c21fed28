/// <reference lib="dom" />
import {
  checkTimestamps,
  readBundle,
  verifyBundle,
  type IndependentTime,
  type Step,
  type Verdict,
} from '@verification-receipts/verify';
import {
  documentSignatureLines,
  parseBundle,
  unreadableVerdict,
  type PdfSignature,
} from '@verification-receipts/verify/internals';
import { bannerOf } from './banner.js';
import { $ } from './dom.js';
import { keyTrusted, renderArtifactSignatures, renderBusy, renderVerdict } from './render.js';
import { fetchStatus, RECEIPT_HASH, statusOfLink, type StatusInput } from './status.js';
import { pageTrust, pageTsaCertificates } from './trust.js';

/**
 * The /verify page: the verifier package in the browser. The files never leave the page; the
 * only request is the public status of the receipt, made once the receipt proves to be one of
 * this service's (its key is one the page was served with). The verdict is computed again
 * whenever the receipt, the document or the status changes.
 */

interface Receipt {
  bundle: unknown;
  hash: string;
  treeSize?: number;
  pdf?: { printed?: { text: string }; signature?: PdfSignature };
  /** The timestamps step: the bundle's tokens against the TSA certificates the page pins. */
  timestamps?: Step;
  /** The authorities of the tokens that verified (their certificates bound the evidence). */
  timestampAuthorities?: IndependentTime['authorities'];
}

const trust = pageTrust();
const tsaCertificates = pageTsaCertificates();
const qrHash = linkHash();
const state: {
  receipt?: Receipt;
  unreadable?: string;
  artifact?: { name: string; bytes: Uint8Array };
  status?: StatusInput;
  busy?: string;
} = {};
/** Bumped on every new receipt, so an answer for an earlier one is dropped. */
let generation = 0;
/** Bumped on every new document, so the signatures of one chosen earlier never replace its. */
let artifactGeneration = 0;

function linkHash(): string | undefined {
  const hash = new URLSearchParams(location.search).get('hash') ?? '';
  return RECEIPT_HASH.test(hash) ? hash : undefined;
}

function evaluate(): Verdict | undefined {
  if (state.unreadable !== undefined)
    return unreadableVerdict(state.unreadable, trust.source ?? '');
  const r = state.receipt;
  if (!r) return undefined;
  try {
    return verifyBundle(r.bundle, {
      trust,
      ...(r.pdf ? { pdf: r.pdf } : {}),
      ...(r.timestamps ? { timestamps: r.timestamps } : {}),
      ...(r.timestampAuthorities ? { timestampAuthorities: r.timestampAuthorities } : {}),
      ...(state.artifact ? { artifact: state.artifact.bytes } : {}),
      ...(state.status ? { status: state.status } : {}),
    });
  } catch {
    // a verdict, whatever the file: never a page left without one
    return unreadableVerdict('the receipt cannot be checked', trust.source ?? '');
  }
}

function show(): void {
  if (state.busy) return renderBusy(state.busy);
  const verdict = evaluate();
  if (verdict) renderVerdict(verdict, bannerOf(verdict, qrHash), state.artifact?.name);
}

async function checkStatus(): Promise<void> {
  const r = state.receipt;
  if (!r) return;
  const mine = generation;
  state.busy = 'Checking the current status with the service...';
  show();
  const status = await fetchStatus(r.hash, r.treeSize);
  if (mine !== generation) return;
  state.status = status;
  state.busy = undefined;
  show();
}

async function chooseReceipt(file: File): Promise<void> {
  const mine = ++generation;
  $('file-name').textContent = file.name;
  // the file is chosen: the request to choose it would now read as if it were not
  $('status-request-hint').hidden = true;
  state.busy = 'Checking the receipt...';
  show();
  const read = await readReceipt(file);
  if (mine !== generation) return;
  Object.assign(state, { receipt: undefined, unreadable: undefined, status: undefined }, read);
  state.busy = undefined;
  // only a receipt of this service has a status here worth asking for; no verdict is shown
  // before it is known, so the banner never flashes a verdict that is about to change
  if (keyTrusted(evaluate())) await checkStatus();
  else show();
}

/**
 * The receipt in a file, or why it is unreadable. The reader bounds what a hostile file costs;
 * should it still throw, the page says the file is unreadable rather than stay on "Checking".
 */
async function readReceipt(file: File): Promise<Pick<typeof state, 'receipt' | 'unreadable'>> {
  try {
    const read = await readBundle(new Uint8Array(await file.arrayBuffer()));
    if (!read.ok) return { unreadable: read.reason };
    const pdf =
      read.from === 'pdf' ? { printed: read.printed, signature: read.signature } : undefined;
    const receipt = receiptOf(read.bundle, pdf);
    Object.assign(receipt, await timestampsOf(read.bundle));
    return { receipt };
  } catch {
    return { unreadable: 'the file cannot be read as a receipt' };
  }
}

/**
 * The bundle's RFC 3161 tokens, checked against the TSA certificates the page was served with,
 * and the authorities of those that verified; without any pinned, the tokens are reported
 * unchecked rather than trusted on their own word.
 */
async function timestampsOf(
  bundle: unknown,
): Promise<Pick<Receipt, 'timestamps' | 'timestampAuthorities'>> {
  const checked = await checkTimestamps(bundle, tsaCertificates);
  const found = {
    timestamps: checked.step,
    ...(checked.authorities ? { timestampAuthorities: checked.authorities } : {}),
  };
  if (tsaCertificates.length > 0 || checked.step.status !== 'SKIP') return found;
  const parsed = parseBundle(bundle);
  const count = parsed.ok ? (parsed.bundle.logEntry?.timestamps?.length ?? 0) : 0;
  if (count === 0) return found;
  const detail = `${count} time-stamp token(s) not checked: no pinned timestamp authority (this service publishes none)`;
  return { timestamps: { ...checked.step, detail } };
}

function receiptOf(bundle: unknown, pdf: Receipt['pdf'] | undefined): Receipt {
  const parsed = parseBundle(bundle);
  const receipt: Receipt = { bundle, hash: '', ...(pdf ? { pdf } : {}) };
  if (!parsed.ok) return receipt;
  receipt.hash = String(parsed.bundle.receipt.receiptHash ?? '');
  if (parsed.bundle.logEntry) receipt.treeSize = parsed.bundle.logEntry.treeSize;
  return receipt;
}

async function chooseArtifact(file: File): Promise<void> {
  const mine = ++artifactGeneration;
  $('artifact-name').textContent = file.name;
  renderArtifactSignatures([]);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (mine !== artifactGeneration) return;
  state.artifact = { name: file.name, bytes };
  // a signed PDF's own signatures (a notarised deed's), shown under the verdict, not judged in
  // it; read within the verifier's bounds, and never in place of a document chosen since
  const lines = await documentSignatureLines(bytes, file.name);
  if (mine !== artifactGeneration) return;
  renderArtifactSignatures(lines);
  show();
}

async function showLinkStatus(hash: string): Promise<void> {
  const section = $('status-request');
  const summary = $('status-summary');
  section.hidden = false;
  const link = await statusOfLink(hash, trust);
  summary.textContent = link.text;
  summary.className = `status-summary ${link.state}`;
  summary.dataset.status = link.state;
}

/** A link whose `hash` is not a receipt hash: said, rather than silently ignored. */
function showBadLink(): void {
  $('status-request').hidden = false;
  const summary = $('status-summary');
  summary.textContent = 'The link names no receipt: its hash is not of the form sha256:<64 hex>.';
  summary.className = 'status-summary error';
  summary.dataset.status = 'error';
}

function wireInput(inputId: string, dropId: string, choose: (file: File) => Promise<void>): void {
  const input = $<HTMLInputElement>(inputId);
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void choose(file);
  });
  const drop = $(dropId);
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const file = e.dataTransfer?.files[0];
    if (file) void choose(file);
  });
}

wireInput('file', 'drop', chooseReceipt);
wireInput('artifact', 'artifact-drop', chooseArtifact);
$('recheck').addEventListener('click', () => void checkStatus());
if (qrHash) void showLinkStatus(qrHash);
else if (new URLSearchParams(location.search).has('hash')) showBadLink();
