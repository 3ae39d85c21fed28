import { describe, expect, it } from 'vitest';
import { checkDocumentHash } from '../../../src/receipts/checks/document-hash.js';
import { documentOf } from '../../../src/receipts/commitment.js';
import { context, DOC_HASH, PDF_BYTES, profile, sha256 } from './helpers.js';

describe('doc.hash', () => {
  it('passes when the bytes hash to docHash and are a PDF', async () => {
    const outcome = checkDocumentHash(await context());
    expect(outcome).toMatchObject({ checkId: 'doc.hash', status: 'PASS' });
    expect(outcome.reason).toBeUndefined();
    expect(outcome.details).toContain(DOC_HASH);
  });

  it('warns document_not_provided without bytes, and fails it when the profile requires them', async () => {
    expect(checkDocumentHash(await context({ document: undefined }))).toMatchObject({
      status: 'WARN',
      reason: 'document_not_provided',
    });
    const strict = await context({ document: undefined, profile: profile('ron-strict-v1') });
    expect(checkDocumentHash(strict)).toMatchObject({
      status: 'FAIL',
      reason: 'document_not_provided',
    });
  });

  it('fails doc_hash_mismatch when the bytes are another document, naming both hashes', async () => {
    const other = Buffer.concat([PDF_BYTES, Buffer.from('% appended\n')]);
    const outcome = checkDocumentHash(await context({ document: documentOf(other) }));
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'doc_hash_mismatch' });
    expect(outcome.details).toContain(sha256(other));
    expect(outcome.details).toContain(DOC_HASH);
  });

  it.each([
    ['no %PDF- header', Buffer.from('hello world %%EOF\n')],
    ['a header not at byte 0', Buffer.from(' %PDF-1.7\n%%EOF\n')],
    [
      'no %%EOF near the end',
      Buffer.concat([Buffer.from('%PDF-1.4\n%%EOF\n'), Buffer.alloc(2048, 0x20)]),
    ],
    ['no bytes at all', Buffer.alloc(0)],
  ])('fails document_not_pdf for %s', async (_label, bytes) => {
    const outcome = checkDocumentHash(
      await context({ document: documentOf(bytes), docHash: sha256(bytes) }),
    );
    expect(outcome).toMatchObject({ status: 'FAIL', reason: 'document_not_pdf' });
  });

  it('never copies document bytes into details', async () => {
    const bytes = Buffer.from('%PDF-1.7\nSECRET-CONTENT\n%%EOF\n');
    const outcome = checkDocumentHash(
      await context({ document: documentOf(bytes), docHash: sha256(bytes) }),
    );
    expect(outcome.status).toBe('PASS');
    expect(outcome.details).not.toContain('SECRET');
  });
});
