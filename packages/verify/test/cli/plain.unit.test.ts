import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { failedStepSentence } from '../../src/plain.js';
import type { StepId } from '../../src/steps.js';
import { fixtureBytes, type Json } from '../helpers.js';
import { appendRevision, lastTrailer, objectBody, withEntry } from '../pdf/incremental.js';

/**
 * The command line in plain words: the verdict line and each failing step say what happened in a
 * sentence without jargon, and the technical detail follows, indented, on its own line.
 */
const fixtures = path.join(import.meta.dirname, '../fixtures');
const at = (name: string) => path.join(fixtures, name);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-plain-'));
const jwks = ['--jwks', at('jwks.json')];

async function run(...args: string[]) {
  const out: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => out.push(l) });
  const verdictAt = out.findLastIndex((l) => /^[A-Z]/.test(l));
  return {
    code,
    out: out.join('\n'),
    verdict: out[verdictAt] ?? '',
    technical: out[verdictAt + 1] ?? '',
  };
}

/** Words a person relying on a receipt should not have to know to read the verdict. */
const JARGON = /\bkid\b|PAdES|RFC|SHA-256|JWKS|canonical|thumbprint|Ed25519|checkpoint/;

describe('plain words first, the technical detail under them', () => {
  it('a document that is not the receipt subject', async () => {
    const other = path.join(dir, 'other.pdf');
    fs.writeFileSync(other, 'not the deed');
    const hex = createHash('sha256').update('not the deed').digest('hex');
    const res = await run(at('bundle.json'), ...jwks, '--artifact', other, '--offline');
    expect(res.code, res.out).toBe(1);
    expect(res.verdict).toBe(
      'NOT VERIFIED: the document you gave is not the one this receipt is about.',
    );
    expect(res.technical).toMatch(
      new RegExp(
        `^ {2}artifact: the file's SHA-256 is sha256:${hex}, the receipt is about sha256:[0-9a-f]{64}$`,
      ),
    );
    expect(res.out).toMatch(
      /^FAIL {2}artifact +The document you gave is not the one this receipt is about\.\n {23}the file's SHA-256 is sha256:/m,
    );
  });

  it('a BLOCK receipt: each reason label with its meaning', async () => {
    const res = await run(at('bundle-block.json'), ...jwks, '--offline');
    expect(res.code, res.out).toBe(3);
    expect(res.out).toMatch(/^decision BLOCK \(failure\), reasons: seal_claim_mismatch$/m);
    expect(res.out).toContain(
      "\n  seal_claim_mismatch: The notary's seal is genuine but does not match this request: it names another notary, state or document.\n",
    );
    expect(res.verdict).toBe(
      'AUTHENTIC, DECISION BLOCK: the receipt is genuine, and it records that the checks failed: do not proceed.',
    );
    expect(res.technical).toBe('  the checks failed (seal_claim_mismatch)');
    const json = JSON.parse(
      (await run(at('bundle-block.json'), ...jwks, '--offline', '--json')).out,
    );
    expect(json.summary).toBe('AUTHENTIC, DECISION BLOCK: the checks failed (seal_claim_mismatch)');
    expect(json.plain).toEqual({
      summary: res.verdict,
      technical: 'the checks failed (seal_claim_mismatch)',
      reasons: [
        {
          label: 'seal_claim_mismatch',
          meaning: expect.stringMatching(/^The notary's seal is genuine but does not match/),
        },
      ],
    });
  });

  it('a revoked receipt', async () => {
    const res = await run(
      at('bundle-revoked.json'),
      ...jwks,
      '--status',
      at('status-revoked.json'),
    );
    expect(res.code, res.out).toBe(3);
    expect(res.verdict).toBe(
      'AUTHENTIC BUT REVOKED: the receipt is genuine, but it was revoked: do not rely on it.',
    );
    expect(res.technical).toMatch(/^ {2}revoked at \S+ by issuer escrow-co/);
  });

  it('a receipt signed by a key the relying party did not pin', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const key = path.join(dir, 'other-key.pem');
    fs.writeFileSync(key, publicKey.export({ type: 'spki', format: 'pem' }));
    const res = await run(at('bundle.json'), '--key', key, '--offline');
    expect(res.code, res.out).toBe(1);
    expect(res.verdict).toBe('NOT VERIFIED: this receipt was not signed by the service you trust.');
    expect(res.verdict).not.toMatch(JARGON);
    expect(res.technical).toMatch(/^ {2}key-trust: \S/);
    expect(res.out).toMatch(
      /^FAIL {2}key-trust +This receipt was not signed by the service you trust\.\n {23}\S/m,
    );
    const json = JSON.parse(
      (await run(at('bundle.json'), '--key', key, '--offline', '--json')).out,
    );
    const step = json.steps.find((s: Json) => s.id === 'key-trust');
    expect(step.plain).toBe('This receipt was not signed by the service you trust.');
    expect(json.steps.find((s: Json) => s.id === 'format').plain).toBeUndefined();
  });

  it('a signed PDF with a revision appended after signing (modified_after_signing)', async () => {
    const pdf = fixtureBytes('receipt.pdf');
    const root = Number(lastTrailer(pdf).root.split(' ')[0]);
    const forged = appendRevision(pdf, {
      objects: { [root]: withEntry(objectBody(pdf, root), 'AcroForm') },
    });
    const file = path.join(dir, 'modified.pdf');
    fs.writeFileSync(file, forged);
    const res = await run(file, ...jwks, '--pdf-cert', at('pdf-signing-cert.pem'), '--offline');
    expect(res.code, res.out).toBe(1);
    expect(res.verdict).toBe(
      'NOT VERIFIED: the PDF file was changed after it was signed: pages or attachments may have been added or altered.',
    );
    expect(res.verdict).not.toMatch(JARGON);
    expect(res.technical).toMatch(
      /^ {2}pdf-signature: modified_after_signing: the file was changed after it was signed: .*revision 3 of 3/,
    );
  });

  it('no failed step speaks jargon in its plain sentence', () => {
    const ids: StepId[] = [
      'format',
      'pdf-binding',
      'pdf-signature',
      'canonical-form',
      'receipt-hash',
      'key-id',
      'key-trust',
      'signature',
      'log-inclusion',
      'checkpoint',
      'witnesses',
      'artifact',
      'status-signature',
      'status',
      'status-age',
      'log-consistency',
      'timestamps',
      'dsse-payload-type',
      'dsse-signature',
      'statement',
      'vsa-subject',
    ];
    for (const id of ids) expect(failedStepSentence(id), id).not.toMatch(JARGON);
  });
});
