// Builds the /verify page (src/verify-page) into dist/public: the page and the verifier package
// (@verification-receipts/verify) bundled for the browser with esbuild, and its HTML and CSS.
// Part of `npm run build`; the server serves the result (src/http/routes/verify-page.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const page = path.join(root, 'src/verify-page');
const out = path.join(root, 'dist/public');

export async function buildVerifyPage() {
  fs.mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [path.join(page, 'main.ts')],
    outfile: path.join(out, 'verify.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    // the package's "source" export: bundle its TypeScript, so the page needs no package build
    conditions: ['verification-receipts-source'],
    minify: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  for (const file of ['verify.html', 'verify.css']) {
    fs.copyFileSync(path.join(page, file), path.join(out, file));
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildVerifyPage();
