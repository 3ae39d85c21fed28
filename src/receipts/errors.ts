import { ServiceError } from '../errors.js';

/** Why a receipt use case was refused (as opposed to a check that FAILs inside a receipt). */
export type ReceiptErrorCode =
  | 'receipt_not_found'
  | 'proof_artifact_required_for_anchor'
  | 'external_id_conflict'
  | 'policy_not_found'
  | 'revocation_unauthorized'
  | 'revocation_forbidden';

export class ReceiptError extends ServiceError<ReceiptErrorCode> {
  override name = 'ReceiptError';
}

export const receiptNotFound = (): ReceiptError =>
  new ReceiptError('receipt_not_found', 'no receipt with that id is visible to this API key');

/** The keyless status endpoint has no key and takes a hash: it answers for every tenant. */
export const receiptHashNotFound = (): ReceiptError =>
  new ReceiptError('receipt_not_found', 'no receipt with that hash is known to this service');
