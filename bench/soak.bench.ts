/**
 * Soak: a mixed workload against a real listening server on PostgreSQL, then an integrity audit.
 *   npm run bench:soak
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a fresh
 * schema is created and dropped at the end), SOAK_SECONDS (60), SOAK_CONNECTIONS (50),
 * SOAK_POOL_MAX (20, the service's DATABASE_POOL_MAX), SOAK_ANCHOR_INTERVAL_MS (10000: the
 * in-process sealer runs during the soak, as in production; 0 disables it), SOAK_SEED (100
 * receipts issued before the load, so reads and revocations have targets from the first second),
 * SOAK_WORST_CASE_WORKERS (2: workers sending at-limit requests and fetching their PDFs beside the
 * mix, while /healthz is probed every 50 ms; the server's RSS is sampled every 100 ms).
 *
 * The server runs in this process; the load comes from a second process (this same file, started
 * with SOAK_ROLE=driver) so that on a 2-core machine one core serves and one drives. The driver
 * keeps `connections` workers, each with its own keep-alive socket, issuing one request at a time
 * until the deadline; in-flight requests are always awaited, never abandoned. It records every
 * receipt id the service acknowledged (200 from POST /verify) and every acknowledged revocation
 * (200 REVOKED). Afterwards this process checks the database against those acknowledgements:
 * every acknowledged receipt is stored and re-verifies, nothing unacknowledged was written, and
 * exactly the acknowledged revocations are in effect. Exit code 1 when any check fails.
 *
 * The parts are in bench/soak/: workload.ts (the mix and the driver's input and output),
 * driver.ts (the load), server.ts (the service and its setup), audit.ts and report.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { auditStore } from './soak/audit.js';
import { runDriver } from './soak/driver.js';
import { runDriverProcess } from './soak/driver-process.js';
import { printReport } from './soak/report.js';
import { soakSettings } from './soak/settings.js';
import type { DriverInput, DriverOutput } from './soak/workload.js';

async function main(): Promise<number> {
  const settings = soakSettings();
  const { seconds, connections, poolMax, anchorMs, schema } = settings;
  // the server's modules load in this process only, never in the driver's
  const { ISSUER_ID, TENANT, withSoakServer } = await import('./soak/server.js');
  return withSoakServer(settings, async (server, scratch) => {
    console.log(
      `soak: ${seconds} s, ${connections} connections, pool ${poolMax}, sealer every ` +
        `${anchorMs > 0 ? `${anchorMs} ms` : '(off)'}, schema ${schema}, ${server.seedIds.length} seed receipts`,
    );
    const inputFile = path.join(scratch, 'driver-input.json');
    const outFile = path.join(scratch, 'driver-output.json');
    const input: DriverInput = {
      baseUrl: server.baseUrl,
      apiKey: server.token,
      tenant: TENANT,
      seconds,
      connections,
      seedIds: server.seedIds,
      notary: server.notary,
      issuerId: ISSUER_ID,
      issuerPem: server.issuerPem,
      outFile,
      worstCaseWorkers: settings.worstCaseWorkers,
    };
    fs.writeFileSync(inputFile, JSON.stringify(input), { mode: 0o600 });
    const cpuBefore = process.cpuUsage();
    let maxRssBytes = process.memoryUsage().rss;
    // how long the event loop was blocked at a time: what one request can do to all the others
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const rss = setInterval(() => {
      maxRssBytes = Math.max(maxRssBytes, process.memoryUsage().rss);
    }, 100);
    await runDriverProcess(fileURLToPath(import.meta.url), inputFile, seconds).finally(() =>
      clearInterval(rss),
    );
    loopDelay.disable();
    const serverCpu = process.cpuUsage(cpuBefore);
    const result = JSON.parse(fs.readFileSync(outFile, 'utf8')) as DriverOutput;

    const audit = await auditStore(server.app, server.knex, server.token, server.seedIds, result);
    const serverCpuSeconds = (serverCpu.user + serverCpu.system) / 1e6;
    printReport(result, audit, {
      seconds,
      connections,
      poolMax,
      anchorMs,
      serverCpuSeconds,
      maxRssMb: Math.round(maxRssBytes / 2 ** 20),
      loopDelayMs: {
        p99: Math.round(loopDelay.percentile(99) / 1e5) / 10,
        max: Math.round(loopDelay.max / 1e5) / 10,
      },
    });
    return audit.every((c) => c.ok) ? 0 : 1;
  });
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
