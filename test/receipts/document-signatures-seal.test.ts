import { generateKeyPairSync } from 'node:crypto';
import { describe, expect } from 'vitest';
import { createSeal } from '../../src/receipts/seal.js';
import { deedRequest, it } from '../helpers/deed-receipts.js';
import { NOTARY_ID } from '../helpers/notarial-deeds.js';

/**
 * `doc.signatures` and `ron.seal` together: an opaque seal passes on the proof of the deed's own
 * signature only for the document the request names, a SIM-ECDSA-v1 seal that is present must
 * verify whatever the deed's signature says, and `ron-standard-v1` runs no `doc.signatures`.
 */

describe('doc.signatures (ron-pades-v1) and the seal', () => {
  it('an opaque seal stays a WARN when the request names another document than the one signed', async ({
    deeds,
    pades,
  }) => {
    const payload = deedRequest(deeds.signed);
    payload.doc.docHash = `sha256:${'0'.repeat(64)}`;
    const { receipt, check } = await pades.issue(payload);
    expect(check('doc.signatures')?.status).toBe('PASS');
    expect(receipt.reasons).toEqual(['doc_hash_mismatch', 'seal_unverifiable']);
  });

  it('a SIM-ECDSA-v1 seal that is present must still verify', async ({ deeds, pades }) => {
    const payload = deedRequest(deeds.signed);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    payload.ron.sealScheme = 'SIM-ECDSA-v1';
    payload.ron.sealPayload = createSeal(
      { notaryId: NOTARY_ID, commissionState: 'TX', docHash: payload.doc.docHash },
      privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    );
    const { receipt, signatures } = await pades.issue(payload);
    expect(signatures?.status).toBe('PASS');
    expect(receipt.reasons).toEqual(['seal_invalid']);
  });

  it('leaves ron-standard-v1 as it was: no doc.signatures, an opaque seal WARNs', async ({
    deeds,
    pades,
  }) => {
    const { receipt, signatures, check } = await pades.issue(
      deedRequest(deeds.signed, 'ron-standard-v1'),
    );
    expect(signatures).toBeUndefined();
    expect(check('ron.seal')?.status).toBe('WARN');
    expect(receipt.checks.map((c) => c.checkId)).toEqual([
      'doc.hash',
      'ron.seal',
      'ron.commission',
      'property.jurisdiction',
      'ocr.consistency',
      'registry.screening',
      'request.timestamp',
    ]);
  });
});
