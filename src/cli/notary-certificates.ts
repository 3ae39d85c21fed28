import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { parseCertificate } from '@verification-receipts/verify/internals';
import { CliError } from './context.js';

/**
 * Certificate files the operator gives the notary commands: PEM (one or several `CERTIFICATE`
 * blocks) or a single DER certificate. Each is read by Node's X.509 parser and by the reader that
 * `doc.signatures` uses, so a certificate the check could not read is refused here, not at
 * issuance.
 */

/** Largest certificate file read (a bundle of CA certificates is a few tens of KiB). */
const MAX_FILE_BYTES = 1024 * 1024;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

export interface ReadCertificate {
  /** DER, base64. */
  der: string;
  x509: X509Certificate;
}

export function readCertificates(file: string, flag: string): ReadCertificate[] {
  let bytes: Buffer;
  try {
    // the size first: a file is refused before it is read, not after
    if (fs.statSync(file).size > MAX_FILE_BYTES) throw new CliError(`${file} is larger than 1 MiB`);
    bytes = fs.readFileSync(file);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw new CliError(`cannot read ${file}`);
  }
  const text = bytes.toString('latin1');
  const blocks = text.includes('-----BEGIN') ? (text.match(PEM_BLOCK) ?? []) : [bytes];
  if (blocks.length === 0) throw new CliError(`${flag}: ${file} holds no PEM CERTIFICATE block`);
  return blocks.map((block, i) => {
    const where = blocks.length > 1 ? `certificate ${i + 1} of ${file}` : file;
    try {
      const x509 = new X509Certificate(block);
      parseCertificate(new Uint8Array(x509.raw));
      return { der: x509.raw.toString('base64'), x509 };
    } catch {
      throw new CliError(`${flag}: ${where} is not an X.509 certificate (PEM or DER)`);
    }
  });
}

/** The one certificate of a file (`--certificate`). */
export function readCertificate(file: string, flag: string): ReadCertificate {
  const [first, ...rest] = readCertificates(file, flag);
  if (!first || rest.length > 0) throw new CliError(`${flag}: ${file} must hold one certificate`);
  return first;
}
