/**
 * The steps a verification runs, each reported PASS, FAIL, WARN or SKIP with one sentence.
 * docs/verification.md defines every step; the ids are stable (scripts match on them).
 */
export type StepId =
  | 'format'
  | 'pdf-binding'
  | 'pdf-signature'
  | 'canonical-form'
  | 'receipt-hash'
  | 'key-id'
  | 'key-trust'
  | 'signature'
  | 'pq-signature'
  | 'log-inclusion'
  | 'checkpoint'
  | 'witnesses'
  | 'artifact'
  | 'status-signature'
  | 'status'
  | 'status-age'
  | 'log-consistency'
  | 'timestamps'
  | 'dsse-payload-type'
  | 'dsse-signature'
  | 'statement'
  | 'vsa-subject';

export type StepStatus = 'PASS' | 'FAIL' | 'WARN' | 'SKIP';

export interface Step {
  id: StepId;
  status: StepStatus;
  detail: string;
}

export const step = (id: StepId, status: StepStatus, detail: string): Step => ({
  id,
  status,
  detail,
});
