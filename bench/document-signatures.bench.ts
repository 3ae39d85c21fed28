import { readFileSync } from 'node:fs';
import { documentEvidence } from '../src/receipts/notarial/evidence.js';
import type { NotaryRecord } from '../src/receipts/types.js';
import {
  largeDeed,
  NOTARY_ID,
  NOTARY_NAME,
  notarialFixtures,
} from '../test/helpers/notarial-deeds.js';

/**
 * `doc.signatures` on a 1 MB deed with two signatures (another signer's, then the notary's, each
 * made by poppler's pdfsig in its own revision): what the check adds to issuance, in process. One
 * call reads every revision and signature, verifies both CMS signatures (RSA 2048), builds both
 * certificate paths to the trust anchor and reads the printed text: `documentEvidence`, which
 * issuance runs once per request under ron-pades-v1. BENCH_RUNS (200) timed calls after 20
 * warm-up calls; p50, p95 and max.
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 20;

const fixtures = notarialFixtures();
const deed = fixtures.sign(
  fixtures.sign(largeDeed(1024 * 1024 - 560 * 1024), 'other', 'Witness'),
  'notary',
  'Notary',
);
const trust = {
  anchors: [readFileSync(fixtures.root.certFile, 'utf8')]
    .map((pem) => pem.replace(/-----[A-Z ]+-----|\s/g, ''))
    .filter(Boolean),
  signer: 'certificate' as const,
};
const notary: NotaryRecord = {
  tenant: 't',
  notaryId: NOTARY_ID,
  displayName: NOTARY_NAME,
  commissionState: 'TX',
  commissionExpires: '2099-12-31',
  publicKeyPem: '',
  certificateDer: fixtures.notary.der.toString('base64'),
};
const bytes = new Uint8Array(deed);

/** Wall time, and the process's CPU time (user + system): on a shared host, the steadier figure. */
async function once(): Promise<{ wall: number; cpu: number }> {
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const evidence = await documentEvidence({ bytes, trust, notary, now: new Date() });
  const cpuUsed = process.cpuUsage(cpuStart);
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = (cpuUsed.user + cpuUsed.system) / 1000;
  if (evidence.kind !== 'read' || evidence.signatures.some((s) => s.problem)) {
    throw new Error(`the bench deed does not pass: ${JSON.stringify(evidence)}`);
  }
  return { wall, cpu };
}

for (let i = 0; i < WARMUP; i += 1) await once();
const runs: { wall: number; cpu: number }[] = [];
for (let i = 0; i < RUNS; i += 1) runs.push(await once());
const summary = (values: number[]): string => {
  values.sort((a, b) => a - b);
  const at = (q: number) =>
    values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;
  return `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`;
};
console.log(
  `doc.signatures on a ${(deed.length / 1024 / 1024).toFixed(2)} MiB deed with 2 signatures (3 revisions), ${RUNS} runs:\n` +
    `  wall ${summary(runs.map((r) => r.wall))}\n  cpu  ${summary(runs.map((r) => r.cpu))}`,
);
