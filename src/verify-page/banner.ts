import type { StepId, Verdict, VerdictLabel } from '@verification-receipts/verify';
import { failedStepSentence } from '@verification-receipts/verify/internals';
import { sentence } from './words.js';

/**
 * The banner's words, for an escrow officer rather than a cryptographer: one headline saying
 * whether to rely on the receipt, one sentence saying why. The verdict is the package's; the page
 * overrides it only to reject a file that is not the receipt its QR code named.
 */
export interface Banner {
  verdict: VerdictLabel;
  headline: string;
  detail: string;
  /** Set when the chosen file is not the receipt of the QR code the page was opened from. */
  qrMismatch?: boolean;
}

export const QR_MISMATCH = 'This file is not the receipt the QR code points to';

/**
 * The page's own words where it can be more exact than the package's (the page is served by the
 * service it checks against); every other failed step reads as the command line says it.
 */
const PAGE_FAILED: Partial<Record<string, string>> = {
  format: 'This file is not a receipt this page can read',
  'pdf-signature': 'The PDF file was not signed by this service, or was changed after signing',
  'key-trust': 'This receipt was not signed by this service',
};

function failedHeadline(id: StepId, detail: string): string {
  const shared = failedStepSentence(id, detail);
  // a named cause (changed after signing, revoked) is more use than the page's general words
  return shared !== failedStepSentence(id) ? shared : (PAGE_FAILED[id] ?? shared);
}

export function bannerOf(v: Verdict, qrHash?: string): Banner {
  const hash = String(v.receipt?.receiptHash ?? '');
  if (qrHash && !v.unreadable && hash !== qrHash) {
    const detail = `The QR code names receipt ${qrHash}; this file is receipt ${hash || '(none)'}. Ask the sender for the receipt the QR code belongs to.`;
    return { verdict: 'rejected', headline: QR_MISMATCH, detail, qrMismatch: true };
  }
  if (!v.authentic) {
    const id = v.failedStep ?? 'format';
    const failed = v.steps.find((s) => s.id === id);
    const headline = failedHeadline(id, failed?.detail ?? '');
    const detail = `Failed step: ${id}. ${sentence(failed?.detail ?? '')}`.trim();
    return { verdict: v.verdict, headline, detail };
  }
  // the colour is always the package's verdict; only the words are the page's
  return { ...authenticWords(v), verdict: v.verdict };
}

function authenticWords(v: Verdict): Omit<Banner, 'verdict'> {
  const decision = v.decision?.decision ?? '';
  const current = v.currentStatus;
  if (current.state === 'revoked') {
    const detail = `Revoked on ${current.revokedAt ?? '?'} by ${current.revokedBy ?? '?'}. A revoked receipt no longer vouches for anything.`;
    return { headline: 'This receipt was revoked: do not rely on it', detail };
  }
  if (decision === 'BLOCK') {
    const detail =
      'The receipt is genuine, and it records that the checks failed. See the reasons below.';
    return { headline: 'Genuine receipt, but the checks failed (BLOCK): do not proceed', detail };
  }
  if (decision === 'FLAG') {
    const detail =
      'The receipt is genuine, and it records gaps in the evidence. Review the reasons below before relying on it.';
    return { headline: 'Genuine receipt, but the checks found gaps (FLAG)', detail };
  }
  if (decision !== 'ALLOW') {
    const detail = `The receipt is genuine, but its decision "${decision}" is not one this page knows.`;
    return { headline: 'Genuine receipt with an unknown decision', detail };
  }
  if (current.state !== 'active') {
    const detail = `The checks passed, but whether it was revoked since is not known: ${current.detail}.`;
    return { headline: 'Genuine receipt, but its current status is not confirmed', detail };
  }
  const logged = v.steps.some((s) => s.id === 'log-inclusion' && s.status === 'PASS');
  const detail = `Signed by this service and unaltered${logged ? ', recorded in its public log' : ''}; the checks passed and it has not been revoked.`;
  return { headline: 'Genuine receipt: the checks passed and it is in force', detail };
}
