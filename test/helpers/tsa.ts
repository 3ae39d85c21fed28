import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A real RFC 3161 time-stamp authority for tests: OpenSSL's `openssl ts -reply` behind a small
 * HTTP server, with a test CA of its own made here with openssl. `mode` makes it misbehave.
 */
export type TsaMode = 'ok' | 'garbage' | 'slow' | 'wrong-imprint' | 'refuse';

export interface TestTsa {
  url: string;
  /** The test CA's certificate (PEM file): what TSA_CERT_FILES pins. */
  caFile: string;
  /** The TSA's own certificate (PEM file). */
  certFile: string;
  mode: TsaMode;
  /** Requests answered so far. */
  requests: number;
  close(): Promise<void>;
}

function opensslSync(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe', timeout: 60_000 });
}

/** A CA and a TSA certificate it issues (EKU timeStamping, critical), and the ts config. */
/** `tsaDays`: how long the TSA certificate is valid (its CA's is ten years). */
export function makeTsaFiles(dir: string, name = 'Test TSA', tsaDays = 3650): TsaFiles {
  fs.mkdirSync(dir, { recursive: true });
  opensslSync(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key'], dir);
  opensslSync(
    [
      'req',
      '-x509',
      '-new',
      '-key',
      'ca.key',
      '-subj',
      `/CN=${name} CA`,
      '-days',
      '3650',
      '-sha256',
      '-out',
      'ca.crt',
    ],
    dir,
  );
  opensslSync(['genrsa', '-out', 'tsa.key', '2048'], dir);
  opensslSync(['req', '-new', '-key', 'tsa.key', '-subj', `/CN=${name}`, '-out', 'tsa.csr'], dir);
  fs.writeFileSync(
    path.join(dir, 'ext.cnf'),
    'extendedKeyUsage = critical,timeStamping\nkeyUsage = critical,digitalSignature\nbasicConstraints = CA:FALSE\n',
  );
  opensslSync(
    [
      'x509',
      '-req',
      '-in',
      'tsa.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      String(tsaDays),
      '-sha256',
      '-extfile',
      'ext.cnf',
      '-out',
      'tsa.crt',
    ],
    dir,
  );
  const config = tsConfig(dir, 'ts', {
    certFile: path.join(dir, 'tsa.crt'),
    keyFile: path.join(dir, 'tsa.key'),
    certsFile: path.join(dir, 'ca.crt'),
  });
  return { caFile: path.join(dir, 'ca.crt'), certFile: path.join(dir, 'tsa.crt'), config };
}

export interface TsaFiles {
  caFile: string;
  certFile: string;
  config: string;
}

/**
 * `openssl ts -reply`'s configuration for a TSA: its certificate and key, and the certificates
 * its tokens carry besides its own (`certsFile`).
 */
export function tsConfig(
  dir: string,
  name: string,
  signer: { certFile: string; keyFile: string; certsFile: string },
): string {
  const serial = path.join(dir, `${name}.tsserial`);
  fs.writeFileSync(serial, '01\n');
  const config = path.join(dir, `${name}.cnf`);
  fs.writeFileSync(
    config,
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `serial = ${serial}`,
      'crypto_device = builtin',
      `signer_cert = ${signer.certFile}`,
      `certs = ${signer.certsFile}`,
      `signer_key = ${signer.keyFile}`,
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = no',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  return config;
}

export async function startTsa(
  dir: string,
  mode: TsaMode = 'ok',
  identity: { name?: string; days?: number; files?: TsaFiles } = {},
): Promise<TestTsa> {
  const files = identity.files ?? makeTsaFiles(dir, identity.name, identity.days);
  const sockets = new Set<import('node:net').Socket>();
  const tsa: TestTsa = {
    url: '',
    caFile: files.caFile,
    certFile: files.certFile,
    mode,
    requests: 0,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      tsa.requests += 1;
      answer(tsa, dir, files.config, Buffer.concat(chunks)).then(
        (body) => {
          if (!body) return; // slow: never answers
          res.writeHead(body.status, { 'content-type': 'application/timestamp-reply' });
          res.end(body.bytes);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tsa.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  return tsa;
}

async function answer(
  tsa: TestTsa,
  dir: string,
  config: string,
  query: Buffer,
): Promise<{ status: number; bytes: Buffer } | undefined> {
  if (tsa.mode === 'slow') return undefined;
  if (tsa.mode === 'garbage') return { status: 200, bytes: randomBytes(300) };
  if (tsa.mode === 'refuse') return { status: 503, bytes: Buffer.from('busy') };
  const id = randomBytes(6).toString('hex');
  const queryFile = path.join(dir, `${id}.tsq`);
  const replyFile = path.join(dir, `${id}.tsr`);
  if (tsa.mode === 'wrong-imprint') {
    const other = path.join(dir, `${id}.other`);
    fs.writeFileSync(other, 'some other data');
    await run('openssl', ['ts', '-query', '-data', other, '-sha256', '-cert', '-out', queryFile]);
  } else {
    fs.writeFileSync(queryFile, query);
  }
  await run('openssl', [
    'ts',
    '-reply',
    '-config',
    config,
    '-queryfile',
    queryFile,
    '-out',
    replyFile,
  ]);
  const bytes = fs.readFileSync(replyFile);
  return { status: 200, bytes };
}
