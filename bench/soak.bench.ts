/**
 * Soak: a mixed workload against a real listening server on PostgreSQL, then an integrity audit.
 *   npm run bench:soak
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a fresh
 * schema is created and dropped at the end), SOAK_SECONDS (60), SOAK_CONNECTIONS (50),
 * SOAK_POOL_MAX (20, the service's DATABASE_POOL_MAX), SOAK_ANCHOR_INTERVAL_MS (10000: the
 * in-process sealer runs during the soak, as in production; 0 disables it), SOAK_SEED (100
 * receipts issued before the load, so reads and revocations have targets from the first second).
 *
 * The server runs in this process; the load comes from a second process (this same file, started
 * with SOAK_ROLE=driver) so that on a 2-core machine one core serves and one drives. The driver
 * keeps `connections` workers, each with its own keep-alive socket, issuing one request at a time
 * until the deadline; in-flight requests are always awaited, never abandoned. It records every
 * receipt id the service acknowledged (200 from POST /verify) and every acknowledged revocation
 * (200 REVOKED). Afterwards this process checks the database against those acknowledgements:
 * every acknowledged receipt is stored and re-verifies, nothing unacknowledged was written, and
 * exactly the acknowledged revocations are in effect. Exit code 1 when any check fails.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import { rawEd25519PublicKey, signRevocation } from '../src/receipts/revocation.js';
import { samplePdf } from '../test/helpers/requests.js';
import { registerNotary, validRequest, type Notary } from '../test/helpers/ron.js';

type Op = 'verify' | 'retrieve' | 'reverify' | 'list' | 'revoke';
const OPS: Op[] = ['verify', 'retrieve', 'reverify', 'list', 'revoke'];
const LABELS: Record<Op, string> = {
  verify: 'POST /api/v1/verify',
  retrieve: 'GET /api/v1/receipt/:id',
  reverify: 'POST /api/v1/receipt/:id/verify',
  list: 'GET /api/v1/receipts',
  revoke: 'POST /api/v1/receipt/:id/revoke',
};
/** Share of requests per endpoint (percent). */
const MIX: Record<Op, number> = { verify: 35, retrieve: 25, reverify: 20, list: 10, revoke: 10 };
/** Share of revocations aimed at an already revoked receipt (expects ALREADY_REVOKED). */
const REPEAT_REVOKE_SHARE = 0.1;
const REQUEST_TIMEOUT_MS = 30_000;

interface DriverInput {
  baseUrl: string;
  apiKey: string;
  tenant: string;
  seconds: number;
  connections: number;
  seedIds: string[];
  notary: Notary;
  issuerId: string;
  issuerPem: string;
  outFile: string;
}

interface EndpointFigures {
  count: number;
  statuses: Record<string, number>;
  /** Transport failures (no HTTP answer) by error code. */
  transportErrors: Record<string, number>;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

interface DriverOutput {
  durationMs: number;
  endpoints: Record<Op, EndpointFigures>;
  /** Receipt ids acknowledged with 200 by POST /verify, in order. */
  acknowledged: string[];
  /** Receipt ids acknowledged with 200 REVOKED. */
  revoked: string[];
  alreadyRevokedAnswers: number;
  decisions: Record<string, number>;
  /** Answers that were 200 but said something wrong (a retrieve of another id, a failed re-check...). */
  anomalies: string[];
}

// ---------------------------------------------------------------------------------------------
// The load driver (separate process)
// ---------------------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: string;
}

function send(
  agent: http.Agent,
  base: URL,
  method: 'GET' | 'POST',
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path: urlPath,
        headers: body
          ? {
              ...headers,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            }
          : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () =>
      req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })),
    );
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

async function runDriver(input: DriverInput): Promise<void> {
  const base = new URL(input.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: input.connections });
  const apiHeaders = { 'x-api-key': input.apiKey };
  const known = [...input.seedIds];
  const unrevoked = [...input.seedIds];
  const out: DriverOutput = {
    durationMs: 0,
    endpoints: {} as Record<Op, EndpointFigures>,
    acknowledged: [],
    revoked: [],
    alreadyRevokedAnswers: 0,
    decisions: {},
    anomalies: [],
  };
  const latencies = Object.fromEntries(OPS.map((op) => [op, [] as number[]])) as Record<
    Op,
    number[]
  >;
  for (const op of OPS) {
    out.endpoints[op] = {
      count: 0,
      statuses: {},
      transportErrors: {},
      p50: 0,
      p99: 0,
      mean: 0,
      max: 0,
    };
  }
  const anomaly = (text: string) => {
    if (out.anomalies.length < 50) out.anomalies.push(text);
  };

  // A fresh verification request (new document, seal and timestamp) every second: realistic
  // bodies without spending the driver's core on signing seals for every request.
  let generation = 0;
  const freshBody = () =>
    JSON.stringify({
      ...validRequest(input.notary, samplePdf(`soak document ${generation++}`)),
      bundleId: `soak-${generation}`,
    });
  let verifyBody = freshBody();
  const refresh = setInterval(() => (verifyBody = freshBody()), 1_000);

  const cumulative = MIX.verify + MIX.retrieve + MIX.reverify + MIX.list + MIX.revoke;
  const pick = (): Op => {
    let r = Math.random() * cumulative;
    for (const op of OPS) {
      r -= MIX[op];
      if (r < 0) return op;
    }
    return 'verify';
  };
  const anyKnown = () => known[Math.floor(Math.random() * known.length)] as string;

  async function once(op: Op): Promise<void> {
    let method: 'GET' | 'POST' = 'POST';
    let urlPath: string;
    let headers: Record<string, string> = apiHeaders;
    let body: string | undefined;
    let target = '';
    let repeatRevoke = false;
    switch (op) {
      case 'verify':
        urlPath = '/api/v1/verify';
        body = verifyBody;
        break;
      case 'retrieve':
        target = anyKnown();
        method = 'GET';
        urlPath = `/api/v1/receipt/${target}`;
        break;
      case 'reverify':
        target = anyKnown();
        urlPath = `/api/v1/receipt/${target}/verify`;
        break;
      case 'list':
        method = 'GET';
        urlPath = '/api/v1/receipts?limit=50';
        break;
      case 'revoke': {
        repeatRevoke = out.revoked.length > 0 && Math.random() < REPEAT_REVOKE_SHARE;
        if (repeatRevoke || unrevoked.length === 0) {
          if (out.revoked.length === 0) return once('verify');
          repeatRevoke = true;
          target = out.revoked[Math.floor(Math.random() * out.revoked.length)] as string;
        } else {
          const i = Math.floor(Math.random() * unrevoked.length);
          target = unrevoked[i] as string;
          unrevoked[i] = unrevoked[unrevoked.length - 1] as string;
          unrevoked.pop();
        }
        const h = signRevocation(input.issuerPem, input.issuerId, target, new Date().toISOString());
        headers = {
          ...apiHeaders,
          'x-issuer-id': h.issuerId,
          'x-signature-timestamp': h.timestamp,
          'x-issuer-signature': h.signature,
        };
        urlPath = `/api/v1/receipt/${target}/revoke`;
        break;
      }
    }
    const figures = out.endpoints[op];
    const started = performance.now();
    let answer: Answer;
    try {
      answer = await send(agent, base, method, urlPath, headers, body);
    } catch (err) {
      figures.count++;
      const code = String((err as { code?: unknown }).code ?? (err as Error).message);
      figures.transportErrors[code] = (figures.transportErrors[code] ?? 0) + 1;
      return;
    }
    latencies[op].push(performance.now() - started);
    figures.count++;
    figures.statuses[answer.status] = (figures.statuses[answer.status] ?? 0) + 1;
    if (answer.status !== 200) return;
    const json = JSON.parse(answer.body) as Record<string, unknown>;
    switch (op) {
      case 'verify': {
        const id = json.receiptId;
        if (typeof id !== 'string') return anomaly(`verify 200 without receiptId: ${answer.body}`);
        out.acknowledged.push(id);
        known.push(id);
        unrevoked.push(id);
        const decision = String(json.decision);
        out.decisions[decision] = (out.decisions[decision] ?? 0) + 1;
        return;
      }
      case 'retrieve':
        if (json.receiptId !== target) anomaly(`GET ${target} answered ${String(json.receiptId)}`);
        return;
      case 'reverify':
        if (json.integrityVerified !== true || json.signatureVerified !== true) {
          anomaly(`re-verification of ${target}: ${answer.body}`);
        }
        return;
      case 'list':
        if (!Array.isArray(json)) anomaly(`list answered ${answer.body.slice(0, 200)}`);
        return;
      case 'revoke':
        if (json.result === 'REVOKED') {
          if (repeatRevoke) anomaly(`second revocation of ${target} answered REVOKED`);
          else out.revoked.push(target);
        } else if (json.result === 'ALREADY_REVOKED') {
          out.alreadyRevokedAnswers++;
          if (!repeatRevoke) anomaly(`first revocation of ${target} answered ALREADY_REVOKED`);
        } else {
          anomaly(`revoke ${target} answered ${answer.body}`);
        }
        return;
    }
  }

  const started = Date.now();
  const deadline = started + input.seconds * 1000;
  const progress = setInterval(() => {
    const done = OPS.reduce((n, op) => n + out.endpoints[op].count, 0);
    const s = Math.round((Date.now() - started) / 1000);
    process.stderr.write(
      `  [driver] ${s}s: ${done} requests, ${out.acknowledged.length} receipts acknowledged, ` +
        `${out.revoked.length} revocations\n`,
    );
  }, 10_000);
  await Promise.all(
    Array.from({ length: input.connections }, async () => {
      while (Date.now() < deadline) await once(pick());
    }),
  );
  out.durationMs = Date.now() - started;
  clearInterval(progress);
  clearInterval(refresh);
  agent.destroy();

  for (const op of OPS) {
    const sorted = latencies[op].sort((a, b) => a - b);
    const f = out.endpoints[op];
    f.p50 = round(percentile(sorted, 0.5));
    f.p99 = round(percentile(sorted, 0.99));
    f.max = round(sorted[sorted.length - 1] ?? 0);
    f.mean = round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length));
  }
  fs.writeFileSync(input.outFile, JSON.stringify(out));
}

// ---------------------------------------------------------------------------------------------
// The server, the setup and the audit (this process)
// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const [{ buildApp }, { openDatabase }, { createRepositories }, ctx] = await Promise.all([
    import('../src/app.js'),
    import('../src/storage/database.js'),
    import('../src/storage/repositories.js'),
    import('../test/helpers/context.js'),
  ]);
  const seconds = Number(process.env.SOAK_SECONDS ?? 60);
  const connections = Number(process.env.SOAK_CONNECTIONS ?? 50);
  const poolMax = Number(process.env.SOAK_POOL_MAX ?? 20);
  const anchorMs = Number(process.env.SOAK_ANCHOR_INTERVAL_MS ?? 10_000);
  const seedCount = Number(process.env.SOAK_SEED ?? 100);
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `soak_${randomBytes(4).toString('hex')}`;
  const store = { kind: 'postgres' as const, url, schema, poolMax };
  const tenant = 'soak';

  const config = ctx.testConfig(
    { RATE_LIMIT_MAX: '1000000000', ANCHOR_INTERVAL_MS: String(anchorMs) },
    store,
  );
  const db = await openDatabase(store);
  const repos = createRepositories(db);
  const scratch = ctx.tempDir('soak-');
  let app: FastifyInstance | undefined;
  try {
    const { token } = await repos.apiKeys.create({
      tenant,
      name: 'soak',
      scopes: ['verify', 'read', 'revoke'],
    });
    const notary = await registerNotary(repos, tenant);
    const issuerPem = ctx.ed25519Pem();
    await repos.issuers.add({
      issuerId: 'soak-issuer',
      tenant,
      publicKey: rawEd25519PublicKey(issuerPem),
    });
    app = await buildApp({ config, db, logger: { level: 'warn' } });
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });

    // Receipts issued during setup: targets for reads and revocations from the first second.
    const seedIds: string[] = [];
    for (let i = 0; i < seedCount; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/verify',
        headers: { 'x-api-key': token },
        payload: validRequest(notary, samplePdf(`seed ${i}`)),
      });
      if (res.statusCode !== 200) throw new Error(`seeding failed: ${res.statusCode} ${res.body}`);
      seedIds.push((res.json() as { receiptId: string }).receiptId);
    }

    console.log(
      `soak: ${seconds} s, ${connections} connections, pool ${poolMax}, sealer every ` +
        `${anchorMs > 0 ? `${anchorMs} ms` : '(off)'}, schema ${schema}, ${seedIds.length} seed receipts`,
    );
    const inputFile = path.join(scratch, 'driver-input.json');
    const outFile = path.join(scratch, 'driver-output.json');
    const input: DriverInput = {
      baseUrl,
      apiKey: token,
      tenant,
      seconds,
      connections,
      seedIds,
      notary,
      issuerId: 'soak-issuer',
      issuerPem,
      outFile,
    };
    fs.writeFileSync(inputFile, JSON.stringify(input), { mode: 0o600 });
    const cpuBefore = process.cpuUsage();
    await runDriverProcess(inputFile, seconds);
    const serverCpu = process.cpuUsage(cpuBefore);
    const result = JSON.parse(fs.readFileSync(outFile, 'utf8')) as DriverOutput;

    const audit = await auditStore(app, db.knex, token, seedIds, result);
    printReport(result, audit, {
      seconds,
      connections,
      poolMax,
      anchorMs,
      serverCpuSeconds: (serverCpu.user + serverCpu.system) / 1e6,
    });
    return audit.every((c) => c.ok) ? 0 : 1;
  } finally {
    await app?.close();
    await ctx.dropSchema(db, store);
    await db.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function runDriverProcess(inputFile: string, seconds: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, SOAK_ROLE: 'driver', SOAK_DRIVER_INPUT: inputFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    // bounded: the driver's own deadline plus the longest request it may still be waiting on
    const guard = setTimeout(() => child.kill('SIGKILL'), (seconds + 120) * 1000);
    // Ctrl-C during the load: stop the driver and still drop the schema (a second Ctrl-C quits)
    const interrupt = () => {
      console.error('\ninterrupted: stopping the load, dropping the schema');
      child.kill('SIGKILL');
    };
    process.once('SIGINT', interrupt);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(guard);
      process.off('SIGINT', interrupt);
      if (code === 0) resolve();
      else reject(new Error(`load driver exited with ${signal ?? code}`));
    });
  });
}

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function auditStore(
  app: FastifyInstance,
  knex: Knex,
  token: string,
  seedIds: string[],
  result: DriverOutput,
): Promise<Check[]> {
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  const acknowledged = new Set([...seedIds, ...result.acknowledged]);
  const revoked = new Set(result.revoked);

  const rows = (await knex('receipts').select('id', 'revoked_at', 'has_proof_artifact')) as {
    id: string;
    revoked_at: Date | null;
    has_proof_artifact: boolean;
  }[];
  const stored = new Set(rows.map((r) => r.id));
  const missing = [...acknowledged].filter((id) => !stored.has(id));
  const extra = rows.filter((r) => !acknowledged.has(r.id)).map((r) => r.id);
  check(
    'every acknowledged receipt is stored',
    missing.length === 0,
    `${acknowledged.size - missing.length}/${acknowledged.size} stored` +
      (missing.length ? `; missing ${missing.slice(0, 5).join(', ')}` : ''),
  );
  check(
    'receipts rows = acknowledged verifies + setup',
    rows.length === result.acknowledged.length + seedIds.length && extra.length === 0,
    `${rows.length} rows = ${result.acknowledged.length} acknowledged + ${seedIds.length} setup` +
      (extra.length ? `; ${extra.length} unacknowledged rows, e.g. ${extra[0]}` : ''),
  );

  const logged = new Set(
    ((await knex('log_entries').select('receipt_id')) as { receipt_id: string }[]).map(
      (r) => r.receipt_id,
    ),
  );
  const unlogged = rows.filter((r) => r.has_proof_artifact && !logged.has(r.id));
  check(
    'every receipt with a proof artifact has its log entry',
    unlogged.length === 0 && logged.size === rows.filter((r) => r.has_proof_artifact).length,
    `${logged.size} log entries for ${rows.filter((r) => r.has_proof_artifact).length} receipts with a proof artifact`,
  );

  const revocationRows = (await knex('revocations').select('receipt_id')) as {
    receipt_id: string;
  }[];
  const revokedRows = rows.filter((r) => r.revoked_at !== null).map((r) => r.id);
  const sameSet = (a: string[], b: Set<string>) => a.length === b.size && a.every((x) => b.has(x));
  check(
    'revocations rows = acknowledged REVOKED',
    sameSet(
      revocationRows.map((r) => r.receipt_id),
      revoked,
    ) && sameSet(revokedRows, revoked),
    `${revocationRows.length} audit rows, ${revokedRows.length} receipts revoked, ` +
      `${revoked.size} acknowledged REVOKED (${result.alreadyRevokedAnswers} ALREADY_REVOKED answers)`,
  );

  // Later verification of every acknowledged receipt through the API.
  let verified = 0;
  let anchored = 0;
  const failures: string[] = [];
  const ids = [...acknowledged];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/receipt/${id}/verify`,
          headers: { 'x-api-key': token },
        });
        const body = res.json() as Record<string, unknown>;
        const ok =
          res.statusCode === 200 &&
          body.integrityVerified === true &&
          body.signatureVerified === true &&
          body.revoked === revoked.has(id) &&
          body.verified === !revoked.has(id);
        if (ok) verified++;
        else if (failures.length < 5) failures.push(`${id}: ${res.statusCode} ${res.body}`);
        if (body.proofVerified === true) anchored++;
      }
    }),
  );
  check(
    'every acknowledged receipt re-verifies (integrity, signature, revoked as acknowledged)',
    verified === ids.length,
    `${verified}/${ids.length}; ${anchored} also with a verified inclusion proof` +
      (failures.length ? `; e.g. ${failures.join(' | ')}` : ''),
  );

  const served = OPS.reduce((n, op) => n + (result.endpoints[op].statuses['200'] ?? 0), 0);
  const total = OPS.reduce((n, op) => n + result.endpoints[op].count, 0);
  check('every request answered 200 during the load', served === total, `${served}/${total}`);
  check(
    'no anomalous 200 answer',
    result.anomalies.length === 0,
    result.anomalies.length ? result.anomalies.slice(0, 3).join(' | ') : 'none',
  );
  return checks;
}

function printReport(
  result: DriverOutput,
  audit: Check[],
  run: {
    seconds: number;
    connections: number;
    poolMax: number;
    anchorMs: number;
    serverCpuSeconds: number;
  },
): void {
  const seconds = result.durationMs / 1000;
  const errorsOf = (f: EndpointFigures) => {
    const parts = Object.entries(f.statuses)
      .filter(([s]) => s !== '200')
      .map(([s, n]) => `${s}: ${n}`);
    for (const [code, n] of Object.entries(f.transportErrors)) parts.push(`${code}: ${n}`);
    return parts.length ? parts.join(', ') : '0';
  };
  console.log(
    `\n${run.connections} connections for ${seconds.toFixed(1)} s, node ${process.version}, ` +
      `${process.platform}/${process.arch}, pool ${run.poolMax}, sealer ${run.anchorMs > 0 ? `every ${run.anchorMs} ms` : 'off'}; ` +
      `server process CPU ${run.serverCpuSeconds.toFixed(1)} s`,
  );
  console.log('\n| endpoint | requests | req/s | p50 ms | p99 ms | max ms | errors (by status) |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  let total = 0;
  for (const op of OPS) {
    const f = result.endpoints[op];
    total += f.count;
    console.log(
      `| ${LABELS[op]} | ${f.count} | ${(f.count / seconds).toFixed(1)} | ${f.p50} | ${f.p99} | ${f.max} | ${errorsOf(f)} |`,
    );
  }
  console.log(`| all | ${total} | ${(total / seconds).toFixed(1)} | | | | |`);
  console.log(
    `\nacknowledged: ${result.acknowledged.length} receipts (decisions ${JSON.stringify(result.decisions)}), ` +
      `${result.revoked.length} revocations`,
  );
  console.log('\nintegrity audit:');
  for (const c of audit) console.log(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  console.log(`\nverdict: ${audit.every((c) => c.ok) ? 'PASS' : 'FAIL'}`);
}

if (process.env.SOAK_ROLE === 'driver') {
  const input = JSON.parse(
    fs.readFileSync(process.env.SOAK_DRIVER_INPUT ?? '', 'utf8'),
  ) as DriverInput;
  await runDriver(input);
} else {
  process.exitCode = await main().catch((err: unknown) => {
    console.error(`soak failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  });
}
