import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Certificates made with the openssl CLI (`openssl ca`, which can date a certificate in the
 * past or the future), for crafting certification paths: each issued with the extensions of an
 * extfile and a P-256 key of its own. The same `openssl ca` database revokes certificates and
 * makes each issuer's CRL (`-gencrl`, numbered), published as DER. Independent of the code that
 * checks paths and revocation.
 */

export interface Issued {
  name: string;
  /** PEM files. */
  certFile: string;
  keyFile: string;
  der: Buffer;
  key: KeyObject;
}

export interface IssueOptions {
  /** The issuer; absent: self-signed. */
  issuer?: Issued;
  /** extfile lines (openssl x509v3_config). */
  ext: string[];
  /** Validity, as Dates (default: from a day ago for ten years). */
  notBefore?: Date;
  notAfter?: Date;
  /** An RSA 2048 key instead of P-256 (poppler's pdfsig signs with RSA keys only). */
  rsa?: boolean;
}

const DAY = 24 * 3600 * 1000;

/** A root CA's extensions, and an intermediate's. */
export const CA_EXT = ['basicConstraints = critical,CA:TRUE', 'keyUsage = critical,keyCertSign'];
/** A TSA certificate as RFC 3161 2.3 wants it. */
export const TSA_EXT = [
  'basicConstraints = CA:FALSE',
  'keyUsage = critical,digitalSignature',
  'extendedKeyUsage = critical,timeStamping',
];

export function openssl(args: string[], cwd: string): string {
  return execFileSync('openssl', args, { cwd, stdio: 'pipe', timeout: 60_000 }).toString();
}

/** An openssl command's exit status and output, whatever the status. */
export function opensslStatus(args: string[], cwd: string): { status: number; out: string } {
  const res = spawnSync('openssl', args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: res.status ?? -1, out: `${res.stdout}${res.stderr}` };
}

/** `openssl ca`'s dates: GeneralizedTime YYYYMMDDHHMMSSZ. */
const caDate = (date: Date): string =>
  date
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');

export interface PkiOptions {
  /** The first serial number `openssl ca` gives, in hex (default 1000); each next one adds 1. */
  firstSerial?: string;
}

export class TestPki {
  constructor(
    readonly dir: string,
    options: PkiOptions = {},
  ) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.txt'), '');
    fs.writeFileSync(path.join(dir, 'ca.serial'), `${options.firstSerial ?? '1000'}\n`);
    fs.writeFileSync(path.join(dir, 'crlnumber'), '01\n');
    fs.writeFileSync(
      path.join(dir, 'ca.cnf'),
      [
        '[ ca ]',
        'default_ca = test_ca',
        '[ test_ca ]',
        `dir = ${dir}`,
        'database = $dir/index.txt',
        'new_certs_dir = $dir',
        'serial = $dir/ca.serial',
        'crlnumber = $dir/crlnumber',
        'default_md = sha256',
        'policy = any',
        'unique_subject = no',
        'copy_extensions = none',
        '[ any ]',
        'commonName = supplied',
        '',
      ].join('\n'),
    );
  }

  issue(name: string, commonName: string, options: IssueOptions): Issued {
    const file = (ext: string) => path.join(this.dir, `${name}.${ext}`);
    openssl(
      options.rsa
        ? ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', file('key')]
        : ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', file('key')],
      this.dir,
    );
    openssl(
      ['req', '-new', '-key', file('key'), '-subj', `/CN=${commonName}`, '-out', file('csr')],
      this.dir,
    );
    fs.writeFileSync(file('ext'), `${options.ext.join('\n')}\n`);
    const notBefore = options.notBefore ?? new Date(Date.now() - DAY);
    const notAfter = options.notAfter ?? new Date(Date.now() + 3650 * DAY);
    const signer = options.issuer
      ? signedBy(options.issuer)
      : ['-selfsign', '-keyfile', file('key')];
    openssl(
      [
        ...this.ca(),
        '-batch',
        '-notext',
        ...signer,
        '-in',
        file('csr'),
        '-out',
        file('crt'),
        '-extfile',
        file('ext'),
        '-startdate',
        caDate(notBefore),
        '-enddate',
        caDate(notAfter),
      ],
      this.dir,
    );
    const pem = fs.readFileSync(file('crt'), 'utf8');
    return {
      name,
      certFile: file('crt'),
      keyFile: file('key'),
      der: Buffer.from(new X509Certificate(pem).raw),
      key: createPrivateKey(fs.readFileSync(file('key'))),
    };
  }

  /** Marks `cert`, issued by `issuer`, revoked in the database (`openssl ca -revoke`), now. */
  revoke(cert: Issued, issuer: Issued): void {
    openssl([...this.ca(), ...signedBy(issuer), '-revoke', cert.certFile], this.dir);
  }

  /**
   * A CRL signed by `issuer` listing every certificate revoked in this PKI's database, next update
   * in `days` (`openssl ca -gencrl`, numbered from the PKI's crlnumber), as DER (what http
   * distribution points serve), also written to NAME.crl, NAME being `issuer`'s.
   */
  crl(issuer: Issued, days = 30): Buffer {
    const file = path.join(this.dir, `${issuer.name}.crl`);
    const pem = `${file}.pem`;
    const gencrl = ['-gencrl', '-crldays', String(days), '-out', pem];
    openssl([...this.ca(), ...signedBy(issuer), ...gencrl], this.dir);
    openssl(['crl', '-in', pem, '-outform', 'DER', '-out', file], this.dir);
    return fs.readFileSync(file);
  }

  private ca(): string[] {
    return ['ca', '-config', path.join(this.dir, 'ca.cnf')];
  }

  /** Several certificates in one PEM file (openssl's -untrusted, a TSA's `certs`). */
  bundle(name: string, certs: readonly Issued[]): string {
    const file = path.join(this.dir, `${name}.pem`);
    fs.writeFileSync(file, certs.map((c) => fs.readFileSync(c.certFile, 'utf8')).join(''));
    return file;
  }
}

/** `openssl ca`'s arguments naming the CA certificate and key that sign. */
const signedBy = (issuer: Issued): string[] => [
  '-cert',
  issuer.certFile,
  '-keyfile',
  issuer.keyFile,
];
