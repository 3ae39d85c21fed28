import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPdfRevisions } from '../../src/pdf/revision-check.js';
import { fixtureBytes } from '../helpers.js';
import { appendRevision, withEntry, objectBody, lastTrailer } from './incremental.js';

/**
 * The revision reader on mutated receipt PDFs: byte flips, truncations, splices of one file into
 * another, runs of a repeated byte and overwritten numbers near the cross-reference sections.
 * Whatever the bytes, it answers (a typed result, never a throw) within a bounded time.
 */

const receipt = fixtureBytes('receipt.pdf');
const block = fixtureBytes('receipt-block.pdf');
const root = Number(lastTrailer(receipt).root.split(' ')[0]);
const hidden = appendRevision(receipt, {
  objects: { [root]: withEntry(objectBody(receipt, root), 'AcroForm') },
});
const seeds = [receipt, block, hidden];

const seed = fc.constantFrom(...seeds);

/** The bytes from the last `xref` on: where most of the reader's decisions are made. */
const tailStart = (pdf: Uint8Array): number =>
  Buffer.from(pdf).lastIndexOf('xref', undefined, 'latin1');

const mutation = fc.oneof(
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    value: fc.integer({ min: 0, max: 255 }),
    nearTail: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.nat(),
    from: fc.nat(),
    length: fc.nat(4096),
    other: seed,
  }),
  fc.record({
    kind: fc.constant('repeat' as const),
    at: fc.nat(),
    byte: fc.constantFrom(0x5b, 0x3c, 0x28, 0x30, 0x39, 0x20),
    count: fc.integer({ min: 1, max: 20_000 }),
  }),
  fc.record({
    kind: fc.constant('number' as const),
    at: fc.nat(),
    digits: fc.stringMatching(/^[0-9]{1,12}$/),
  }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function apply(pdf: Uint8Array, m: Mutation): Uint8Array {
  const out = Buffer.from(pdf);
  const pick = (n: number, near = false): number => {
    const from = near ? Math.max(0, tailStart(pdf)) : 0;
    return from + (n % Math.max(1, out.length - from));
  };
  switch (m.kind) {
    case 'flip':
      out[pick(m.at, m.nearTail)] = m.value;
      return new Uint8Array(out);
    case 'truncate':
      return new Uint8Array(out.subarray(0, pick(m.at)));
    case 'splice': {
      const start = m.from % Math.max(1, m.other.length);
      const piece = m.other.subarray(start, start + m.length);
      const at = pick(m.at);
      return new Uint8Array(Buffer.concat([out.subarray(0, at), piece, out.subarray(at)]));
    }
    case 'repeat': {
      const at = pick(m.at);
      return new Uint8Array(
        Buffer.concat([out.subarray(0, at), Buffer.alloc(m.count, m.byte), out.subarray(at)]),
      );
    }
    case 'number': {
      const at = pick(m.at, true);
      return new Uint8Array(
        Buffer.concat([out.subarray(0, at), Buffer.from(m.digits), out.subarray(at)]),
      );
    }
  }
}

describe('the revision reader on mutated receipts', () => {
  it('never throws and answers within a bounded time', async () => {
    await fc.assert(
      fc.asyncProperty(
        seed,
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (pdf, mutations) => {
          const bytes = mutations.reduce(apply, pdf);
          const started = performance.now();
          const result = await checkPdfRevisions(bytes);
          expect(performance.now() - started).toBeLessThan(2_000);
          expect(typeof result.present).toBe('boolean');
          if (result.present && result.ok) {
            // a pass needs the signature to verify: only bytes outside what it signs may differ
            expect(result.certificate).toMatch(/^sha256:[0-9a-f]{64}$/);
          }
        },
      ),
      { numRuns: 300, seed: 4404 },
    );
  }, 120_000);

  it('never accepts a hidden signature, whatever one byte of its last revision becomes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.integer({ min: 0, max: 255 }), async (at, value) => {
        const bytes = Buffer.from(hidden);
        const from = receipt.length;
        bytes[from + (at % (hidden.length - from))] = value;
        const result = await checkPdfRevisions(new Uint8Array(bytes));
        expect(result.present && result.ok).toBe(false);
      }),
      { numRuns: 200, seed: 4405 },
    );
  }, 120_000);
});
