import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { OPTIONS } from '../../src/cli/options.js';

/**
 * The PDF certificate on the command line: pinned with --pdf-cert (PEM or DER), or endorsed by a
 * pinned receipt key; never by a key the log alone vouches for. And an unsigned PDF fails unless
 * --allow-unsigned-pdf. Status is not fetched here: where the CLI knows --offline (accepting an
 * unknown status), it is passed so an authentic ALLOW receipt exits 0.
 */
const fixtures = path.join(import.meta.dirname, '../fixtures');
const at = (name: string) => path.join(fixtures, name);
const offline = 'offline' in OPTIONS ? ['--offline'] : [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-trust-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--json'], {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  const report = out.length > 0 ? JSON.parse(out.join('\n')) : undefined;
  const step = report?.steps?.find((s: { id: string }) => s.id === 'pdf-signature');
  return { code, report, step, err: err.join('\n') };
}

/** The receipt PDF as rendered, before its signature's revision. */
function unsignedReceipt(): string {
  const pdf = fs.readFileSync(at('receipt.pdf'));
  const eof = pdf.indexOf('%%EOF', 0, 'latin1');
  const file = path.join(dir, 'unsigned.pdf');
  fs.writeFileSync(file, pdf.subarray(0, eof + '%%EOF\n'.length));
  return file;
}

describe('receipt-verify and the PDF certificate', () => {
  it('with only the log pinned, the receipt key does not vouch for the PDF certificate', async () => {
    const res = await run(at('receipt.pdf'), '--log-policy', at('log.policy'), ...offline);
    expect(res.code).toBe(1);
    expect(res.report.failedStep).toBe('pdf-signature');
    expect(res.step.detail).toContain('not a pinned key');
    const keyTrust = res.report.steps.find((s: { id: string }) => s.id === 'key-trust');
    expect(keyTrust.status).toBe('PASS'); // the receipt itself is proved by the log
  });

  it('with the log and the published PDF certificate pinned, the genuine receipt passes', async () => {
    const res = await run(
      at('receipt.pdf'),
      '--log-policy',
      at('log.policy'),
      '--pdf-cert',
      at('pdf-signing-cert.pem'),
      ...offline,
    );
    expect(res.step.status, res.step.detail).toBe('PASS');
    expect(res.step.detail).toContain('the pinned certificate');
    expect(res.report.authentic).toBe(true);
    expect(res.code).toBe(0);
  });

  it('reads a DER certificate too, and refuses a file that is not one', async () => {
    const der = new X509Certificate(fs.readFileSync(at('pdf-signing-cert.pem'))).raw;
    const derFile = path.join(dir, 'cert.der');
    fs.writeFileSync(derFile, der);
    const res = await run(
      at('receipt.pdf'),
      '--log-policy',
      at('log.policy'),
      '--pdf-cert',
      derFile,
      ...offline,
    );
    expect(res.step.status).toBe('PASS');
    const bad = await run(
      at('receipt.pdf'),
      '--jwks',
      at('jwks.json'),
      '--pdf-cert',
      at('jwks.json'),
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not an X.509 certificate');
  });

  it('another pinned PDF certificate does not stand in for the endorsement', async () => {
    const other = path.join(dir, 'other.pem');
    fs.writeFileSync(other, OTHER_CERT);
    const res = await run(
      at('receipt.pdf'),
      '--log-policy',
      at('log.policy'),
      '--pdf-cert',
      other,
      ...offline,
    );
    expect(res.code).toBe(1);
    expect(res.report.failedStep).toBe('pdf-signature');
  });

  it('an unsigned PDF fails, and passes with a warning only with --allow-unsigned-pdf', async () => {
    const file = unsignedReceipt();
    const res = await run(file, '--jwks', at('jwks.json'), ...offline);
    expect(res.code).toBe(1);
    expect(res.step.status).toBe('FAIL');
    expect(res.step.detail).toContain('no PAdES signature');
    const allowed = await run(file, '--jwks', at('jwks.json'), '--allow-unsigned-pdf', ...offline);
    expect(allowed.step.status).toBe('WARN');
    expect(allowed.step.detail).toContain('made before receipts were signed');
    expect(allowed.report.authentic).toBe(true);
    expect(allowed.code).toBe(0);
  });
});

/** A self-issued certificate of another party (openssl req -x509, P-256). */
const OTHER_CERT = `-----BEGIN CERTIFICATE-----
MIIBkzCCATmgAwIBAgIUcEKGymlAWXlrBck+oN62C0S8lAwwCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwUTWFsbG9yeSBQREYgcmVjZWlwdHMwHhcNMjYxMTI4MDM1ODQ3
WhcNMzYxMTI1MDM1ODQ3WjAfMR0wGwYDVQQDDBRNYWxsb3J5IFBERiByZWNlaXB0
czBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABLdTfwTT64j9SmToNseNNbYBreu3
TEkfwrXfV9nqQAsejwKUfacFMfKmCwyhY61y4K3a5//a4dyIaLKOBU3bloCjUzBR
MB0GA1UdDgQWBBSIWENU1y9v+AwC6mdM5OEyCHOmqzAfBgNVHSMEGDAWgBSIWENU
1y9v+AwC6mdM5OEyCHOmqzAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gA
MEUCIQDY+n7iOtQNT89P8QbnYw7910Mxd1fKnESL4Uh3M8CzyAIgJ5hsvuGlNMJh
1R7rX0xgjJJigQa9EH5G0wRRk4qOwT8=
-----END CERTIFICATE-----
`;
