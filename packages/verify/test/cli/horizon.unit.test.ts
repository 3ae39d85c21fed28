import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { evidenceHorizon, horizonSentence } from '../../src/horizon.js';
import { step } from '../../src/steps.js';

/**
 * The evidence horizon: until when a verified receipt's evidence holds and which algorithms it
 * relied on. The end-to-end cases run the command line on recorded fixtures: receipt.pdf (its
 * signing certificate valid to 9999, ECDSA P-256) and bundle-timestamped.json, bundle.json with
 * an RFC 3161 token over its checkpoint made by `openssl ts -reply` with tsa-horizon.pem (an
 * ECDSA P-256 TSA certificate ending 2029-08-24).
 */
const at = (name: string) => path.join(import.meta.dirname, '../fixtures', name);
const validate = new Ajv2020.default({ strict: false }).compile(
  JSON.parse(fs.readFileSync(at('../../verify-result.schema.json'), 'utf8')),
);

async function run(...args: string[]) {
  const out: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: () => undefined });
  return { code, out };
}

/** The certificates' notAfter as `openssl x509 -noout -enddate` read them when recorded. */
const NOT_AFTER = {
  'pdf-signing-cert.pem': '9999-12-31T23:59:59.000Z',
  'tsa-horizon.pem': '2029-08-24T07:00:59.000Z',
};

describe('evidenceHorizon', () => {
  const pass = ['signature', 'checkpoint', 'pdf-signature', 'timestamps'].map((id) =>
    step(id as 'signature', 'PASS', ''),
  );

  it('is the earliest of the certificates and the algorithms relied on', () => {
    const h = evidenceHorizon({
      steps: pass,
      pdfSigner: { notAfter: new Date('2040-01-01T00:00:00Z'), algorithm: 'ECDSA P-256' },
      timestampAuthorities: [
        { name: 'TSA one', notAfter: new Date('2031-05-01T00:00:00Z'), algorithm: 'RSA' },
        { name: 'TSA two', notAfter: new Date('2030-02-01T00:00:00Z'), algorithm: 'RSA' },
      ],
    });
    expect(h.until).toBe('2030-02-01T00:00:00.000Z');
    expect(h.limitedBy).toBe('the time-stamp authority certificate (TSA two)');
    expect(h.algorithms.map((a) => [a.name, a.usedFor])).toEqual([
      ['Ed25519', ['receipt signature', 'log checkpoint']],
      ['ECDSA P-256', ['PDF signature']],
      ['RSA', ['time-stamps']],
    ]);
  });

  it('counts only what a passed step relied on', () => {
    const h = evidenceHorizon({
      steps: [step('signature', 'PASS', ''), step('timestamps', 'SKIP', '')],
      timestampAuthorities: [
        { name: 'TSA', notAfter: new Date('2027-01-01T00:00:00Z'), algorithm: 'RSA' },
      ],
      pdfSigner: { notAfter: new Date('2026-01-01T00:00:00Z'), algorithm: 'RSA' },
      keyValidUntil: new Date('2033-03-03T00:00:00Z'),
    });
    expect(h.until).toBe('2033-03-03T00:00:00.000Z');
    expect(h.limitedBy).toBe('the issuing key');
    expect(h.algorithms.map((a) => a.name)).toEqual(['Ed25519']);
  });

  it('gives ML-DSA-44 no end date, and Ed25519 the quantum horizon', () => {
    const h = evidenceHorizon({
      steps: [step('pq-signature', 'PASS', ''), step('witnesses', 'PASS', '')],
      witnessAlgorithms: ['ML-DSA-44'],
    });
    expect(h.until).toBeNull();
    expect(h.algorithms).toEqual([
      expect.objectContaining({
        name: 'ML-DSA-44',
        usedFor: ['receipt signature', 'witness cosignatures'],
      }),
    ]);
    expect(h.algorithms[0]?.until).toBeUndefined();
    expect(horizonSentence(h)).toBe('The evidence states no end date; it relies on ML-DSA-44.');
    const classic = evidenceHorizon({ steps: [step('signature', 'PASS', '')] });
    expect(classic.algorithms[0]?.horizon).toMatch(/cryptographically relevant quantum computer/);
    expect(classic.until).toBe('2035-12-31T23:59:59.000Z');
  });
});

describe('receipt-verify: the evidence horizon', () => {
  it('states the PDF signing certificate and the algorithms of a PDF receipt', async () => {
    const res = await run(at('receipt.pdf'), '--jwks', at('jwks.json'), '--offline', '--json');
    expect(res.code).toBe(0);
    const report = JSON.parse(res.out.join('\n'));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const certEnd = NOT_AFTER['pdf-signing-cert.pem'];
    expect(report.evidence.expiries).toContainEqual({
      what: 'the PDF signing certificate',
      until: certEnd,
    });
    expect(report.evidence.algorithms.map((a: { name: string }) => a.name).sort()).toEqual([
      'ECDSA P-256',
      'Ed25519',
    ]);
    // the certificate runs to 9999: the algorithms' end comes first
    expect(report.evidence.until).toBe('2035-12-31T23:59:59.000Z');
    expect(report.evidence.limitedBy).toBe('the algorithm Ed25519');
  });

  it("ends with the time-stamp authority's certificate when it ends first", async () => {
    const args = [at('bundle-timestamped.json'), '--jwks', at('jwks.json'), '--offline'];
    const json = await run(...args, '--tsa-cert', at('tsa-horizon.pem'), '--json');
    const report = JSON.parse(json.out.join('\n'));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.evidence.until).toBe(NOT_AFTER['tsa-horizon.pem']);
    expect(report.evidence.limitedBy).toBe(
      'the time-stamp authority certificate (Horizon Test TSA)',
    );
    const plain = await run(...args, '--tsa-cert', at('tsa-horizon.pem'));
    expect(plain.out).toContain(
      'The evidence holds until 2029-08-24, the end of the time-stamp authority certificate ' +
        '(Horizon Test TSA), or sooner if a quantum computer breaks Ed25519, ECDSA P-256; it ' +
        'relies on Ed25519, ECDSA P-256.',
    );
    // without the authority pinned its token is not relied on
    const unpinned = JSON.parse((await run(...args, '--json')).out.join('\n'));
    expect(unpinned.evidence.until).toBe('2035-12-31T23:59:59.000Z');
  });

  it('states no horizon for a receipt that is not authentic', async () => {
    const bundle = JSON.parse(fs.readFileSync(at('bundle.json'), 'utf8'));
    bundle.receipt.policyProfile = 'x';
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'h-')), 'b.json');
    fs.writeFileSync(file, JSON.stringify(bundle));
    const report = JSON.parse(
      (await run(file, '--jwks', at('jwks.json'), '--json')).out.join('\n'),
    );
    expect(report.authentic).toBe(false);
    expect(report.evidence).toBeUndefined();
  });
});
