import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { pdfsig, qpdfCheck, run, signaturesOf, unsignedTimestampOf } from './pades.js';

/** Every time-stamp token of a PAdES B-LTA file, each with the bytes it stamps, oldest first. */
export function tokensOf(pdf: Buffer): { data: Buffer; token: Buffer }[] {
  const [service, ...stamps] = signaturesOf(pdf);
  if (!service) throw new Error('no signature');
  const { signature, token } = unsignedTimestampOf(service.der);
  return [{ data: signature, token }, ...stamps.map((s) => ({ data: s.signed, token: s.der }))];
}

/**
 * A B-LTA file checked by independent tools. pdfsig (poppler 22.12) validates the service's
 * signature and reads each document time-stamp (its authority, its byte range), but does not
 * validate ETSI.RFC3161 tokens ("Unable to validate this type of signature"): `openssl ts
 * -verify` checks every token, the signature time-stamp and each archive one, over exactly what
 * it stamps, trusting `caFile`. `stampers`: each archive time-stamp's authority, oldest first.
 */
export function expectLongTermValid(
  pdf: Buffer,
  o: { dir: string; name: string; caFile: string; stampers: string[] },
): void {
  const write = (name: string, bytes: Buffer) => {
    const file = path.join(o.dir, `${o.name}-${name}`);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const file = write('file.pdf', pdf);
  const report = pdfsig(file);
  const sections = report.split(/^Signature #\d+:$/m).slice(1);
  expect(sections, report).toHaveLength(o.stampers.length + 1);
  const [service, ...archive] = sections;
  expect(service).toContain('Signature Type: ETSI.CAdES.detached');
  expect(service).toContain('Signature Validation: Signature is Valid.');
  for (const [i, stamp] of archive.entries()) {
    expect(stamp).toContain(`Signature Field Name: Archive time-stamp ${i + 1}`);
    expect(stamp).toContain(`Signer Certificate Common Name: ${o.stampers[i] ?? ''}\n`);
    expect(stamp).not.toMatch(/Signature Validation: Signature is Invalid/);
  }
  expect(archive.at(-1)).toContain('Total document signed');
  const check = qpdfCheck(file);
  expect(check.out).toContain('No syntax or stream encoding errors found');
  const tokens = tokensOf(pdf);
  expect(tokens).toHaveLength(o.stampers.length + 1);
  for (const [i, t] of tokens.entries()) {
    const args = ['ts', '-verify', '-data', write(`${i}.bin`, t.data)];
    const res = run('openssl', [
      ...args,
      '-in',
      write(`${i}.tsr`, t.token),
      '-token_in',
      '-CAfile',
      o.caFile,
    ]);
    expect(res.out, `token ${i}`).toContain('Verification: OK');
  }
}
