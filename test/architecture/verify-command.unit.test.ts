import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { globSync } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { VERIFIER_PACKAGE, verifyCommand } from '../../src/contract/links.js';

/**
 * Every public text that tells someone how to check a receipt names the scoped verifier package
 * with a trust root. Outside a clone the unscoped `receipts` on npm is somebody else's package,
 * and a verifier run with no trust root refuses, so either mistake leaves the reader stuck or,
 * worse, running a stranger's code. The texts: the /verify page, the PDF (its sources and the
 * committed sample), the check-run summary, the OpenAPI descriptions, the action, the docs and
 * the READMEs. A README line about working inside a clone may name the service's own command.
 * The PDF's page text is read as a reader sees it (its content streams are compressed, so its
 * bytes alone would hide the commands it prints).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

const PUBLIC =
  /^(src\/(verify-page|pdf|github|http|contract)\/|action\/|docs\/|packages\/verify\/README\.md$|README\.md$)/;
const TEXT = /\.(ts|m?js|html|md|ya?ml|json)$/;

function publicFiles(): string[] {
  return globSync(['src/**', 'action/**', 'docs/**', 'packages/verify/README.md', 'README.md'], {
    cwd: root,
  }).filter((file) => PUBLIC.test(file) && (TEXT.test(file) || file === 'docs/sample-receipt.pdf'));
}

/**
 * `npx receipts verify`, or the verifier given a file but no trust root: the scoped command, or
 * its installed name `receipt-verify` (a line that shows the refusal, "no trust root", may).
 */
export function wrongCommands(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (/npx receipts verify/.test(line) && !/\bclone\b/.test(line)) found.push(line.trim());
    for (const command of [`npx ${VERIFIER_PACKAGE} `, 'receipt-verify ']) {
      const at = line.indexOf(command);
      if (at < 0) continue;
      const rest = line.slice(at + command.length);
      const argument = /^[^\s`'"-]/.test(rest);
      const rooted = /--(online|jwks|key|log-policy)\b/.test(rest);
      if (argument && !rooted && !/no trust root/.test(line)) found.push(line.trim());
    }
  }
  return found;
}

/** The text a PDF's pages show, one line per line of print. */
async function pdfLines(file: string): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(readFileSync(file)), verbosity: 0 }).promise;
  let text = '';
  for (let n = 1; n <= doc.numPages; n += 1) {
    for (const item of (await (await doc.getPage(n)).getTextContent()).items) {
      if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
    }
  }
  await doc.destroy();
  return text;
}

describe('the verify command in public texts', () => {
  it('the one generator pins a trust root', () => {
    expect(verifyCommand('FILE', 'https://r.example')).toBe(
      'npx @verification-receipts/verify FILE --online https://r.example',
    );
    expect(wrongCommands(verifyCommand('FILE', 'https://r.example', 'jwks'))).toEqual([]);
  });

  it('finds the wrong forms it looks for', () => {
    expect(wrongCommands('run `npx receipts verify FILE`')).toHaveLength(1);
    expect(wrongCommands('run `npx @verification-receipts/verify FILE` now')).toHaveLength(1);
    expect(wrongCommands('`npx @verification-receipts/verify FILE --jwks k.json`')).toEqual([]);
    expect(wrongCommands('the package (`npx @verification-receipts/verify`)')).toEqual([]);
    expect(wrongCommands('`npx @verification-receipts/verify --help`')).toEqual([]);
    expect(wrongCommands('then `receipt-verify receipt.pdf` checks it')).toHaveLength(1);
    expect(wrongCommands('`receipt-verify receipt.pdf --online https://r.example`')).toEqual([]);
    expect(wrongCommands('| no trust root | `receipt-verify receipt.pdf` | 2 |')).toEqual([]);
  });

  it("the PDF's printed text gives the scoped command with a trust root, and no other form", async () => {
    const text = await pdfLines(path.join(root, 'docs/sample-receipt.pdf'));
    expect(text).toMatch(/npx @verification-receipts\/verify receipt-\S+\.pdf --online /);
    // the offline form is printed only inside the page's compressed content
    expect(text).toMatch(/npx @verification-receipts\/verify receipt-\S+\.pdf --jwks /);
    expect(wrongCommands(text)).toEqual([]);
  });

  it('no page, PDF, check run, OpenAPI text, action or document names another form', () => {
    const files = publicFiles();
    expect(files).toEqual(
      expect.arrayContaining([
        'src/verify-page/verify.html',
        'src/github/output.ts',
        'action/action.yml',
        'docs/sample-receipt.pdf',
        'README.md',
      ]),
    );
    const offenders = files.flatMap((file) =>
      wrongCommands(readFileSync(path.join(root, file), 'latin1')).map((l) => `${file}: ${l}`),
    );
    expect(offenders).toEqual([]);
  });
});
