import { describe, expect, it } from 'vitest';
import { checkOcrConsistency } from '../../../src/receipts/checks/ocr-consistency.js';
import type { VerificationRequest } from '../../../src/contract/verification.js';
import { context, request } from './helpers.js';

const withOcr = (ocrData: VerificationRequest['ocrData']) =>
  request((r) => {
    r.ocrData = ocrData;
  });

describe('ocr.consistency', () => {
  it('passes with nothing to compare when no OCR notary fields are supplied', async () => {
    for (const ocrData of [undefined, { propertyAddress: '1 Main St', grantorName: 'A. Seller' }]) {
      const outcome = checkOcrConsistency(await context({ request: withOcr(ocrData) }));
      expect(outcome).toMatchObject({ checkId: 'ocr.consistency', status: 'PASS' });
      expect(outcome.details).toContain('nothing compared');
    }
  });

  it('passes when OCR agrees after normalisation (case, accents, punctuation, order, id format)', async () => {
    const ocr = withOcr({ notaryName: "O'CONNOR-SMITH, RENEE", notaryCommissionId: 'tx 1234567' });
    const outcome = checkOcrConsistency(await context({ request: ocr }));
    expect(outcome.status).toBe('PASS');
    expect(outcome.details).toContain('matches registered name');
    expect(outcome.details).toContain('matches ron.notaryId');
  });

  it('tolerates a single misread character in the name', async () => {
    const ocr = withOcr({ notaryName: 'Renee OConnor-Smlth' });
    expect(checkOcrConsistency(await context({ request: ocr })).status).toBe('PASS');
  });

  it('warns ocr_mismatch when the name differs from the registry', async () => {
    const ocr = withOcr({ notaryName: 'Rhonda Connors' });
    const outcome = checkOcrConsistency(await context({ request: ocr }));
    expect(outcome).toMatchObject({ status: 'WARN', reason: 'ocr_mismatch' });
    expect(outcome.details).toContain('differs from registered name');
  });

  it('warns ocr_mismatch when the commission id differs from ron.notaryId', async () => {
    const ocr = withOcr({ notaryCommissionId: 'TX-1234568' });
    const outcome = checkOcrConsistency(await context({ request: ocr }));
    expect(outcome).toMatchObject({ status: 'WARN', reason: 'ocr_mismatch' });
    expect(outcome.details).toContain('differs from ron.notaryId');
  });

  it('compares only the commission id when the notary is not registered', async () => {
    const ocr = withOcr({ notaryName: 'Anyone', notaryCommissionId: 'TX-1234567' });
    const outcome = checkOcrConsistency(await context({ request: ocr, notary: undefined }));
    expect(outcome.status).toBe('PASS');
    expect(outcome.details).toContain('not compared: notary not registered');
  });
});
