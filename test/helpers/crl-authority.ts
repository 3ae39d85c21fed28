import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import path from 'node:path';
import { tsConfig, type TsaFiles } from './tsa.js';

/**
 * A test CA run with `openssl ca` (its index, serials and CRL numbers on disk) that issues a TSA
 * certificate naming a CRL distribution point, and the HTTP server publishing its CRL (made by
 * `openssl ca -gencrl`, served as DER). `mode` makes the server misbehave: `hang` accepts the
 * request and never answers, `oversized` streams a body far beyond any CRL, `redirect` answers
 * 302 to the real CRL, `missing` answers 404, `forged` serves a CRL under the CA's name signed by
 * another key (`openssl ca -gencrl` with another CA certificate of the same subject).
 */
export type CrlServerMode = 'ok' | 'hang' | 'oversized' | 'redirect' | 'missing' | 'forged';

export interface CrlAuthority {
  /** The TSA's files, for startTsa. */
  files: TsaFiles;
  /** The CRL distribution point in the TSA certificate. */
  crlUrl: string;
  mode: CrlServerMode;
  /** GETs answered (or left hanging) so far. */
  requests: number;
  /** The CRL currently published (DER). */
  crl(): Buffer;
  /** Revokes the TSA certificate and publishes the new CRL. */
  revokeTsa(): void;
  close(): Promise<void>;
}

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, stdio: 'pipe', timeout: 60_000 });

export async function startCrlAuthority(dir: string, name = 'CRL TSA'): Promise<CrlAuthority> {
  fs.mkdirSync(path.join(dir, 'newcerts'), { recursive: true });
  const sockets = new Set<Socket>();
  const authority: CrlAuthority = {
    files: { caFile: '', certFile: '', config: '' },
    crlUrl: '',
    mode: 'ok',
    requests: 0,
    crl: () => fs.readFileSync(path.join(dir, 'ca.crl')),
    revokeTsa: () => {
      openssl(['ca', '-config', 'ca.cnf', '-batch', '-revoke', 'tsa.crt'], dir);
      publishCrl(dir);
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    authority.requests += 1;
    if (authority.mode === 'hang') return;
    if (authority.mode === 'missing') return void res.writeHead(404).end();
    if (authority.mode === 'forged') {
      const forged = fs.readFileSync(path.join(dir, 'forged.crl'));
      return void res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(forged);
    }
    if (authority.mode === 'redirect') {
      return void res.writeHead(302, { location: authority.crlUrl }).end();
    }
    if (authority.mode === 'oversized') {
      res.writeHead(200, { 'content-type': 'application/pkix-crl' });
      const chunk = Buffer.alloc(64 * 1024, 0x30);
      let sent = 0;
      const more = () => {
        while (sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      return more();
    }
    res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(authority.crl());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  authority.crlUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ca.crl`;
  authority.files = makeCa(dir, name, authority.crlUrl);
  publishCrl(dir);
  forgeCrl(dir, name);
  return authority;
}

function makeCa(dir: string, name: string, crlUrl: string): TsaFiles {
  fs.writeFileSync(path.join(dir, 'index.txt'), '');
  fs.writeFileSync(path.join(dir, 'serial'), '1000\n');
  fs.writeFileSync(path.join(dir, 'crlnumber'), '01\n');
  fs.writeFileSync(
    path.join(dir, 'ca.cnf'),
    [
      '[ ca ]',
      'default_ca = test_ca',
      '[ test_ca ]',
      `dir = ${dir}`,
      'database = $dir/index.txt',
      'new_certs_dir = $dir/newcerts',
      'certificate = $dir/ca.crt',
      'private_key = $dir/ca.key',
      'serial = $dir/serial',
      'crlnumber = $dir/crlnumber',
      'default_md = sha256',
      'default_days = 3650',
      'default_crl_days = 30',
      'policy = any_name',
      'unique_subject = no',
      '[ any_name ]',
      'commonName = supplied',
      '[ tsa_ext ]',
      'extendedKeyUsage = critical,timeStamping',
      'keyUsage = critical,digitalSignature',
      'basicConstraints = CA:FALSE',
      `crlDistributionPoints = URI:${crlUrl}`,
      '',
    ].join('\n'),
  );
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key'], dir);
  const subject = `/CN=${name} CA`;
  openssl(
    ['req', '-x509', '-new', '-key', 'ca.key', '-subj', subject, '-days', '3650', '-out', 'ca.crt'],
    dir,
  );
  openssl(['genrsa', '-out', 'tsa.key', '2048'], dir);
  openssl(['req', '-new', '-key', 'tsa.key', '-subj', `/CN=${name}`, '-out', 'tsa.csr'], dir);
  openssl(
    ['ca', '-config', 'ca.cnf', '-batch', '-notext', '-extensions', 'tsa_ext'].concat([
      '-in',
      'tsa.csr',
      '-out',
      'tsa.crt',
    ]),
    dir,
  );
  const config = tsConfig(dir, 'ts', {
    certFile: path.join(dir, 'tsa.crt'),
    keyFile: path.join(dir, 'tsa.key'),
    certsFile: path.join(dir, 'ca.crt'),
  });
  return { caFile: path.join(dir, 'ca.crt'), certFile: path.join(dir, 'tsa.crt'), config };
}

/** `openssl ca -gencrl`, converted to the DER that http distribution points serve. */
function publishCrl(dir: string): void {
  openssl(['ca', '-config', 'ca.cnf', '-gencrl', '-out', 'ca.crl.pem'], dir);
  openssl(['crl', '-in', 'ca.crl.pem', '-outform', 'DER', '-out', 'ca.crl'], dir);
}

/** A CRL under the CA's name, made by `openssl ca` with another key and certificate. */
function forgeCrl(dir: string, name: string): void {
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'other.key'], dir);
  const subject = `/CN=${name} CA`;
  openssl(
    ['req', '-x509', '-new', '-key', 'other.key', '-subj', subject, '-out', 'other.crt'],
    dir,
  );
  openssl(
    ['ca', '-config', 'ca.cnf', '-gencrl', '-keyfile', 'other.key', '-cert', 'other.crt'].concat([
      '-out',
      'forged.crl.pem',
    ]),
    dir,
  );
  openssl(['crl', '-in', 'forged.crl.pem', '-outform', 'DER', '-out', 'forged.crl'], dir);
}
