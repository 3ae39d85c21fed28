import fs from 'node:fs';
import http from 'node:http';
import { signRevocation } from '../../src/receipts/revocation.js';
import { samplePdf } from '../../test/helpers/requests.js';
import { validRequest } from '../../test/helpers/ron.js';
import { send, type Answer } from './client.js';
import { runWorstCase } from './worst-case.js';
import {
  MIX,
  OPS,
  REPEAT_REVOKE_SHARE,
  type DriverInput,
  type DriverOutput,
  type EndpointFigures,
  type Op,
} from './workload.js';

/**
 * The load driver (the second process): `connections` workers, each with its own keep-alive
 * socket, issuing one request at a time until the deadline; in-flight requests are always
 * awaited, never abandoned. It records every acknowledged receipt id and revocation.
 */

/** One request to send, and what its answer is checked against. */
interface Planned {
  method: 'GET' | 'POST';
  urlPath: string;
  headers: Record<string, string>;
  body?: string;
  target: string;
  repeatRevoke: boolean;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

const emptyFigures = (): EndpointFigures => ({
  count: 0,
  statuses: {},
  transportErrors: {},
  p50: 0,
  p99: 0,
  mean: 0,
  max: 0,
});

class LoadDriver {
  readonly out: DriverOutput = {
    durationMs: 0,
    endpoints: Object.fromEntries(OPS.map((op) => [op, emptyFigures()])) as Record<
      Op,
      EndpointFigures
    >,
    acknowledged: [],
    revoked: [],
    alreadyRevokedAnswers: 0,
    decisions: {},
    anomalies: [],
  };
  private readonly base: URL;
  private readonly agent: http.Agent;
  private readonly apiHeaders: Record<string, string>;
  private readonly known: string[];
  private readonly unrevoked: string[];
  private readonly latencies = Object.fromEntries(OPS.map((op) => [op, [] as number[]])) as Record<
    Op,
    number[]
  >;
  private generation = 0;
  private verifyBody: string;

  constructor(private readonly input: DriverInput) {
    this.base = new URL(input.baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: input.connections });
    this.apiHeaders = { 'x-api-key': input.apiKey };
    this.known = [...input.seedIds];
    this.unrevoked = [...input.seedIds];
    this.verifyBody = this.freshBody();
  }

  /**
   * A fresh verification request (new document, seal and timestamp), renewed every second:
   * realistic bodies without spending the driver's core on signing seals for every request.
   */
  private freshBody(): string {
    return JSON.stringify({
      ...validRequest(this.input.notary, samplePdf(`soak document ${this.generation++}`)),
      bundleId: `soak-${this.generation}`,
    });
  }

  private anomaly(text: string): void {
    if (this.out.anomalies.length < 50) this.out.anomalies.push(text);
  }

  private pick(): Op {
    const cumulative = MIX.verify + MIX.retrieve + MIX.reverify + MIX.list + MIX.revoke;
    let r = Math.random() * cumulative;
    for (const op of OPS) {
      r -= MIX[op];
      if (r < 0) return op;
    }
    return 'verify';
  }

  private anyKnown(): string {
    return this.known[Math.floor(Math.random() * this.known.length)] as string;
  }

  /** The request for `op`; undefined for a revocation with no target at all. */
  private plan(op: Op): Planned | undefined {
    const plain = { headers: this.apiHeaders, target: '', repeatRevoke: false };
    switch (op) {
      case 'verify':
        return { ...plain, method: 'POST', urlPath: '/api/v1/verify', body: this.verifyBody };
      case 'retrieve': {
        const target = this.anyKnown();
        return { ...plain, target, method: 'GET', urlPath: `/api/v1/receipt/${target}` };
      }
      case 'reverify': {
        const target = this.anyKnown();
        return { ...plain, target, method: 'POST', urlPath: `/api/v1/receipt/${target}/verify` };
      }
      case 'list':
        return { ...plain, method: 'GET', urlPath: '/api/v1/receipts?limit=50' };
      case 'revoke':
        return this.planRevoke();
    }
  }

  private planRevoke(): Planned | undefined {
    const { revoked } = this.out;
    let repeatRevoke = revoked.length > 0 && Math.random() < REPEAT_REVOKE_SHARE;
    let target: string;
    if (repeatRevoke || this.unrevoked.length === 0) {
      if (revoked.length === 0) return undefined;
      repeatRevoke = true;
      target = revoked[Math.floor(Math.random() * revoked.length)] as string;
    } else {
      const i = Math.floor(Math.random() * this.unrevoked.length);
      target = this.unrevoked[i] as string;
      this.unrevoked[i] = this.unrevoked[this.unrevoked.length - 1] as string;
      this.unrevoked.pop();
    }
    const { issuerPem, issuerId } = this.input;
    const h = signRevocation(issuerPem, issuerId, target, new Date().toISOString());
    const headers = {
      ...this.apiHeaders,
      'x-issuer-id': h.issuerId,
      'x-signature-timestamp': h.timestamp,
      'x-issuer-signature': h.signature,
    };
    return {
      method: 'POST',
      urlPath: `/api/v1/receipt/${target}/revoke`,
      headers,
      target,
      repeatRevoke,
    };
  }

  /** Sends one request of kind `op`, records its latency and status and checks its answer. */
  private async once(op: Op): Promise<void> {
    const planned = this.plan(op);
    if (!planned) return this.once('verify');
    const figures = this.out.endpoints[op];
    const started = performance.now();
    let answer: Answer;
    try {
      const { method, urlPath, headers, body } = planned;
      answer = await send(this.agent, this.base, method, urlPath, headers, body);
    } catch (err) {
      figures.count++;
      const code = String((err as { code?: unknown }).code ?? (err as Error).message);
      figures.transportErrors[code] = (figures.transportErrors[code] ?? 0) + 1;
      return;
    }
    this.latencies[op].push(performance.now() - started);
    figures.count++;
    figures.statuses[answer.status] = (figures.statuses[answer.status] ?? 0) + 1;
    if (answer.status !== 200) return;
    this.check(op, planned, answer);
  }

  /** Records what a 200 acknowledged, and any anomaly in it. */
  private check(op: Op, { target, repeatRevoke }: Planned, answer: Answer): void {
    const json = JSON.parse(answer.body) as Record<string, unknown>;
    switch (op) {
      case 'verify':
        return this.acknowledge(json, answer.body);
      case 'retrieve':
        if (json.receiptId !== target)
          this.anomaly(`GET ${target} answered ${String(json.receiptId)}`);
        return;
      case 'reverify':
        if (json.integrityVerified !== true || json.signatureVerified !== true) {
          this.anomaly(`re-verification of ${target}: ${answer.body}`);
        }
        return;
      case 'list':
        if (!Array.isArray(json)) this.anomaly(`list answered ${answer.body.slice(0, 200)}`);
        return;
      case 'revoke':
        return this.checkRevocation(json, target, repeatRevoke, answer.body);
    }
  }

  private acknowledge(json: Record<string, unknown>, body: string): void {
    const id = json.receiptId;
    if (typeof id !== 'string') return this.anomaly(`verify 200 without receiptId: ${body}`);
    this.out.acknowledged.push(id);
    this.known.push(id);
    this.unrevoked.push(id);
    const decision = String(json.decision);
    this.out.decisions[decision] = (this.out.decisions[decision] ?? 0) + 1;
  }

  private checkRevocation(
    json: Record<string, unknown>,
    target: string,
    repeatRevoke: boolean,
    body: string,
  ): void {
    if (json.result === 'REVOKED') {
      if (repeatRevoke) this.anomaly(`second revocation of ${target} answered REVOKED`);
      else this.out.revoked.push(target);
    } else if (json.result === 'ALREADY_REVOKED') {
      this.out.alreadyRevokedAnswers++;
      if (!repeatRevoke) this.anomaly(`first revocation of ${target} answered ALREADY_REVOKED`);
    } else {
      this.anomaly(`revoke ${target} answered ${body}`);
    }
  }

  /** Runs the workers until the deadline, then fills in the latency figures. */
  async run(): Promise<DriverOutput> {
    const refresh = setInterval(() => (this.verifyBody = this.freshBody()), 1_000);
    const started = Date.now();
    const deadline = started + this.input.seconds * 1000;
    const progress = setInterval(() => this.progress(started), 10_000);
    const worst = runWorstCase(this.input, deadline, (id) => {
      this.out.acknowledged.push(id);
      this.known.push(id);
    });
    await Promise.all(
      Array.from({ length: this.input.connections }, async () => {
        while (Date.now() < deadline) await this.once(this.pick());
      }),
    );
    this.out.worstCase = await worst;
    this.out.durationMs = Date.now() - started;
    clearInterval(progress);
    clearInterval(refresh);
    this.agent.destroy();
    this.summarize();
    return this.out;
  }

  private progress(started: number): void {
    const done = OPS.reduce((n, op) => n + this.out.endpoints[op].count, 0);
    const s = Math.round((Date.now() - started) / 1000);
    process.stderr.write(
      `  [driver] ${s}s: ${done} requests, ${this.out.acknowledged.length} receipts acknowledged, ` +
        `${this.out.revoked.length} revocations\n`,
    );
  }

  private summarize(): void {
    for (const op of OPS) {
      const sorted = this.latencies[op].sort((a, b) => a - b);
      const f = this.out.endpoints[op];
      f.p50 = round(percentile(sorted, 0.5));
      f.p99 = round(percentile(sorted, 0.99));
      f.max = round(sorted[sorted.length - 1] ?? 0);
      f.mean = round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length));
    }
  }
}

/** Drives the load described in `input` and writes the DriverOutput to `input.outFile`. */
export async function runDriver(input: DriverInput): Promise<void> {
  const out = await new LoadDriver(input).run();
  fs.writeFileSync(input.outFile, JSON.stringify(out));
}
