import { describe, expect, it } from 'vitest';
import { checkOcrConsistency } from '../../../src/receipts/checks/ocr-consistency.js';
import { notarialText } from '../../../src/receipts/notarial/certificate-text.js';
import type { DocumentEvidence } from '../../../src/receipts/notarial/evidence.js';
import { context, NOTARY, profile, request } from './helpers.js';

/**
 * Under `ron-pades-v1`, a request without OCR notary fields has them read from the text the
 * document prints (its notarial certificate), compared like OCR and reported in the details:
 * what was found and where, a mismatch a WARN, an unreadable text said rather than guessed.
 */
const read = (text: string): DocumentEvidence => ({
  kind: 'read',
  revisions: 1,
  signatures: [],
  timeStamps: [],
  text: { ok: true, text },
});
const pades = profile('ron-pades-v1');
const noOcr = request((r) => {
  delete r.ocrData;
});

describe('notarialText', () => {
  it('finds the name and commission number in the forms a notarial certificate prints them', () => {
    expect(notarialText('Notary Public: Jane Q Public\nCommission No. TX-1234567\n')).toEqual({
      notaryName: 'Jane Q Public',
      commissionId: 'TX-1234567',
    });
    expect(notarialText('Jane Q Public, Notary Public\nMy commission number: 77-A\n')).toEqual({
      notaryName: 'Jane Q Public',
      commissionId: '77-A',
    });
    // letters beyond ASCII and a typographic apostrophe, as a registry holds real names
    expect(notarialText('Renée O’Connor-Smith, Notary Public\n')).toEqual({
      notaryName: 'Renée O’Connor-Smith',
    });
    expect(notarialText('A deed of sale between two people.\n')).toEqual({});
  });

  it('reads at most 300 characters of a line', () => {
    expect(notarialText(`${' '.repeat(300)}Notary Public: Jane Q Public`)).toEqual({});
  });
});

describe('ocr.consistency from the document text (ron-pades-v1)', () => {
  it("compares what the document prints with the registry, and says it read the document's text", async () => {
    const text = `Notary Public: ${NOTARY.displayName}\nCommission No. ${NOTARY.notaryId}\n`;
    const outcome = checkOcrConsistency(
      await context({ request: noOcr, profile: pades, documentEvidence: read(text) }),
    );
    expect(outcome.status).toBe('PASS');
    expect(outcome.details).toContain(`document text commission id "${NOTARY.notaryId}" matches`);
    expect(outcome.details).toContain('document text notary name');
  });

  it('warns ocr_mismatch when the printed name or number is another notary’s', async () => {
    const text = 'Notary Public: John Roe\nCommission No. TX-7654321\n';
    const outcome = checkOcrConsistency(
      await context({ request: noOcr, profile: pades, documentEvidence: read(text) }),
    );
    expect(outcome).toMatchObject({ status: 'WARN', reason: 'ocr_mismatch' });
    expect(outcome.details).toContain('document text commission id "TX-7654321" differs from');
    expect(outcome.details).toContain('document text notary name "John Roe" differs from');
  });

  it('says why nothing was compared: no notary in the text, or a text it cannot read', async () => {
    const none = checkOcrConsistency(
      await context({ request: noOcr, profile: pades, documentEvidence: read('Deed.\n') }),
    );
    expect(none.status).toBe('PASS');
    expect(none.details).toContain('names no notary or commission number; nothing compared');
    const unreadable = checkOcrConsistency(
      await context({
        request: noOcr,
        profile: pades,
        documentEvidence: { kind: 'unreadable', reason: 'no startxref' },
      }),
    );
    expect(unreadable.details).toContain("the document's text cannot be read (no startxref)");
  });

  it('OCR fields sent in the request win over the text; other profiles never read the text', async () => {
    const text = 'Notary Public: John Roe\n';
    const sent = request((r) => {
      r.ocrData = { notaryName: NOTARY.displayName };
    });
    const withOcr = checkOcrConsistency(
      await context({ request: sent, profile: pades, documentEvidence: read(text) }),
    );
    expect(withOcr.status).toBe('PASS');
    expect(withOcr.details).toContain('OCR notary name');
    const standard = checkOcrConsistency(
      await context({ request: noOcr, documentEvidence: read(text) }),
    );
    expect(standard.details).toContain('no OCR notary name or commission id supplied');
  });
});
