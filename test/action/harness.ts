import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/context.js';

/** Runs action/receipt.mjs as the composite step would, in a simulated runner environment. */

export const SCRIPT = fileURLToPath(new URL('../../action/receipt.mjs', import.meta.url));
export const SHA = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Parsed GITHUB_OUTPUT. */
  outputs: Record<string, string>;
  summary: string;
  ms: number;
  /** The run id used, for a unique default externalId. */
  runId: string;
  /** RUNNER_TEMP of the run (kept: the step's saved files are read after it). */
  runnerTemp: string;
}

/** Run the script with INPUT_* (`inputs`) and GITHUB_* (`runner`, over defaults). */
export async function runAction(
  inputs: Record<string, string>,
  runner: Record<string, string> = {},
  timeoutMs = 25_000,
): Promise<ActionRun> {
  const dir = tempDir('receipt-action-');
  const outputFile = path.join(dir, 'output');
  const summaryFile = path.join(dir, 'summary.md');
  fs.writeFileSync(outputFile, '');
  fs.writeFileSync(summaryFile, '');
  const runId = runner.GITHUB_RUN_ID ?? String(randomInt(1, 2 ** 47));
  const runnerTemp = tempDir('receipt-runner-temp-');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'octo-org/widgets',
    GITHUB_RUN_ID: runId,
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SHA: SHA,
    GITHUB_EVENT_NAME: 'push',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKFLOW: 'CI',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: runnerTemp,
    ...runner,
  };
  for (const [name, value] of Object.entries(inputs)) {
    env[`INPUT_${name.toUpperCase().replaceAll('-', '_')}`] = value;
  }
  const started = Date.now();
  const { code, stdout, stderr } = await spawnNode(SCRIPT, env, timeoutMs);
  const run = {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(fs.readFileSync(outputFile, 'utf8')),
    summary: fs.readFileSync(summaryFile, 'utf8'),
    ms: Date.now() - started,
    runId,
    runnerTemp,
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return run;
}

function spawnNode(script: string, env: Record<string, string>, timeoutMs: number) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`action script still running after ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** GITHUB_OUTPUT in both the `name=value` and the `name<<DELIMITER` forms. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name = '', delimiter] = heredoc;
      const end = lines.indexOf(delimiter ?? '', i + 1);
      outputs[name] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      const at = line.indexOf('=');
      outputs[line.slice(0, at)] = line.slice(at + 1);
    }
  }
  return outputs;
}

/** Every place the key could leak; the only allowed line is the runner's `::add-mask::` command. */
export function leaks(run: ActionRun, key: string): string[] {
  const stdoutLines = run.stdout.split('\n').filter((line) => line !== `::add-mask::${key}`);
  const places = {
    stdout: stdoutLines.join('\n'),
    stderr: run.stderr,
    summary: run.summary,
    outputs: JSON.stringify(run.outputs),
  };
  return Object.entries(places)
    .filter(([, text]) => text.includes(key))
    .map(([place]) => place);
}

export interface Stub {
  url: string;
  port: number;
  /** Requests seen, in order: method, url, headers, body. */
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

export type StubHandler = (
  req: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string },
  res: http.ServerResponse,
  index: number,
) => void | Promise<void>;

/** A local HTTP server on an ephemeral port; the handler sees each buffered request. */
export async function startStub(handler: StubHandler): Promise<Stub> {
  const requests: Stub['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      Promise.resolve(handler(seen, res, requests.length - 1)).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * A proxy in front of `target` that answers the first requests from `script` itself (e.g. 429
 * with Retry-After) and forwards every later one unchanged to the real service.
 */
export function scriptedProxy(target: string, script: Scripted[]): Promise<Stub> {
  return startStub(async (req, res, index) => {
    const scripted = script[index];
    if (scripted) {
      res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
      res.end(JSON.stringify(scripted.body ?? { error: 'scripted', message: 'scripted answer' }));
      return;
    }
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers: {
        'content-type': String(req.headers['content-type'] ?? 'application/json'),
        'x-api-key': String(req.headers['x-api-key'] ?? ''),
      },
      body: req.method === 'GET' ? undefined : req.body,
    });
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'retry-after']) {
      const value = upstream.headers.get(name);
      if (value) headers[name] = value;
    }
    res.writeHead(upstream.status, headers).end(await upstream.text());
  });
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const stub = await startStub((_req, res) => void res.end());
  await stub.close();
  return stub.port;
}
