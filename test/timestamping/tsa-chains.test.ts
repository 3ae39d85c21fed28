import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { verifyTimestampToken } from '@verification-receipts/verify/internals';
import { MAX_PATH } from '../../packages/verify/src/timestamp/chain.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integer, seq } from '../../src/asn1/der.js';
import { requestTimestamp } from '../../src/timestamping/index.js';
import { tempDir } from '../helpers/context.js';
import { CA_EXT, openssl, opensslStatus, TestPki, TSA_EXT } from '../helpers/test-pki.js';
import { tsConfig } from '../helpers/tsa.js';
import { CHAIN_CASES, sharedChain, type Chain, type Shared } from './chain-cases.js';
import { tokenSignedBy } from './forged-tokens.js';

/**
 * A TSA certificate's path, crafted with the openssl CLI in every way RFC 5280 and RFC 3161 2.3
 * refuse: the verifier's verdict on a token signed with it must be openssl's (`openssl verify
 * -purpose timestampsign -attime genTime`, and `openssl ts -verify` on the token itself), and the
 * service's TSA client, which shares the rule, must refuse to keep the same tokens.
 */

let dir: string;
let pki: TestPki;
let shared: Shared;

beforeAll(() => {
  dir = tempDir('tsa-chains-');
  pki = new TestPki(path.join(dir, 'pki'));
  shared = sharedChain(pki);
});

/** Each case's chain, made once for both describes. */
const chains = new Map<number, Chain>();
const chainOf = (i: number): Chain => {
  const made = chains.get(i) ?? CHAIN_CASES[i]!.make(pki, shared);
  chains.set(i, made);
  return made;
};

const data = Buffer.from('example.com/log\n7\nq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s=\n\n');

/**
 * A token by the chain's TSA answering `query` (a TimeStampReq; absent: one for `data` made by
 * openssl without a nonce), and its genTime.
 */
function stamp(chain: Chain, id: string, query?: Buffer): { token: Buffer; genTime: Date } {
  const file = (ext: string) => path.join(dir, `${id}.${ext}`);
  fs.writeFileSync(file('data'), data);
  if (query) fs.writeFileSync(file('tsq'), query);
  else {
    const args = ['-data', file('data'), '-sha256', '-cert', '-no_nonce', '-out', file('tsq')];
    openssl(['ts', '-query', ...args], dir);
  }
  if (chain.signer === 'fields') {
    const genTime = new Date(Math.floor(Date.now() / 1000) * 1000);
    const text = openssl(['ts', '-query', '-in', file('tsq'), '-text'], dir);
    const nonce = /Nonce: 0x([0-9A-F]+)/i.exec(text)?.[1];
    const signer = {
      certificate: chain.tsa.der,
      key: chain.tsa.key,
      chain: chain.intermediates.map((c) => c.der),
    };
    const options = { genTime, ...(nonce ? { nonce: Buffer.from(nonce, 'hex') } : {}) };
    return { token: tokenSignedBy(signer, data, options), genTime };
  }
  const config = tsConfig(dir, id, {
    certFile: chain.tsa.certFile,
    keyFile: chain.tsa.keyFile,
    certsFile: pki.bundle(`${id}-certs`, chain.intermediates),
  });
  const reply = ['-config', config, '-queryfile', file('tsq'), '-token_out', '-out', file('tok')];
  openssl(['ts', '-reply', ...reply], dir);
  const text = openssl(['ts', '-reply', '-in', file('tok'), '-token_in', '-text'], dir);
  const time = /Time stamp: (.+)/.exec(text)?.[1] ?? '';
  return { token: fs.readFileSync(file('tok')), genTime: new Date(time) };
}

/** openssl's verdicts on the chain at genTime and on the token. */
function opensslVerdicts(chain: Chain, id: string, token: Buffer, genTime: Date) {
  const untrusted =
    chain.intermediates.length > 0
      ? ['-untrusted', pki.bundle(`${id}-untrusted`, chain.intermediates)]
      : [];
  const verify = opensslStatus(
    [
      'verify',
      '-CAfile',
      chain.pinned.certFile,
      ...untrusted,
      '-purpose',
      'timestampsign',
      '-attime',
      String(Math.floor(genTime.getTime() / 1000)),
      chain.tsa.certFile,
    ],
    dir,
  );
  const tokenFile = path.join(dir, `${id}.token.der`);
  const dataFile = path.join(dir, `${id}.stamped`);
  fs.writeFileSync(tokenFile, token);
  fs.writeFileSync(dataFile, data);
  const ts = opensslStatus(
    [
      'ts',
      '-verify',
      '-data',
      dataFile,
      '-in',
      tokenFile,
      '-token_in',
      '-CAfile',
      chain.pinned.certFile,
      ...untrusted,
    ],
    dir,
  );
  return { verify, ts };
}

describe('TSA certificate paths: the verifier decides as openssl verify does', () => {
  it.each(CHAIN_CASES.map((c, i) => [c.name, c, i] as const))('%s', async (_, c, i) => {
    const chain = chainOf(i);
    const id = `case${i}`;
    const { token, genTime } = stamp(chain, id);
    const { verify, ts } = opensslVerdicts(chain, id, token, genTime);
    expect(verify.status === 0, verify.out).toBe(c.accepted);
    if (c.openssl) expect(verify.out).toContain(c.openssl);
    expect(ts.out.includes('Verification: OK'), ts.out).toBe(c.accepted);
    const check = await verifyTimestampToken(token, { data, trusted: [chain.pinned.der] });
    expect(check.ok, check.ok ? 'accepted' : check.reason).toBe(c.accepted);
    if (!check.ok && c.reason) expect(check.reason).toMatch(c.reason);
  });
});

describe('the length of a path', () => {
  /** A TSA under `count` intermediates under the shared root. */
  function deep(count: number): Chain {
    const intermediates = [];
    let issuer = shared.root;
    for (let n = 0; n < count; n += 1) {
      issuer = pki.issue(`deep${count}-${n}`, `Deep ${count}.${n}`, { issuer, ext: CA_EXT });
      intermediates.unshift(issuer);
    }
    const tsa = pki.issue(`deep${count}-tsa`, `Deep TSA ${count}`, { issuer, ext: TSA_EXT });
    return { tsa, intermediates, pinned: shared.root, signer: 'openssl' };
  }

  it(`is at most ${MAX_PATH} certificates, the TSA's and the pinned one included`, async () => {
    const longest = deep(MAX_PATH - 2);
    const { token, genTime } = stamp(longest, 'deep-ok');
    expect(opensslVerdicts(longest, 'deep-ok', token, genTime).verify.status).toBe(0);
    const ok = await verifyTimestampToken(token, { data, trusted: [shared.root.der] });
    expect(ok.ok, ok.ok ? '' : ok.reason).toBe(true);

    // one more: openssl (whose depth limit is 100) accepts it, the verifier does not look so far
    const longer = deep(MAX_PATH - 1);
    const stamped = stamp(longer, 'deep-long');
    expect(opensslVerdicts(longer, 'deep-long', stamped.token, stamped.genTime).verify.status).toBe(
      0,
    );
    const refused = await verifyTimestampToken(stamped.token, { data, trusted: [shared.root.der] });
    expect(refused.ok ? 'accepted' : refused.reason).toMatch(
      new RegExp(`not pinned nor issued by a pinned certificate within ${MAX_PATH} certificates`),
    );
  });
});

describe("the service's TSA client refuses the same paths", () => {
  let server: http.Server;
  let url: string;
  let answering: { chain: Chain; id: string } | undefined;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (!answering) return void res.writeHead(503).end();
        const { token } = stamp(answering.chain, answering.id, Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' });
        res.end(seq(seq(integer(0)), token)); // TimeStampResp, status granted
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(CHAIN_CASES.map((c, i) => [c.name, c, i] as const))('%s', async (_, c, i) => {
    const chain = chainOf(i);
    answering = { chain, id: `client${i}-${randomBytes(3).toString('hex')}` };
    const result = await requestTimestamp(
      { url, trusted: [chain.pinned.der], timeoutMs: 20_000 },
      data,
    );
    expect(result.ok, result.ok ? 'kept' : result.reason).toBe(c.accepted);
    if (!result.ok && c.reason) expect(result.reason).toMatch(c.reason);
  });
});
