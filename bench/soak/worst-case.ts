import http from 'node:http';
import { samplePdf } from '../../test/helpers/requests.js';
import { atLimitRequest } from '../../test/helpers/ron.js';
import { send } from './client.js';
import type { DriverInput, WorstCaseFigures } from './workload.js';

/**
 * Beside the soak's mix: a loop of worst-case requests (every field at its limit, see
 * test/helpers/ron.ts atLimitRequest) each followed by a fetch of its PDF, and a /healthz probe
 * every 50 ms on its own connection, whose latency says whether one request can stall the rest.
 */
export async function runWorstCase(
  input: DriverInput,
  deadline: number,
  acknowledge: (receiptId: string) => void,
): Promise<WorstCaseFigures> {
  const base = new URL(input.baseUrl);
  const figures: WorstCaseFigures = {
    atLimit: { count: 0, statuses: {} },
    pdf: { count: 0, statuses: {}, maxBytes: 0 },
    healthz: { count: 0, failures: 0, p50: 0, p99: 0, max: 0, over100ms: 0 },
  };
  const healthLatencies: number[] = [];
  await Promise.all([
    ...Array.from({ length: input.worstCaseWorkers }, (_, worker) =>
      atLimitLoop(input, base, deadline, worker, figures, acknowledge),
    ),
    probeHealth(base, deadline, figures, healthLatencies),
  ]);
  const sorted = healthLatencies.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  figures.healthz.p50 = round(at(0.5) ?? 0);
  figures.healthz.p99 = round(at(0.99) ?? 0);
  figures.healthz.max = round(sorted[sorted.length - 1] ?? 0);
  figures.healthz.over100ms = sorted.filter((ms) => ms >= 100).length;
  return figures;
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const count = (statuses: Record<string, number>, status: number | string) =>
  (statuses[status] = (statuses[status] ?? 0) + 1);

async function atLimitLoop(
  input: DriverInput,
  base: URL,
  deadline: number,
  worker: number,
  figures: WorstCaseFigures,
  acknowledge: (receiptId: string) => void,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { 'x-api-key': input.apiKey };
  for (let n = 0; Date.now() < deadline; n += 1) {
    const body = JSON.stringify(atLimitRequest(input.notary, samplePdf(`worst ${worker} ${n}`)));
    const issued = await send(agent, base, 'POST', '/api/v1/verify', headers, body).catch(
      () => undefined,
    );
    figures.atLimit.count += 1;
    count(figures.atLimit.statuses, issued?.status ?? 'transport');
    if (issued?.status !== 200) continue;
    const id = String((JSON.parse(issued.body) as { receiptId: unknown }).receiptId);
    acknowledge(id);
    const pdf = await send(agent, base, 'GET', `/api/v1/receipt/${id}/pdf`, headers).catch(
      () => undefined,
    );
    figures.pdf.count += 1;
    count(figures.pdf.statuses, pdf?.status ?? 'transport');
    figures.pdf.maxBytes = Math.max(figures.pdf.maxBytes, pdf?.body.length ?? 0);
  }
  agent.destroy();
}

async function probeHealth(
  base: URL,
  deadline: number,
  figures: WorstCaseFigures,
  latencies: number[],
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (Date.now() < deadline) {
    const started = performance.now();
    const answer = await send(agent, base, 'GET', '/healthz', {}).catch(() => undefined);
    latencies.push(performance.now() - started);
    figures.healthz.count += 1;
    if (answer?.status !== 200) figures.healthz.failures += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  agent.destroy();
}
