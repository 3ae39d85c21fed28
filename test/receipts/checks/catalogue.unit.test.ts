import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_REASONS } from '../../../src/receipts/checks/catalogue.js';
import { verifySeal } from '../../../src/receipts/seal.js';
import { REPO_ROOT } from './helpers.js';

const docs = readFileSync(path.join(REPO_ROOT, 'docs/checks.md'), 'utf8');

/** `checkId | reason` pairs from the reason tables of docs/checks.md. */
function documentedPairs(): string[] {
  const row = /^\|\s*`([a-z]+\.[a-z]+)`\s*\|\s*`([a-z_]+)`\s*\|/gm;
  return [...docs.matchAll(row)].map(([, checkId, reason]) => `${checkId} ${reason}`);
}

describe('docs/checks.md', () => {
  it('documents exactly the reason labels each check can emit', () => {
    const catalogued = Object.entries(CHECK_REASONS).flatMap(([checkId, reasons]) =>
      reasons.map((reason) => `${checkId} ${reason}`),
    );
    expect(documentedPairs().sort()).toEqual(catalogued.sort());
  });

  it('uses only snake_case labels', () => {
    for (const reasons of Object.values(CHECK_REASONS)) {
      for (const reason of reasons) expect(reason).toMatch(/^[a-z]+(_[a-z]+)+$/);
    }
  });

  it('carries a seal example that verifies with the key shown next to it', () => {
    const key = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/.exec(docs)?.[0] ?? '';
    const seal = /^(eyJ[\w-]+\.[\w-]+\.[\w-]+)$/m.exec(docs)?.[1] ?? '';
    expect(verifySeal(seal, key)).toEqual({
      ok: true,
      claims: {
        notaryId: 'TX-1234567',
        commissionState: 'TX',
        docHash: 'sha256:7b90830743ea12df73f6631d1437ab6d80f6f972b642bb6dc6bfda3c203fcc0f',
        iat: 1750000000,
      },
    });
  });
});
