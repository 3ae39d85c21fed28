import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorLog } from '../../src/cli/commands/log.js';
import { ParsedFlags } from '../../src/cli/flags.js';
import { HELP } from '../../src/cli/help.js';
import { httpLogSource } from '../../src/cli/log-monitor/source.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/context.js';

/**
 * Every CLI error says what went wrong (commander's words for what it refuses, with its "Did you
 * mean" line for a typo) and what to do; a usage error adds the command's usage line, nothing
 * else does; a network error names the URL and the cause.
 */
const cli = (...argv: string[]) => runCaptured(argv, { DATA_DIR: path.join(tempDir(), 'data') });
const errLines = (err: string) => err.split('\n').filter(Boolean);

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('CLI usage errors', () => {
  it('an unknown command says so, suggests the nearest, and prints no usage (exit 2)', async () => {
    const res = await cli('verfy', 'receipt.pdf');
    expect(res.code).toBe(2);
    expect(res.out).toBe('');
    expect(errLines(res.err)).toEqual([
      "error: unknown command 'verfy'",
      '(Did you mean verify?)',
      'run `receipts --help` for every command',
    ]);
    const group = await cli('isuers', 'list');
    expect(errLines(group.err).slice(0, 2)).toEqual([
      "error: unknown command 'isuers'",
      '(Did you mean issuers?)',
    ]);
    const sub = await cli('keys', 'crate');
    expect(sub.code).toBe(2);
    expect(errLines(sub.err)).toEqual([
      "error: unknown command 'crate'",
      '(Did you mean create?)',
      'run `receipts keys --help` for its commands',
    ]);
    const far = await cli('frobnicate');
    expect(errLines(far.err)[0]).toBe("error: unknown command 'frobnicate'");
    expect(errLines(far.err)[1]).toBe('run `receipts --help` for every command');
  });

  it('an unknown command or flag of any length is cut in the message', async () => {
    const res = await cli('x'.repeat(100_000));
    expect(res.code).toBe(2);
    expect(res.err.length).toBeLessThan(300);
    expect(errLines(res.err)[0]).toBe(`error: unknown command '${'x'.repeat(64)}...'`);
    const flag = await cli('keys', 'list', `--${'x'.repeat(100_000)}`);
    expect(flag.code).toBe(2);
    expect(flag.err.length).toBeLessThan(400);
  });

  it("a misspelt flag names the nearest flag and shows that command's usage line only", async () => {
    const res = await cli('keys', 'create', '--tenat', 'acme', '--name', 'n', '--scopes', 'read');
    expect(res.code).toBe(2);
    expect(errLines(res.err)).toEqual([
      "error: unknown option '--tenat'",
      '(Did you mean --tenant?)',
      'run `receipts keys create --help` for every flag and an example',
      'usage: receipts keys create --tenant T --name N --scopes LIST [--json]',
    ]);
    const monitor = await cli(
      'log',
      'verify',
      '--url',
      'http://127.0.0.1:1/log',
      '--vkey-fle',
      'x',
    );
    expect(monitor.code).toBe(2);
    expect(errLines(monitor.err).slice(0, 2)).toEqual([
      "error: unknown option '--vkey-fle'",
      '(Did you mean --vkey-file?)',
    ]);
  });

  it('--init on a command that opens no store is a usage error: that command has no --init', async () => {
    const res = await cli('seal', 'create', '--init');
    expect(res.code).toBe(2);
    expect(errLines(res.err)[0]).toBe("error: unknown option '--init'");
  });

  it('an operand too many, or a missing one, is a usage error with the usage line', async () => {
    const extra = await cli('keys', 'create', '--tenant', 'acme', 'stray');
    expect(extra.code).toBe(2);
    expect(errLines(extra.err)[0]).toBe(
      "error: too many arguments for 'create'. Expected 0 arguments but got 1.",
    );
    const missing = await cli('keys', 'revoke');
    expect(missing.code).toBe(2);
    expect(errLines(missing.err)).toEqual([
      "error: missing required argument 'ID'",
      'run `receipts keys revoke --help` for every flag and an example',
      'usage: receipts keys revoke ID',
    ]);
  });

  it('a configuration the service would refuse: the variable, what to do, exit 3, no stack', async () => {
    const res = await runCaptured(['keys', 'list'], {
      DATA_DIR: path.join(tempDir(), 'data'),
      WORKERS: '3',
    });
    expect(res.code).toBe(3);
    expect(res.out).toBe('');
    const lines = errLines(res.err);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^error: .*WORKERS/);
    expect(lines[1]).toBe(
      'fix the variable (docs/configuration.md lists every one and its default)',
    );
  });

  it('a flag without its value says so', async () => {
    const res = await cli('seal', 'create', '--notary-id');
    expect(errLines(res.err)[0]).toBe("error: option '--notary-id <ID>' argument missing");
    expect(res.code).toBe(2);
  });
});

describe('CLI network errors name the URL and the cause, with no usage', () => {
  const dir = tempDir('receipts-net-');
  let plain: http.Server;
  let silent: net.Server;
  let tls: https.Server;
  let base: string;
  let silentUrl: string;
  let tlsUrl: string;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    plain = http.createServer((_req, res) => res.writeHead(404).end('not here'));
    base = await listen(plain, 'http');
    silent = net.createServer((socket) => sockets.push(socket)); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/log`;
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-subj',
        '/CN=localhost',
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    tls = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (_q, r) =>
      r.end('{}'),
    );
    tlsUrl = `${await listen(tls, 'https')}/log`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    plain.closeAllConnections();
    tls.closeAllConnections();
    await Promise.all([plain, silent, tls].map((s) => new Promise((r) => s.close(r))));
  });

  async function listen(server: http.Server | https.Server, scheme: string): Promise<string> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `${scheme}://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  }

  it('log verify: connection refused', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/log`;
    const res = await cli('log', 'verify', '--url', url);
    expect(res.code).toBe(2);
    expect(errLines(res.err)).toEqual([
      `error: cannot read ${url}/vkey: connection refused (nothing listens there)`,
      'check the URL (a service serves its log under /log, e.g. http://localhost:3000/log) and that the service runs',
    ]);
  });

  it('log verify: an HTTP status', async () => {
    const res = await cli('log', 'verify', '--url', `${base}/log`);
    expect(errLines(res.err)[0]).toBe(`error: ${base}/log/vkey answered HTTP 404: not here`);
    expect(res.err).not.toContain('usage');
  });

  it('log verify: a timeout', async () => {
    const err: string[] = [];
    // the flags `log verify --url URL` parses to: every declared flag, only --url given
    const declared = Object.keys(HELP['log verify']?.flags ?? {});
    const flags = new ParsedFlags(
      new Map(declared.map((name) => [name, name === 'url' ? silentUrl : undefined])),
      new Set(['url']),
    );
    const failed = monitorLog(flags, { out: () => undefined, err: (l) => err.push(l) }, (url) =>
      httpLogSource(url, undefined, 300),
    );
    await expect(failed).rejects.toMatchObject({
      exitCode: 2,
      usage: false,
      message: `cannot read ${silentUrl}/vkey: no answer within 0.3 s (timeout)`,
    });
  });

  it('log verify: a TLS certificate that is not accepted', async () => {
    const res = await cli('log', 'verify', '--url', tlsUrl);
    expect(res.code).toBe(2);
    expect(errLines(res.err)[0]).toMatch(
      new RegExp(
        `^error: cannot read ${tlsUrl}/vkey: TLS error: [A-Z_]*CERT[A-Z_]* \\(the server's certificate is not accepted\\)$`,
      ),
    );
  });

  it('log info --url: host not found (DNS), exit 1', async () => {
    const res = await cli('log', 'info', '--url', 'http://receipts.invalid/log');
    expect(res.code).toBe(1);
    expect(errLines(res.err)[0]).toBe(
      'error: cannot read http://receipts.invalid/log/vkey: host not found (DNS)',
    );
    expect(errLines(res.err)).toHaveLength(2);
  });

  it('verify --jwks URL: the URL and the cause, and what to do, no usage', async () => {
    const file = path.join(dir, 'bundle.json');
    fs.writeFileSync(file, '{}');
    const url = `http://127.0.0.1:${await closedPort()}/.well-known/jwks.json`;
    const res = await cli('verify', file, '--jwks', url);
    expect(res.code).toBe(2);
    expect(errLines(res.err)).toEqual([
      `error: ${url}: connection refused`,
      'check the URL and your connection, or pin a saved copy with --jwks FILE',
    ]);
  });
});
