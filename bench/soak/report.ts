import type { Check } from './audit.js';
import { LABELS, OPS, type DriverOutput, type EndpointFigures } from './workload.js';

/** How the soak ran, for the report's first line. */
export interface RunFigures {
  seconds: number;
  connections: number;
  poolMax: number;
  anchorMs: number;
  serverCpuSeconds: number;
  /** Highest resident set size of the server process during the load. */
  maxRssMb: number;
  /** Event-loop delay of the server process (perf_hooks): the longest it was blocked. */
  loopDelayMs: { p99: number; max: number };
}

/** Non-200 answers and transport failures of an endpoint, e.g. `503: 2, TIMEOUT: 1`, or `0`. */
function errorsOf(f: EndpointFigures): string {
  const parts = Object.entries(f.statuses)
    .filter(([s]) => s !== '200')
    .map(([s, n]) => `${s}: ${n}`);
  for (const [code, n] of Object.entries(f.transportErrors)) parts.push(`${code}: ${n}`);
  return parts.length ? parts.join(', ') : '0';
}

/** The per-endpoint table (markdown). */
function printTable(result: DriverOutput, seconds: number): void {
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
}

export function printReport(result: DriverOutput, audit: Check[], run: RunFigures): void {
  const seconds = result.durationMs / 1000;
  console.log(
    `\n${run.connections} connections for ${seconds.toFixed(1)} s, node ${process.version}, ` +
      `${process.platform}/${process.arch}, pool ${run.poolMax}, sealer ${run.anchorMs > 0 ? `every ${run.anchorMs} ms` : 'off'}; ` +
      `server process CPU ${run.serverCpuSeconds.toFixed(1)} s`,
  );
  printTable(result, seconds);
  console.log(
    `\nacknowledged: ${result.acknowledged.length} receipts (decisions ${JSON.stringify(result.decisions)}), ` +
      `${result.revoked.length} revocations`,
  );
  const w = result.worstCase;
  if (w) {
    console.log(
      `\nworst case beside the mix: ${w.atLimit.count} at-limit requests ${JSON.stringify(w.atLimit.statuses)}, ` +
        `${w.pdf.count} PDFs ${JSON.stringify(w.pdf.statuses)} (largest ${Math.round(w.pdf.maxBytes / 1024)} KiB)`,
    );
    console.log(
      `/healthz every 50 ms: ${w.healthz.count} probes, ${w.healthz.failures} failed, ` +
        `p50 ${w.healthz.p50} ms, p99 ${w.healthz.p99} ms, max ${w.healthz.max} ms, ${w.healthz.over100ms} at or over 100 ms`,
    );
  }
  console.log(
    `server process: max RSS ${run.maxRssMb} MiB; event-loop delay p99 ${run.loopDelayMs.p99} ms, ` +
      `max ${run.loopDelayMs.max} ms`,
  );
  console.log('\nintegrity audit:');
  for (const c of audit) console.log(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  console.log(`\nverdict: ${audit.every((c) => c.ok) ? 'PASS' : 'FAIL'}`);
}
