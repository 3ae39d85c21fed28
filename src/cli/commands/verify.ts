import { createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { jwkKey } from '../../evidence/primitives.js';
import { readEvidence } from '../../evidence/read.js';
import { verifyStatus } from '../../evidence/status.js';
import { verifyBundle, type Step, type Trust, type Verdict } from '../../evidence/verify.js';
import type { BundleLogEntry } from '../../evidence/bundle.js';
import type { CliIo } from '../context.js';

/**
 * `receipts verify FILE [--jwks FILE|URL] [--key FILE] [--online URL] [--json]`: offline
 * verification of a bundle or a PDF receipt (src/evidence), no database, no service. Exit 0
 * verified, 1 not verified (the failing step named), 2 unreadable input or bad usage.
 */
export const VERIFY_USAGE = `usage: receipts verify FILE [--jwks FILE|URL] [--key FILE] [--online URL] [--json]

  FILE        a receipt bundle (JSON) or a PDF receipt (its attached receipt-bundle.json)
  --jwks      pin the keys of a JWK Set (a file, or an https URL such as <service>/.well-known/jwks.json)
  --key       pin one key: an Ed25519 public key PEM or JWK file (repeatable)
  --online    also fetch the public status from this service URL and check the log only grew
  --json      print one JSON object instead of the step list

Exit status: 0 verified, 1 not verified (the failing step is named), 2 unreadable input or bad usage.`;

const FETCH_LIMIT_BYTES = 1024 * 1024;

class Usage extends Error {}

interface Options {
  file: string;
  jwks?: string;
  keys: string[];
  online?: string;
  json: boolean;
}

function options(args: string[]): Options {
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        jwks: { type: 'string' },
        key: { type: 'string', multiple: true },
        online: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
    if (values.help) throw new Usage('');
    if (positionals.length !== 1) throw new Usage('give exactly one FILE');
    return {
      file: positionals[0] as string,
      ...(values.jwks ? { jwks: values.jwks } : {}),
      keys: values.key ?? [],
      ...(values.online ? { online: values.online.replace(/\/+$/, '') } : {}),
      json: values.json ?? false,
    };
  } catch (err) {
    throw err instanceof Usage ? err : new Usage((err as Error).message);
  }
}

async function fetchJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'error' });
  const text = await res.text();
  if (text.length > FETCH_LIMIT_BYTES) throw new Error(`${url}: answer too large`);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

async function pinnedKeys(o: Options): Promise<Trust> {
  const keys: Uint8Array[] = [];
  const sources: string[] = [];
  if (o.jwks) {
    const isUrl = /^https?:\/\//.test(o.jwks);
    const set = (isUrl ? await fetchJson(o.jwks) : JSON.parse(fs.readFileSync(o.jwks, 'utf8'))) as {
      keys?: unknown[];
    };
    for (const jwk of set.keys ?? []) {
      const key = jwkKey(jwk);
      if (key) keys.push(key);
    }
    if (keys.length === 0) throw new Usage(`${o.jwks} holds no Ed25519 key`);
    sources.push(`JWKS ${o.jwks}`);
  }
  for (const file of o.keys) {
    const text = fs.readFileSync(file, 'utf8');
    const jwk = text.trimStart().startsWith('{')
      ? JSON.parse(text)
      : createPublicKey(text).export({ format: 'jwk' });
    const key = jwkKey(jwk);
    if (!key) throw new Usage(`${file} is not an Ed25519 public key`);
    keys.push(key);
    sources.push(`key ${file}`);
  }
  return keys.length > 0 ? { keys, source: sources.join(', ') } : {};
}

/** The public status steps, against the pinned keys or else the bundle's own key. */
async function onlineSteps(
  o: Options,
  verdict: Verdict,
  trust: Trust,
  bundle: unknown,
): Promise<Step[]> {
  const b = bundle as {
    receipt?: { receiptHash?: unknown };
    verificationMaterial?: { publicKey?: unknown };
    logEntry?: BundleLogEntry;
  };
  const hash = String(b.receipt?.receiptHash ?? '');
  const bundleKey = jwkKey(b.verificationMaterial?.publicKey);
  const keys = trust.keys?.length ? trust.keys : bundleKey ? [bundleKey] : [];
  const size = b.logEntry ? `?treeSize=${b.logEntry.treeSize}` : '';
  try {
    const doc = await fetchJson(`${o.online}/status/${encodeURIComponent(hash)}${size}`);
    return verifyStatus(doc, hash, keys, verdict.unreadable ? undefined : b.logEntry);
  } catch (err) {
    return [
      { id: 'status', status: 'FAIL', detail: `status not available: ${(err as Error).message}` },
    ];
  }
}

function print(io: CliIo, verdict: Verdict, trust: Trust, json: boolean): void {
  const r = verdict.receipt ?? {};
  if (json) {
    io.out(
      JSON.stringify({
        verified: verdict.verified,
        unreadable: verdict.unreadable,
        ...(verdict.failedStep ? { failedStep: verdict.failedStep } : {}),
        trust: trust.source ?? 'the key in the bundle (not pinned)',
        receipt: {
          receiptId: r.receiptId,
          receiptHash: r.receiptHash,
          decision: r.decision,
          createdAt: r.createdAt,
        },
        steps: verdict.steps,
      }),
    );
    return;
  }
  if (verdict.receipt) {
    io.out(
      `receipt ${String(r.receiptId)}: decision ${String(r.decision)}, issued ${String(r.createdAt)}`,
    );
  }
  for (const s of verdict.steps) io.out(`${s.status.padEnd(4)}  ${s.id.padEnd(16)} ${s.detail}`);
  io.out(
    verdict.verified
      ? 'VERIFIED'
      : verdict.unreadable
        ? 'UNREADABLE: not a receipt bundle or PDF receipt this verifier can read'
        : `NOT VERIFIED: failed at step ${String(verdict.failedStep)}`,
  );
}

export async function verifyCommand(args: string[], io: CliIo): Promise<number> {
  let o: Options;
  let trust: Trust;
  let bytes: Uint8Array;
  try {
    o = options(args);
    trust = await pinnedKeys(o);
    bytes = new Uint8Array(fs.readFileSync(o.file));
  } catch (err) {
    const message = err instanceof Usage ? err.message : (err as Error).message;
    if (!message && err instanceof Usage) {
      io.out(VERIFY_USAGE); // --help
      return 0;
    }
    io.err(`error: ${message}`);
    io.err(VERIFY_USAGE);
    return 2;
  }
  const read = await readEvidence(bytes);
  const verdict: Verdict = read.ok
    ? verifyBundle(read.bundle, trust)
    : {
        verified: false,
        unreadable: true,
        failedStep: 'format',
        steps: [{ id: 'format', status: 'FAIL', detail: read.reason }],
      };
  if (o.online && read.ok && !verdict.unreadable) {
    const steps = await onlineSteps(o, verdict, trust, read.bundle);
    verdict.steps.push(...steps);
    const failed = verdict.steps.find((s) => s.status === 'FAIL');
    verdict.verified = failed === undefined;
    if (failed && !verdict.failedStep) verdict.failedStep = failed.id;
  }
  print(io, verdict, trust, o.json);
  return verdict.unreadable ? 2 : verdict.verified ? 0 : 1;
}
