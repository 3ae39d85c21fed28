import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyArtifact } from '../src/artifact.js';
import { main } from '../src/cli/main.js';
import { documentSignatureLines, MAX_DOCUMENT_BYTES } from '../src/document/report.js';
import { verifyBundle } from '../src/verify.js';
import { fixture, fixtureBytes, pinnedKeys, type Json } from './helpers.js';

/**
 * The document itself (`--artifact`): the file the relying party holds must hash to the digest
 * the receipt is about, byte for byte. test/fixtures/deed.pdf is the document the recorded
 * receipts were issued over; its copy with one byte changed has the same length and another
 * SHA-256.
 */
const fixtures = path.join(import.meta.dirname, 'fixtures');
const deed = fixtureBytes('deed.pdf');
const changed = Uint8Array.from(deed, (b, i) => (i === deed.length >> 1 ? b ^ 1 : b));
const receipt = (): Json => fixture<Json>('bundle.json').receipt;
/** The hex SHA-256 the receipt is about (its `subject.docHash`, without `sha256:`). */
const docHash = (): string => String(receipt().subject.docHash).slice('sha256:'.length);

describe('verifyArtifact', () => {
  it('passes the document the receipt is about, given as bytes or as its SHA-256', () => {
    expect(verifyArtifact(deed, receipt())).toMatchObject({ id: 'artifact', status: 'PASS' });
    expect(verifyArtifact({ sha256: docHash() }, receipt()).status).toBe('PASS');
  });

  it('fails a document of the same length with one byte changed, and a digest one digit off', () => {
    expect(changed.length).toBe(deed.length);
    const step = verifyArtifact(changed, receipt());
    expect(step.status).toBe('FAIL');
    expect(step.detail).toMatch(/^the file's SHA-256 is sha256:[0-9a-f]{64}, the receipt is about/);
    const digest = docHash();
    const off = `${digest.slice(0, -1)}${digest.endsWith('0') ? '1' : '0'}`;
    expect(verifyArtifact({ sha256: off }, receipt()).status).toBe('FAIL');
    const v = verifyBundle(fixture('bundle.json'), {
      trust: { keys: pinnedKeys() },
      artifact: changed,
    });
    expect(v).toMatchObject({ authentic: false, failedStep: 'artifact', exitCode: 1 });
  });
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-artifact-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const run = async (file: string) => {
  const out: string[] = [];
  const args = [path.join(fixtures, 'bundle.json'), '--jwks', path.join(fixtures, 'jwks.json')];
  const code = await main([...args, '--artifact', file, '--offline'], {
    out: (l) => out.push(l),
    err: (l) => out.push(l),
  });
  return { code, out: out.join('\n') };
};

describe('receipt-verify --artifact', () => {
  it('exit 0 for the deed itself; exit 1 for the same-length copy with one byte changed', async () => {
    const ok = await run(path.join(fixtures, 'deed.pdf'));
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toMatch(
      /^PASS {2}artifact +the file's SHA-256 is the receipt's subject.docHash/m,
    );
    const other = path.join(dir, 'deed.pdf');
    fs.writeFileSync(other, changed);
    const res = await run(other);
    expect(res.code, res.out).toBe(1);
    expect(res.out).toMatch(
      /^FAIL {2}artifact +The document you gave is not the one this receipt is about\./m,
    );
  });
});

describe("the document's own signatures, under the verdict", () => {
  it('lists none for a file that is not a PDF, and says why for one it does not read', async () => {
    expect(await documentSignatureLines(new TextEncoder().encode('{"a":1}'), 'a.json')).toEqual([]);
    expect(await documentSignatureLines(deed, 'deed.pdf', MAX_DOCUMENT_BYTES + 1)).toEqual([
      'document deed.pdf: its signatures are not read: it is larger than 16 MiB',
    ]);
    const hostile = new TextEncoder().encode(`%PDF-1.7\n${'['.repeat(50_000)}\n%%EOF\n`);
    expect(await documentSignatureLines(hostile, 'h.pdf')).toEqual([
      expect.stringMatching(/^document h\.pdf: its signatures cannot be read \(/),
    ]);
  });

  it('receipt-verify --artifact says the deed has no signature, the exit code the receipt’s', async () => {
    const ok = await run(path.join(fixtures, 'deed.pdf'));
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain('document deed.pdf: no digital signature');
  });

  it('a deed larger than the bound: its signatures are said not to be read, nothing else changes', async () => {
    const big = path.join(dir, 'big.pdf');
    fs.writeFileSync(big, Buffer.concat([Buffer.from(deed), Buffer.alloc(MAX_DOCUMENT_BYTES)]));
    const res = await run(big);
    // another file than the receipt's subject: the artifact step fails, as for any other file
    expect(res.code, res.out).toBe(1);
    expect(res.out).toContain(
      'document big.pdf: its signatures are not read: it is larger than 16 MiB',
    );
  });
});
