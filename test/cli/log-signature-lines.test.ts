import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../helpers/cli.js';
import { createTestContext, listenLocally, type TestContext } from '../helpers/context.js';
import { ciRequest } from '../http/hostile/requests.js';

/**
 * `receipts log verify` refuses a checkpoint with a second signature line under the log's name
 * and key id that does not verify: every such line must verify, not one of them.
 */
let ctx: TestContext;
let upstream: string;
let proxy: http.Server;
let prefix: string;

beforeAll(async () => {
  ctx = await createTestContext({ LOG_RATE_LIMIT_MAX: '100000' });
  upstream = await listenLocally(ctx.app);
  await ctx.app.services.receipts.issueCi('tenant-a', ciRequest());
  await ctx.app.services.anchoring.sealAll();
  // serves the log as is, except that the checkpoint gains a forged line by the log's key id
  proxy = http.createServer((req, res) => {
    void fetch(`${upstream}${req.url}`).then(async (answer) => {
      let body = Buffer.from(await answer.arrayBuffer());
      if (req.url === '/log/checkpoint') {
        const note = body.toString('utf8');
        const line = note.trimEnd().split('\n').pop() as string;
        const [, name, sig] = line.split(' ');
        const blob = Buffer.from(sig as string, 'base64');
        const forged = Buffer.concat([blob.subarray(0, 4), Buffer.alloc(64, 9)]).toString('base64');
        body = Buffer.from(`${note}— ${name} ${forged}\n`);
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  prefix = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/log`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await ctx.close();
});

describe('receipts log verify and signature lines', () => {
  it('fails on a checkpoint with one valid and one invalid line by the log key', async () => {
    const vkey = ctx.app.services.anchoring.verifierKey as string;
    const honest = await runCaptured(['log', 'verify', '--url', `${upstream}/log`, '--vkey', vkey]);
    expect(honest.code, honest.out + honest.err).toBe(0);
    const res = await runCaptured(['log', 'verify', '--url', prefix, '--vkey', vkey]);
    expect(res.code, res.out + res.err).toBe(1);
    expect(res.out).toContain('FAIL  checkpoint signature');
  });
});
