/// <reference lib="dom" />
import { verifyStatus, type CurrentStatus, type TrustRoot } from '@verification-receipts/verify';

/**
 * The public status of a receipt, fetched from this service (GET /status/{receiptHash}). The
 * answer is checked by the verifier package, never believed: a forged or stale answer is
 * reported as such.
 */
export type StatusInput = { document: unknown } | { error: string };

export const RECEIPT_HASH = /^sha256:[0-9a-f]{64}$/;

/** The status document, or why there is none; `treeSize` asks for a consistency proof from it. */
export async function fetchStatus(hash: string, treeSize?: number): Promise<StatusInput> {
  const query = treeSize ? `?treeSize=${treeSize}` : '';
  try {
    const res = await fetch(`/status/${encodeURIComponent(hash)}${query}`, {
      headers: { accept: 'application/json' },
      cache: 'no-store',
    });
    if (res.status === 404) return { error: 'this service holds no receipt with that hash' };
    if (!res.ok) return { error: `the service answered ${res.status}` };
    return { document: (await res.json()) as unknown };
  } catch (err) {
    return { error: `the service could not be reached (${(err as Error).message})` };
  }
}

/** What the page says about the receipt a QR code names, before any file is chosen. */
export interface LinkStatus {
  state: CurrentStatus['state'] | 'error';
  text: string;
}

export async function statusOfLink(hash: string, trust: TrustRoot): Promise<LinkStatus> {
  const fetched = await fetchStatus(hash);
  if ('error' in fetched)
    return { state: 'error', text: `The status could not be fetched: ${fetched.error}.` };
  const { steps, current } = verifyStatus(fetched.document, {
    receiptHash: hash,
    keys: trust.keys ?? [],
    ...(trust.log ? { log: trust.log } : {}),
  });
  const signed = steps.find((s) => s.id === 'status-signature');
  if (signed?.status !== 'PASS') {
    return {
      state: 'error',
      text: `The service's answer could not be verified: ${signed?.detail ?? ''}.`,
    };
  }
  return {
    state: current.state,
    text: `The receipt this QR code points to ${statusSentence(current)}`,
  };
}

/** The current status in one sentence, with the age of the statement it rests on. */
export function statusSentence(current: CurrentStatus): string {
  const age =
    current.ageSeconds !== undefined ? ` (statement ${ageText(current.ageSeconds)} old)` : '';
  switch (current.state) {
    case 'active':
      return `is active: not revoked as of ${current.producedAt ?? 'now'}${age}.`;
    case 'revoked':
      return `was revoked on ${current.revokedAt ?? '?'} by ${current.revokedBy ?? '?'}${age}.`;
    default:
      return `has no confirmed current status: ${current.detail}.`;
  }
}

export function ageText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}
