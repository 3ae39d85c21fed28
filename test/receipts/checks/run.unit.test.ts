import { describe, expect, it } from 'vitest';
import {
  decide,
  reasonsOf,
  RON_CHECK_ORDER,
  runRonChecks,
} from '../../../src/receipts/checks/index.js';
import type { CheckOutcome } from '../../../src/receipts/types.js';
import { context, profile, request, SAMPLE_LISTS_DIR } from './helpers.js';
import { loadScreeningLists } from '../../../src/files/screening-lists.js';

const outcome = (checkId: string, status: CheckOutcome['status'], reason?: string): CheckOutcome =>
  reason === undefined ? { checkId, status } : { checkId, status, reason };

describe('runRonChecks', () => {
  it('runs every check of ron-standard-v1 in the documented order; a clean request is ALLOW', async () => {
    const outcomes = await runRonChecks(await context());
    // doc.signatures runs under ron-pades-v1 only
    const v1 = RON_CHECK_ORDER.filter((id) => id !== 'doc.signatures');
    expect(outcomes.map((o) => o.checkId)).toEqual(v1);
    expect(outcomes.every((o) => o.status === 'PASS')).toBe(true);
    expect(decide(outcomes)).toBe('ALLOW');
    expect(reasonsOf(outcomes)).toEqual([]);
  });

  it('skips the checks a profile does not enable', async () => {
    const outcomes = await runRonChecks(await context({ profile: profile('ron-basic-v1') }));
    expect(outcomes.map((o) => o.checkId)).not.toContain('ocr.consistency');
    expect(outcomes).toHaveLength(RON_CHECK_ORDER.length - 2);
  });

  it('turns an opaque seal without document into FLAG with both reasons, in check order', async () => {
    const req = request((r) => {
      delete r.ron.sealScheme;
      delete r.doc.pdfBase64;
    });
    const outcomes = await runRonChecks(await context({ request: req, document: undefined }));
    expect(decide(outcomes)).toBe('FLAG');
    expect(reasonsOf(outcomes)).toEqual(['document_not_provided', 'seal_unverifiable']);
  });

  it('ron-pades-v1 without the document: doc.signatures FAILs document_not_provided, BLOCK', async () => {
    const req = request((r) => {
      r.policy.profile = 'ron-pades-v1';
      delete r.doc.pdfBase64;
    });
    const pades = profile('ron-pades-v1');
    const outcomes = await runRonChecks(
      await context({ request: req, document: undefined, profile: pades }),
    );
    expect(outcomes.find((o) => o.checkId === 'doc.signatures')).toMatchObject({
      status: 'FAIL',
      reason: 'document_not_provided',
    });
    expect(decide(outcomes)).toBe('BLOCK');
  });

  it('BLOCKs an unregistered notary with a strong screening hit, each reason once', async () => {
    const req = request((r) => {
      r.registryScreening = { subjectName: 'Bartholomew Nonesuch' };
    });
    const screening = await loadScreeningLists(SAMPLE_LISTS_DIR);
    const outcomes = await runRonChecks(
      await context({ request: req, notary: undefined, screening }),
    );
    expect(decide(outcomes)).toBe('BLOCK');
    expect(reasonsOf(outcomes)).toEqual(['notary_not_registered', 'screening_strong_match']);
  });
});

describe('decide', () => {
  it('is BLOCK on any FAIL, else FLAG on any WARN, else ALLOW', () => {
    expect(decide([])).toBe('ALLOW');
    expect(decide([outcome('a', 'PASS')])).toBe('ALLOW');
    expect(decide([outcome('a', 'PASS'), outcome('b', 'WARN', 'w')])).toBe('FLAG');
    expect(decide([outcome('a', 'WARN', 'w'), outcome('b', 'FAIL', 'f')])).toBe('BLOCK');
  });
});

describe('reasonsOf', () => {
  it('lists one label per failing or warning check, in order, without repeats', () => {
    const outcomes = [
      outcome('a', 'WARN', 'w'),
      outcome('b', 'PASS'),
      outcome('c', 'FAIL', 'f'),
      outcome('d', 'FAIL', 'w'),
    ];
    expect(reasonsOf(outcomes)).toEqual(['w', 'f']);
  });

  it('derives a label for an outcome that lacks one rather than dropping it', () => {
    expect(reasonsOf([outcome('x.custom', 'FAIL'), outcome('y.other', 'WARN')])).toEqual([
      'x_custom_fail',
      'y_other_warn',
    ]);
  });
});
