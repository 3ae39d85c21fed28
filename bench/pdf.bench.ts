/**
 * PDF receipt benchmark: `npm run bench:pdf`.
 *
 * Renders a typical receipt (the ALLOW fixture of test/pdf, six checks, with its bundle attached:
 * receipt, canonical form, key, an inclusion proof of 20 hashes and a checkpoint) and signs it as
 * PAdES B-B with a P-256 key and its self-issued certificate, as GET /receipt/{id}/pdf does the
 * first time a state is asked for. Prints the median and 95th percentile of render, sign and
 * both, and the PDF's size (the room it takes in the store). A time-stamp authority's round trip
 * (B-T) is the network's and is not included.
 */
import { generateKeyPairSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { renderReceiptPdf } from '../src/pdf/receipt-pdf.js';
import { selfIssuedCertificate } from '../src/pdf/sign/certificate.js';
import { signPdf } from '../src/pdf/sign/pades.js';
import { cleanView, HASH } from '../test/pdf/fixtures.js';

const WARMUP = 30;
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

function typicalView() {
  const view = cleanView();
  const hash = () => HASH;
  return {
    ...view,
    bundle: {
      mediaType: 'application/vnd.verification-receipt.bundle+json;version=1',
      receipt: view.receipt,
      canonicalReceipt: view.canonicalReceipt,
      verificationMaterial: {
        publicKey: {
          kty: 'OKP',
          crv: 'Ed25519',
          x: 'A'.repeat(43),
          kid: 'B'.repeat(43),
          alg: 'EdDSA',
        },
      },
      logEntry: {
        origin: 'receipts.example.com/log',
        noteVerifierKey: `receipts.example.com/log+0123abcd+${'C'.repeat(44)}`,
        leafVersion: 'rfc9162-sha256-v1',
        logIndex: 734_211,
        treeSize: 1_000_000,
        rootHash: HASH,
        inclusionProof: Array.from({ length: 20 }, hash),
        checkpoint: `receipts.example.com/log\n1000000\n${'D'.repeat(44)}\n\n— receipts.example.com/log ${'E'.repeat(92)}\n`,
      },
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0;

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const credentials = { privateKey, chain: [selfIssuedCertificate(privateKey, 'Example Title Co')] };
const view = typicalView();
const render: number[] = [];
const sign: number[] = [];
let size = 0;
for (let i = 0; i < WARMUP + RUNS; i += 1) {
  const t0 = performance.now();
  const pdf = await renderReceiptPdf(view);
  const t1 = performance.now();
  const signed = await signPdf(pdf, credentials);
  const t2 = performance.now();
  if (i >= WARMUP) {
    render.push(t1 - t0);
    sign.push(t2 - t1);
  }
  size = signed.pdf.length;
}
const total = render.map((r, i) => r + (sign[i] ?? 0));
const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`| step | median | p95 |\n| --- | --- | --- |`);
console.log(`| render | ${ms(median(render))} | ${ms(p95(render))} |`);
console.log(`| sign (PAdES B-B) | ${ms(median(sign))} | ${ms(p95(sign))} |`);
console.log(`| render + sign | ${ms(median(total))} | ${ms(p95(total))} |`);
console.log(`\n${RUNS} runs after ${WARMUP} warm-up; signed PDF ${(size / 1024).toFixed(1)} KiB`);
