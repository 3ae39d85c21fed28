import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { TestPki, TSA_EXT } from './test-pki.js';
import { tsConfig, type TsaFiles } from './tsa.js';

/**
 * CRLs over HTTP: a distribution point serving at /NAME.crl the CRL a TestPki last made for its
 * issuer NAME (`TestPki.crl`, DER), 404 for any other path; and a test CA whose TSA certificate
 * names its distribution point. `mode` makes the server misbehave: `hang` accepts the request
 * and never answers, `oversized` streams a body far beyond any CRL, `redirect` answers 302 to the
 * same URL, `missing` answers 404, `forged` serves `forged` (a CRL under the CA's name signed by
 * another key).
 */
export type CrlServerMode = 'ok' | 'hang' | 'oversized' | 'redirect' | 'missing' | 'forged';

export interface CrlDistributionPoint {
  /** Where the CRL of the issuer named `issuer` is served, for crlDistributionPoints. */
  url(issuer: string): string;
  mode: CrlServerMode;
  /** What mode `forged` serves. */
  forged: Buffer;
  /** GETs answered (or left hanging) so far, whatever their path. */
  requests: number;
  close(): Promise<void>;
}

export interface CrlAuthority extends CrlDistributionPoint {
  /** The TSA's files, for startTsa. */
  files: TsaFiles;
  /** The CRL distribution point in the TSA certificate. */
  crlUrl: string;
  /** The CRL currently published (DER). */
  crl(): Buffer;
  /** Revokes the TSA certificate and publishes the new CRL. */
  revokeTsa(): void;
}

const PATH = /^\/([\w-]{1,64})\.crl$/;

/** Serves the CRLs `pki` publishes, on 127.0.0.1. */
export async function startCrlDistributionPoint(pki: TestPki): Promise<CrlDistributionPoint> {
  const sockets = new Set<Socket>();
  let base = '';
  const point: CrlDistributionPoint = {
    url: (issuer) => `${base}/${issuer}.crl`,
    mode: 'ok',
    forged: Buffer.alloc(0),
    requests: 0,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    point.requests += 1;
    const crl = (body: Buffer) =>
      res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(body);
    if (point.mode === 'hang') return;
    if (point.mode === 'missing') return void res.writeHead(404).end();
    if (point.mode === 'forged') return void crl(point.forged);
    if (point.mode === 'redirect') {
      return void res.writeHead(302, { location: `${base}${req.url}` }).end();
    }
    if (point.mode === 'oversized') return oversized(res);
    const name = PATH.exec(req.url ?? '')?.[1];
    const file = name && path.join(pki.dir, `${name}.crl`);
    if (!file || !fs.existsSync(file)) return void res.writeHead(404).end();
    crl(fs.readFileSync(file));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return point;
}

/** A CRL's headers, then 4 MiB of body. */
function oversized(res: http.ServerResponse): void {
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
  more();
}

/** What a CA certificate made with `openssl req -x509` carries, for `openssl ca -selfsign`. */
const CA_EXT = [
  'subjectKeyIdentifier = hash',
  'authorityKeyIdentifier = keyid:always',
  'basicConstraints = critical,CA:TRUE',
];

/**
 * A test CA ("NAME CA", in `dir`) that issues a TSA certificate ("NAME", RSA, EKU timeStamping)
 * naming the CA's CRL on a distribution point, and publishes that CRL. The CA's own certificate
 * takes serial 0FFF, so the TSA's is 1000, the serial revocation findings name it by.
 */
export async function startCrlAuthority(dir: string, name = 'CRL TSA'): Promise<CrlAuthority> {
  const pki = new TestPki(dir, { firstSerial: '0FFF' });
  const point = await startCrlDistributionPoint(pki);
  const crlUrl = point.url('ca');
  const ca = pki.issue('ca', `${name} CA`, { ext: CA_EXT });
  const tsa = pki.issue('tsa', name, {
    issuer: ca,
    ext: [...TSA_EXT, `crlDistributionPoints = URI:${crlUrl}`],
    rsa: true,
  });
  pki.crl(ca);
  // another CA of the same name, whose CRL is a forgery of this one's
  const forger = new TestPki(path.join(dir, 'forger'));
  point.forged = forger.crl(forger.issue('ca', `${name} CA`, { ext: CA_EXT }));
  const files: TsaFiles = {
    caFile: ca.certFile,
    certFile: tsa.certFile,
    config: tsConfig(dir, 'ts', { ...tsa, certsFile: ca.certFile }),
  };
  return Object.assign(point, {
    files,
    crlUrl,
    crl: () => fs.readFileSync(path.join(dir, 'ca.crl')),
    revokeTsa: () => {
      pki.revoke(tsa, ca);
      pki.crl(ca);
    },
  });
}
