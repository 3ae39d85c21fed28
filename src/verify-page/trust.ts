/// <reference lib="dom" />
import type { TrustRoot } from '@verification-receipts/verify';
import { parseVerifierKey } from '@verification-receipts/verify/log';
import { akpKey, certificatesFromPem, jwkKey } from '@verification-receipts/verify/internals';
import { $ } from './dom.js';

/**
 * The page's trust root: the service's keys and its log's identity, written into the page by
 * the server when it was served (a JSON block the browser never executes). Nothing in a file the
 * user drops can add to it.
 */
interface Inlined {
  keys?: unknown[];
  log?: { origin?: unknown; verifierKey?: unknown };
  /** The time-stamp authorities' certificates (PEM) the service checks its tokens against. */
  tsaCertificates?: unknown[];
}

function inlined(): Inlined {
  try {
    const value: unknown = JSON.parse($('trust-root').textContent ?? '{}');
    return typeof value === 'object' && value !== null ? (value as Inlined) : {};
  } catch {
    return {};
  }
}

export function pageTrust(): TrustRoot {
  const root = inlined();
  const keys = (root.keys ?? []).map(jwkKey).filter((k): k is Uint8Array => k !== undefined);
  const pqKeys = (root.keys ?? []).map(akpKey).filter((k): k is Uint8Array => k !== undefined);
  const trust: TrustRoot = { keys, source: 'the keys this page was served with' };
  if (pqKeys.length > 0) trust.pqKeys = pqKeys;
  const { origin, verifierKey } = root.log ?? {};
  const vkey = typeof verifierKey === 'string' ? parseVerifierKey(verifierKey) : undefined;
  if (typeof origin === 'string' && vkey?.name === origin) {
    trust.log = { origin, publicKey: vkey.publicKey, witnesses: [], quorum: 0 };
    // served with the keys: the page asks the service for the status, anchoring included
    trust.logFromService = true;
  }
  return trust;
}

/**
 * The TSA certificates the page was served with: pinned as the keys are, by the page's own
 * origin. Empty when the service publishes none; the page then checks no token.
 */
export function pageTsaCertificates(): Uint8Array[] {
  const list = inlined().tsaCertificates;
  return (Array.isArray(list) ? list : [])
    .slice(0, 16)
    .flatMap((pem) => (typeof pem === 'string' ? certificatesFromPem(pem) : []));
}
