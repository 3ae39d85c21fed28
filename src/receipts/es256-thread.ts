import { createPublicKey, verify } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * ES256 signature checks (ECDSA P-256 with SHA-256, raw r||s signatures) on one worker thread.
 *
 * The seal's ECDSA verification was the largest single cost of an issuance on the event loop
 * (about a fifth of it). Node's own asynchronous `crypto.verify` spreads such jobs over libuv's
 * four pool threads, which on a two-core host take the cores from the event loop, the one
 * thread every request waits on, and measured no faster than verifying in line. One dedicated
 * thread takes the work off the loop without crowding it (bench/README.md has the figures).
 *
 * The thread is started on first use and does not keep the process alive. If it fails or exits,
 * the checks it had in hand are done in line and the next check starts a new thread: a seal is
 * never judged by whether a thread was running.
 */

/** The worker's code: CommonJS, evaluated, so it runs the same from `dist/` and from sources. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createPublicKey, verify } = require('node:crypto');
const keys = new Map();
function keyOf(pem) {
  let key = keys.get(pem);
  if (key === undefined) {
    if (keys.size >= 1000) keys.clear();
    key = createPublicKey(pem);
    keys.set(pem, key);
  }
  return key;
}
parentPort.on('message', ([id, pem, input, signature]) => {
  let valid = false;
  try {
    const options = { key: keyOf(pem), dsaEncoding: 'ieee-p1363' };
    valid = verify('sha256', Buffer.from(input), options, Buffer.from(signature, 'base64url'));
  } catch {
    valid = false;
  }
  parentPort.postMessage([id, valid]);
});
`;

interface Job {
  spkiPem: string;
  signingInput: string;
  signature: string;
  resolve: (valid: boolean) => void;
  /** The thread the check was sent to. */
  thread: Worker;
}

let worker: Worker | undefined;
const pending = new Map<number, Job>();
let nextId = 0;

/**
 * Whether `signature` (base64url of the 64-byte r||s) is a valid ES256 signature of
 * `signingInput` (UTF-8) under the P-256 public key `spkiPem`. The caller has already checked
 * that the key parses as P-256. Only strings cross to the thread: a Buffer would carry a copy of
 * the whole pool slab it was cut from.
 */
export function verifyEs256(
  spkiPem: string,
  signingInput: string,
  signature: string,
): Promise<boolean> {
  return new Promise((resolve) => {
    const id = nextId++;
    const thread = running();
    pending.set(id, { spkiPem, signingInput, signature, resolve, thread });
    thread.postMessage([id, spkiPem, signingInput, signature]);
  });
}

/**
 * Stop the thread (the next check starts another). Checks it had in hand finish in line, with
 * the same answers: used at shutdown, and by the tests that prove a lost thread loses nothing.
 */
export async function stopEs256Thread(): Promise<void> {
  const stopping = worker;
  if (stopping === undefined) return;
  abandon(stopping);
  await stopping.terminate();
}

function running(): Worker {
  if (worker !== undefined) return worker;
  const started = new Worker(WORKER_SOURCE, { eval: true });
  started.unref();
  started.on('message', ([id, valid]: [number, boolean]) => {
    const job = pending.get(id);
    pending.delete(id);
    job?.resolve(valid);
  });
  started.on('error', () => abandon(started));
  started.on('exit', () => abandon(started));
  worker = started;
  return started;
}

/** The thread is gone: forget it and finish what it had in hand on this thread. */
function abandon(gone: Worker): void {
  if (worker === gone) worker = undefined;
  for (const [id, job] of pending) {
    if (job.thread !== gone) continue;
    pending.delete(id);
    job.resolve(verifyInLine(job));
  }
}

function verifyInLine(job: Job): boolean {
  try {
    const key = createPublicKey(job.spkiPem);
    const options = { key, dsaEncoding: 'ieee-p1363' as const };
    const signature = Buffer.from(job.signature, 'base64url');
    return verify('sha256', Buffer.from(job.signingInput), options, signature);
  } catch {
    return false;
  }
}
