import { MODIFIED_AFTER_SIGNING } from './pdf/endorsement.js';
import type { Step, StepId } from './steps.js';

/**
 * What a failing or warning step means for a person who is not a developer: an escrow officer
 * reads "the document you gave is not the one this receipt is about", and the step's technical
 * detail (hashes, key ids, RFC numbers) follows for whoever checks the checker. The command line
 * and the /verify page both take their sentences from here, so the two say the same thing.
 */
const FAILED: Readonly<Record<StepId, string>> = {
  format: 'This file is not a receipt this verifier can read',
  'pdf-binding': "The PDF's printed page and the receipt attached to it do not belong together",
  'pdf-signature':
    'The PDF file was not signed by the service you trust, or was changed after signing',
  'canonical-form': 'The receipt was altered or damaged: its content is not in its signed form',
  'receipt-hash': 'The receipt was altered or damaged: its content does not match its fingerprint',
  'key-id': 'The receipt does not name the key that signed it correctly: it was altered or damaged',
  'key-trust': 'This receipt was not signed by the service you trust',
  signature: "The receipt's signature does not verify: it was altered or damaged",
  'pq-signature':
    "The receipt's post-quantum signature, which you asked for, is missing or does not verify",
  'log-inclusion': "The receipt is not proven to be in the service's public log",
  checkpoint: "The public log's signed record of its contents does not verify",
  witnesses: "Too few independent witnesses vouch for the public log's contents",
  artifact: 'The document you gave is not the one this receipt is about',
  'status-signature': "The receipt's current status could not be confirmed",
  status: "The receipt's current status is not one that keeps it in force",
  'status-age': "The receipt's status statement cannot say whether it is in force now",
  'log-consistency': "The service's public log does not agree with this receipt",
  timestamps: "The receipt's independent time-stamp does not match its log record",
  'dsse-payload-type': 'The attestation is not a receipt attestation this verifier reads',
  'dsse-signature': "The attestation's signature does not verify: it was altered or damaged",
  statement: 'The attestation does not state what a receipt attestation states',
  'vsa-subject': 'The attestation is not about the receipt it names',
};

const MODIFIED =
  'The PDF file was changed after it was signed: pages or attachments may have been added or altered';
const REVOKED = 'The receipt was revoked: it no longer vouches for anything';
const UNSIGNED_PDF = 'The PDF file is not signed as a whole: only the receipt inside it is checked';
const STATUS_UNCHECKED = "The receipt's current status could not be checked";
const STATUS_WARNED = "The service reports a problem next to this receipt's current status";
const TRUST_IGNORED =
  'Nothing you trust vouches for the key that signed this receipt: the file is checked for changes, not for who made it';
const STATUS_OLD = 'The status statement is too old to say whether the receipt is in force now';

/** The plain sentence of a failed step (no full stop): the first failure names the verdict. */
export function failedStepSentence(id: StepId, detail = ''): string {
  if (id === 'pdf-signature' && detail.startsWith(MODIFIED_AFTER_SIGNING)) return MODIFIED;
  if (id === 'status' && detail.startsWith('revoked')) return REVOKED;
  return FAILED[id] ?? 'This is not a genuine receipt: it was altered or damaged';
}

/** The plain sentence of a FAIL or WARN step; undefined for PASS and SKIP. */
export function plainStep(s: Step): string | undefined {
  if (s.status === 'FAIL') return failedStepSentence(s.id, s.detail);
  if (s.status !== 'WARN') return undefined;
  if (s.id === 'pdf-signature') return UNSIGNED_PDF;
  if (s.id === 'key-trust') return TRUST_IGNORED;
  if (s.id === 'status-age') return STATUS_OLD;
  if (s.id === 'status') return s.detail.startsWith('active') ? STATUS_WARNED : STATUS_UNCHECKED;
  return `${failedStepSentence(s.id, s.detail)} (a warning, not a failure)`;
}
