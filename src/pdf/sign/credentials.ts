import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  certificatesFromPem,
  equalBytes,
  parseCertificate,
} from '@verification-receipts/verify/internals';
import { selfIssuedCertificate } from './certificate.js';
import type { SigningCredentials } from './cms.js';

/**
 * Where the PDF signing key and certificate come from: PDF_SIGNING_KEY_FILE and
 * PDF_SIGNING_CERT_FILE (PEM; the certificate file may hold its chain, signing certificate
 * first), else `<DATA_DIR>/pdf-signing-key.pem` and `<DATA_DIR>/pdf-signing-cert.pem`, a P-256 key
 * and a self-issued certificate made at first start (mode 0600, beside the receipt signing key).
 */
export interface PdfSigningFiles {
  keyFile: string | undefined;
  certFile: string | undefined;
  dataDir: string;
  /** The organisation a self-issued certificate names. */
  issuerName: string;
}

export interface PdfCredentials extends SigningCredentials {
  /** The certificate chain as PEM, as published at /.well-known/pdf-signing-cert.pem. */
  certificatePem: string;
  /** Made by this start (first run without configured files). */
  generated: boolean;
}

const MAX_FILE_BYTES = 256 * 1024;

export function loadPdfCredentials(files: PdfSigningFiles): PdfCredentials {
  if (files.keyFile || files.certFile) {
    if (!files.keyFile || !files.certFile) {
      throw new Error('set both PDF_SIGNING_KEY_FILE and PDF_SIGNING_CERT_FILE, or neither');
    }
    return credentialsOf(readText(files.keyFile), readText(files.certFile), false);
  }
  const keyFile = path.join(files.dataDir, 'pdf-signing-key.pem');
  const certFile = path.join(files.dataDir, 'pdf-signing-cert.pem');
  let generated = false;
  if (!fs.existsSync(keyFile)) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writePrivate(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    fs.rmSync(certFile, { force: true }); // a certificate of another key is of no use
    generated = true;
  }
  if (!fs.existsSync(certFile)) {
    const key = createPrivateKey(readText(keyFile));
    writePrivate(certFile, pemOf(selfIssuedCertificate(key, files.issuerName)));
    generated = true;
  }
  return credentialsOf(readText(keyFile), readText(certFile), generated);
}

function credentialsOf(keyPem: string, certPem: string, generated: boolean): PdfCredentials {
  const privateKey = createPrivateKey(keyPem);
  checkKeyType(privateKey);
  const chain = certificatesFromPem(certPem).map((der) => Buffer.from(der));
  const [first] = chain;
  if (!first) throw new Error('the PDF signing certificate file holds no CERTIFICATE');
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  if (!equalBytes(parseCertificate(first).spki, spki)) {
    throw new Error(
      "the PDF signing certificate (the file's first) is not for the PDF signing key",
    );
  }
  return { privateKey, chain, certificatePem: chain.map(pemOf).join(''), generated };
}

/** PAdES signatures here are ECDSA (P-256 or P-384) or RSA of at least 2048 bits, with SHA-256. */
function checkKeyType(key: KeyObject): void {
  const details = key.asymmetricKeyDetails;
  const ok =
    (key.asymmetricKeyType === 'ec' &&
      ['prime256v1', 'secp384r1'].includes(details?.namedCurve ?? '')) ||
    (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2048);
  if (!ok)
    throw new Error(
      'the PDF signing key must be ECDSA P-256 or P-384, or RSA of 2048 bits or more',
    );
}

export function pemOf(der: Uint8Array): string {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function readText(file: string): string {
  const size = fs.statSync(file).size;
  if (size > MAX_FILE_BYTES) throw new Error(`${file} is larger than ${MAX_FILE_BYTES} bytes`);
  return fs.readFileSync(file, 'utf8');
}

function writePrivate(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}
