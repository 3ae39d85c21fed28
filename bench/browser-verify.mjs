/* global Buffer, TextEncoder, atob, performance, console */
// The verifier's time per receipt in headless Chromium (Debian's chromium, playwright-core): the
// recorded anchored bundle (packages/verify/test/fixtures/bundle.json) verified by the browser
// build of @verification-receipts/verify, with and without an ML-DSA-44 signature beside the
// Ed25519 one. The ML-DSA key and signature are made here with @noble/post-quantum.
// Run: node bench/browser-verify.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, 'packages/verify/test/fixtures');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-verify-'));
const entry = path.join(dir, 'entry.mjs');
fs.writeFileSync(
  entry,
  `export { verifyBundle } from ${JSON.stringify(path.join(root, 'packages/verify/src/index.ts'))};\n` +
    `export { akpThumbprint, jwkKey } from ${JSON.stringify(path.join(root, 'packages/verify/src/primitives.ts'))};\n`,
);
const out = await build({
  entryPoints: [entry],
  bundle: true,
  format: 'iife',
  globalName: 'V',
  platform: 'browser',
  write: false,
  conditions: ['verification-receipts-source'],
});
const script = out.outputFiles[0].text;

const bundle = JSON.parse(fs.readFileSync(path.join(fixtures, 'bundle.json'), 'utf8'));
const jwks = JSON.parse(fs.readFileSync(path.join(fixtures, 'jwks.json'), 'utf8'));
const b64u = (b) => Buffer.from(b).toString('base64url');
const keys = ml_dsa44.keygen(new Uint8Array(32).fill(7));
const pub = { kty: 'AKP', alg: 'ML-DSA-44', pub: b64u(keys.publicKey) };
const signature = ml_dsa44.sign(new TextEncoder().encode(bundle.canonicalReceipt), keys.secretKey);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage();
await page.addScriptTag({ content: script });
const result = await page.evaluate(
  ({ bundle, jwks, pub, sig, pqPub }) => {
    const { verifyBundle, akpThumbprint, jwkKey } = globalThis.V;
    const kid = akpThumbprint(Uint8Array.from(atob(pqPub), (c) => c.charCodeAt(0)));
    const hybrid = {
      ...bundle,
      pqSignature: { alg: 'ML-DSA-44', kid, signature: sig, publicKey: { ...pub, kid } },
    };
    const keys = jwks.keys.map((k) => jwkKey(k)).filter(Boolean);
    const pqKeys = [Uint8Array.from(atob(pqPub), (c) => c.charCodeAt(0))];
    const time = (b, n, opts) => {
      const verdicts = [];
      for (let i = 0; i < 5; i += 1) verifyBundle(b, opts); // warm-up
      const runs = [];
      for (let i = 0; i < n; i += 1) {
        const t = performance.now();
        verdicts.push(verifyBundle(b, opts));
        runs.push(performance.now() - t);
      }
      runs.sort((x, y) => x - y);
      return {
        median: runs[n >> 1],
        p95: runs[Math.floor(n * 0.95)],
        authentic: verdicts[0].authentic,
        pq: verdicts[0].steps.find((s) => s.id === 'pq-signature')?.status,
      };
    };
    return {
      ed25519: time(bundle, 100, { trust: { keys } }),
      hybrid: time(hybrid, 100, { trust: { keys, pqKeys }, requirePq: true }),
    };
  },
  {
    bundle,
    jwks,
    pub,
    sig: b64u(signature),
    pqPub: Buffer.from(keys.publicKey).toString('base64'),
  },
);
console.log(JSON.stringify({ chromium: browser.version(), ...result }, null, 2));
await browser.close();
