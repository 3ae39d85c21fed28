import { describe, expect, it } from 'vitest';
import { reasonText } from '@verification-receipts/verify/internals';
import { KNOWN_REASONS } from '../../packages/verify/src/reasons.js';
import { CHECK_REASONS } from '../../src/receipts/checks/catalogue.js';

/**
 * The verifier explains each reason label a receipt can carry, from its own table (the package
 * cannot import the service). This keeps the table and the service's catalogue in step: a label
 * the service starts to emit without a meaning in the verifier fails here.
 */
describe("the verifier's reason meanings and the service's catalogue", () => {
  const emitted: string[] = [...new Set<string>(Object.values(CHECK_REASONS).flat())].sort();

  it('every label in the catalogue has a plain meaning in the verifier', () => {
    const missing = emitted.filter((label) => !KNOWN_REASONS.includes(label));
    expect(missing).toEqual([]);
    for (const label of emitted) {
      expect(reasonText(label), label).not.toBe(label);
      expect(reasonText(label), label).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('the verifier explains no label the service does not emit', () => {
    expect(KNOWN_REASONS.filter((label) => !emitted.includes(label))).toEqual([]);
  });
});
