import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReceiptRecord } from '../../storage/receipts.js';
import { receiptNotFound } from '../api-error.js';
import { principalOf } from '../plugins/auth.js';

/** The receipt `receiptId` if the caller's tenant owns it; 404 receipt_not_found otherwise. */
export async function visibleReceipt(
  app: FastifyInstance,
  request: FastifyRequest,
  receiptId: string,
): Promise<ReceiptRecord> {
  const record = await app.repos.receipts.find(principalOf(request).tenant, receiptId);
  if (!record) throw receiptNotFound();
  return record;
}
