import { describe, expect, it } from 'vitest';
import { RON_CHECK_ORDER } from '../../src/receipts/checks/catalogue.js';
import { decide, reasonsOf } from '../../src/receipts/checks/decision.js';
import {
  POLICY_PROFILES,
  resolveProfile,
  unknownProfileOutcome,
} from '../../src/receipts/policy.js';

describe('policy profiles', () => {
  it('resolves each defined profile by its exact id', () => {
    for (const profile of POLICY_PROFILES) expect(resolveProfile(profile.id)).toBe(profile);
    expect(POLICY_PROFILES.map((p) => p.id)).toEqual([
      'ron-standard-v1',
      'ron-strict-v1',
      'ron-basic-v1',
      'ron-pades-v1',
    ]);
  });

  it('returns undefined for unknown, differently cased or inherited names', () => {
    for (const id of ['ron-standard-v2', 'RON-STANDARD-V1', '', 'toString', '__proto__']) {
      expect(resolveProfile(id)).toBeUndefined();
    }
  });

  it('never lets an opaque seal pass and only enables known checks', () => {
    for (const profile of POLICY_PROFILES) {
      expect(['WARN', 'FAIL']).toContain(profile.opaqueSeal);
      for (const id of profile.checks) expect(RON_CHECK_ORDER).toContain(id);
    }
  });

  it('makes ron-strict-v1 strict on every knob', () => {
    expect(resolveProfile('ron-strict-v1')).toMatchObject({
      opaqueSeal: 'FAIL',
      requireDocument: true,
      requireScreening: true,
      interstateNotarization: 'WARN',
    });
  });

  it('pins every published profile: its checks and judgement rules never change', () => {
    // A new check or a changed rule belongs in a new profile id; never edit these expectations.
    const v1 = [
      'doc.hash',
      'ron.seal',
      'ron.commission',
      'property.jurisdiction',
      'ocr.consistency',
      'registry.screening',
      'request.timestamp',
    ];
    const published = Object.fromEntries(
      POLICY_PROFILES.map((p) => [p.id, { ...p, description: undefined }]),
    );
    expect(published).toEqual({
      'ron-standard-v1': {
        id: 'ron-standard-v1',
        description: undefined,
        checks: v1,
        opaqueSeal: 'WARN',
        requireDocument: false,
        requireScreening: false,
        interstateNotarization: 'PASS',
      },
      'ron-strict-v1': {
        id: 'ron-strict-v1',
        description: undefined,
        checks: v1,
        opaqueSeal: 'FAIL',
        requireDocument: true,
        requireScreening: true,
        interstateNotarization: 'WARN',
      },
      'ron-basic-v1': {
        id: 'ron-basic-v1',
        description: undefined,
        checks: v1.filter((id) => id !== 'ocr.consistency'),
        opaqueSeal: 'WARN',
        requireDocument: false,
        requireScreening: false,
        interstateNotarization: 'PASS',
      },
      'ron-pades-v1': {
        id: 'ron-pades-v1',
        description: undefined,
        checks: [...v1, 'doc.signatures'],
        opaqueSeal: 'WARN',
        requireDocument: true,
        requireScreening: false,
        interstateNotarization: 'PASS',
        documentSignatures: { unsigned: 'WARN', provesOpaqueSeal: true, ocrFromDocumentText: true },
      },
    });
  });

  it('is frozen, so no caller can loosen a profile at run time', () => {
    const profile = resolveProfile('ron-strict-v1');
    expect(Object.isFrozen(profile)).toBe(true);
    expect(Object.isFrozen(POLICY_PROFILES)).toBe(true);
  });
});

describe('unknownProfileOutcome', () => {
  it('is a single policy.profile FAIL that BLOCKs with unknown_policy_profile', () => {
    const outcome = unknownProfileOutcome('ron-gold-v9');
    expect(outcome).toMatchObject({
      checkId: 'policy.profile',
      status: 'FAIL',
      reason: 'unknown_policy_profile',
    });
    expect(outcome.details).toContain('"ron-gold-v9"');
    expect(outcome.details).toContain('ron-standard-v1');
    expect(decide([outcome])).toBe('BLOCK');
    expect(reasonsOf([outcome])).toEqual(['unknown_policy_profile']);
  });
});
