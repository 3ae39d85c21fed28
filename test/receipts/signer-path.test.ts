import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSignerPath, parseCertificate } from '@verification-receipts/verify/internals';
import { CA_EXT, TestPki, type Issued } from '../helpers/test-pki.js';

/**
 * The path rule for a document's signer (`checkSignerPath`): the time-stamp rule's path, with a
 * leaf that must be for signing. Certificates made with `openssl ca`.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signer-path-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const pki = new TestPki(dir);
const root = pki.issue('root', 'Signer Root', { ext: CA_EXT });
const leaf = (name: string, ext: string[]): Issued =>
  pki.issue(name, name, { issuer: root, ext: ['basicConstraints = CA:FALSE', ...ext] });
const check = (cert: Issued) =>
  checkSignerPath(parseCertificate(cert.der), [], [parseCertificate(root.der)], new Date());

describe('checkSignerPath', () => {
  it('accepts a signing certificate issued by the anchor', async () => {
    const ok = leaf('Signer', ['keyUsage = critical,digitalSignature,nonRepudiation']);
    expect((await check(ok)).ok).toBe(true);
    const document = leaf('Documents', ['extendedKeyUsage = emailProtection']);
    expect((await check(document)).ok).toBe(true);
  });

  it('refuses a keyUsage without digitalSignature or nonRepudiation', async () => {
    const result = await check(leaf('Encipher', ['keyUsage = critical,keyEncipherment']));
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.reason).toContain('keyUsage without digitalSignature');
  });

  it('refuses an extended key usage without a document-signing purpose', async () => {
    const result = await check(leaf('Server', ['extendedKeyUsage = serverAuth']));
    expect(!result.ok && result.reason).toContain('is not for signing documents');
  });

  it('refuses a certificate the anchor did not issue', async () => {
    const other = pki.issue('other-root', 'Other Root', { ext: CA_EXT });
    const stranger = pki.issue('stranger', 'Stranger', {
      issuer: other,
      ext: ['basicConstraints = CA:FALSE'],
    });
    const result = await check(stranger);
    expect(!result.ok && result.reason).toContain('not pinned nor issued by a pinned certificate');
  });
});
