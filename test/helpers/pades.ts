import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { children, readNode, readWhole, sequence } from '@verification-receipts/verify/internals';
import { TAG } from '../../packages/verify/src/timestamp/der.js';

/** The PDF's last signature: its /ByteRange, the signed bytes and the CMS DER of /Contents. */
export function signatureOf(pdf: Buffer): {
  byteRange: number[];
  signed: Buffer;
  cms: Buffer;
} {
  const text = pdf.toString('latin1');
  const matches = [...text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\]/g)];
  const last = matches.at(-1);
  if (!last) throw new Error('no /ByteRange in the PDF');
  const byteRange = last.slice(1, 5).map(Number);
  const [a = 0, b = 0, c = 0, d = 0] = byteRange;
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const hex = pdf.subarray(a + b + 1, c - 1).toString('latin1');
  const padded = Buffer.from(hex, 'hex');
  const cms = Buffer.from(readNode(padded).bytes); // the DER value; the zeros after it are padding
  return { byteRange, signed, cms };
}

/** Runs a tool; its exit code and output (a missing tool throws: tests using it must fail). */
export function run(tool: string, args: string[]): { status: number; out: string } {
  const res = spawnSync(tool, args, { encoding: 'utf8', timeout: 60_000 });
  if (res.error) throw res.error;
  return { status: res.status ?? -1, out: `${res.stdout}${res.stderr}` };
}

export function pdfsig(file: string): string {
  return run('pdfsig', [file]).out;
}

export function qpdfCheck(file: string): { status: number; out: string } {
  return run('qpdf', ['--check', file]);
}

/** `openssl cms -verify` of the PDF's signature over its byte ranges, trusting `certFile`. */
export function opensslCmsVerify(
  dir: string,
  pdf: Buffer,
  certFile: string,
): { status: number; out: string } {
  const { signed, cms } = signatureOf(pdf);
  const sig = path.join(dir, 'sig.der');
  const data = path.join(dir, 'signed.bin');
  fs.writeFileSync(sig, cms);
  fs.writeFileSync(data, signed);
  return run('openssl', [
    'cms',
    '-verify',
    '-binary',
    '-inform',
    'DER',
    '-in',
    sig,
    '-content',
    data,
    '-CAfile',
    certFile,
    '-purpose',
    'any',
    '-out',
    '/dev/null',
  ]);
}

export function openssl(args: string[], input?: string | Buffer): string {
  return execFileSync('openssl', args, { input, encoding: 'latin1', timeout: 60_000 });
}

/** The SignerInfo's signature value and its id-aa-signatureTimeStampToken (RFC 3161 appendix A). */
export function unsignedTimestampOf(cms: Buffer): { signature: Buffer; token: Buffer } {
  const [, wrapped] = sequence(readWhole(cms), 'ContentInfo');
  const signedData = sequence(children(wrapped!)[0], 'SignedData');
  const infos = sequence(signedData.at(-1), 'signerInfos', TAG.set);
  const info = sequence(infos[0], 'SignerInfo');
  const signature = Buffer.from(info[5]!.value);
  const unsigned = info[6];
  if (unsigned?.tag !== 0xa1) throw new Error('the signature has no unsigned attributes');
  const [attribute] = children(unsigned!);
  const [oid, values] = sequence(attribute, 'attribute');
  // 1.2.840.113549.1.9.16.2.14
  if (Buffer.from(oid!.value).toString('hex') !== '2a864886f70d010910020e')
    throw new Error('the unsigned attribute is not a signature time-stamp');
  return { signature, token: Buffer.from(children(values!)[0]!.bytes) };
}

/** Every signature of the PDF, oldest first: its signed bytes and the DER of its /Contents. */
export function signaturesOf(pdf: Buffer): { signed: Buffer; der: Buffer }[] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\]/g)].map((m) => {
    const [a = 0, b = 0, c = 0, d = 0] = m.slice(1, 5).map(Number);
    const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
    const hex = pdf.subarray(a + b + 1, c - 1).toString('latin1');
    return { signed, der: Buffer.from(readNode(Buffer.from(hex, 'hex')).bytes) };
  });
}
