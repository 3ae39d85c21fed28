import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';
import { main, USAGE } from '@verification-receipts/verify/cli';
import { checkPdfRevisions } from '../../packages/verify/src/pdf/revision-check.js';
import { afterAll, describe, expect, it } from 'vitest';
import { selfIssuedCertificate } from '../../src/pdf/sign/certificate.js';
import { signPdf } from '../../src/pdf/sign/pades.js';
import {
  appendRevision,
  flateStream,
  prepareDocTimeStamp,
  lastTrailer,
  objectBody,
  objectNumber,
  withEntry,
} from '../../packages/verify/test/pdf/incremental.js';
import { tempDir } from '../helpers/context.js';
import { pdfsig, run as runTool } from '../helpers/pades.js';
import { makeTsaFiles } from '../helpers/tsa.js';

/**
 * Receipt PDFs with a revision appended after the service signed them, checked by the verifier and
 * by poppler's pdfsig (NSS), which agrees that the signature no longer covers the whole file; a
 * document time-stamp made by `openssl ts` as the TSA, which PAdES allows and the verifier
 * accepts; and a receipt re-signed with an attacker's key and PDF certificate, which a log alone
 * cannot make pass.
 */

const fixtures = path.join(import.meta.dirname, '../../packages/verify/test/fixtures');
const fixture = (name: string) => new Uint8Array(fs.readFileSync(path.join(fixtures, name)));
const receipt = fixture('receipt.pdf');
const root = Number(lastTrailer(receipt).root.split(' ')[0]);
const catalog = objectBody(receipt, root);
const formNum = Number(/\/AcroForm (\d+) 0 R/.exec(catalog)?.[1]);
const fieldNum = objectNumber(receipt, /\/FT \/Sig/);
const pageNum = Number(/\/P (\d+) 0 R/.exec(objectBody(receipt, fieldNum))?.[1]);
const next = lastTrailer(receipt).size;
const dir = tempDir('pdf-revisions-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function save(name: string, pdf: Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, pdf);
  return file;
}

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, out: out.join('\n') };
}

const forgeries: Record<string, () => Uint8Array> = {
  'no-acroform': () =>
    appendRevision(receipt, { objects: { [root]: withEntry(catalog, 'AcroForm') } }),
  'empty-fields': () =>
    appendRevision(receipt, {
      objects: {
        [formNum]: objectBody(receipt, formNum).replace(/\/Fields \[[^\]]*\]/, '/Fields []'),
      },
    }),
  'field-retyped': () =>
    appendRevision(receipt, {
      objects: { [fieldNum]: objectBody(receipt, fieldNum).replace('/FT /Sig', '/FT /Tx') },
    }),
  'page-drawn-over': () => {
    const contentNum = Number(/\/Contents (\d+) 0 R/.exec(objectBody(receipt, pageNum))?.[1]);
    return appendRevision(receipt, {
      objects: {
        [next]: flateStream(
          '',
          '1 1 1 rg 40 560 520 120 re f 0 g BT /F1 14 Tf 50 640 Td (Grantor: Mallory) Tj ET',
        ),
        [pageNum]: objectBody(receipt, pageNum).replace(
          `/Contents ${contentNum} 0 R`,
          `/Contents [${contentNum} 0 R ${next} 0 R]`,
        ),
      },
    });
  },
  'attachment-swapped': () => {
    const block = fixture('receipt-block.pdf');
    const fileNum = objectNumber(block, /\/Type \/EmbeddedFile/);
    return appendRevision(block, {
      objects: { [fileNum]: flateStream('/Type /EmbeddedFile', fixture('bundle.json')) },
    });
  },
};

describe('a revision appended after signing', () => {
  it.each(Object.keys(forgeries))(
    '%s: the verifier names the revision, pdfsig says the file is not all signed',
    async (name) => {
      const forged = forgeries[name]?.() as Uint8Array;
      const file = save(`${name}.pdf`, forged);
      const report = pdfsig(file);
      if (name === 'field-retyped') {
        // with no /Sig field left, pdfsig finds no signature: it claims nothing is signed
        expect(report).toContain('does not contain any signatures');
      } else {
        expect(report).toContain('Signature Validation: Signature is Valid.'); // signed bytes intact
        expect(report).toContain('Not total document signed');
      }
      const verified = await cli(file, '--jwks', path.join(fixtures, 'jwks.json'));
      expect(verified.code).toBe(1);
      expect(verified.out).toMatch(
        /FAIL {2}pdf-signature +The PDF file was changed after it was signed: .*\n +modified_after_signing: .*revision 3 of 3 \(bytes \d+-\d+\)/,
      );
    },
  );
});

/** The invisible (or `rect`) document time-stamp revision of the receipt, not yet stamped. */
const stampable = (rect = '0 0 0 0') =>
  prepareDocTimeStamp(receipt, {
    field: next + 1,
    value: next,
    form: formNum,
    page: pageNum,
    rect,
  });

/** An RFC 3161 token over `data` from `openssl ts` as the TSA. */
function tokenFor(data: Buffer, config: string): Buffer {
  const signed = path.join(dir, 'dts-signed.bin');
  fs.writeFileSync(signed, data);
  const query = path.join(dir, 'dts.tsq');
  const token = path.join(dir, 'dts.tst');
  openssl(['ts', '-query', '-data', signed, '-sha256', '-cert', '-no_nonce', '-out', query]);
  openssl(['ts', '-reply', '-config', config, '-queryfile', query, '-token_out', '-out', token]);
  return fs.readFileSync(token);
}

/** A document time-stamp revision (/DocTimeStamp, ETSI.RFC3161) over the receipt, by `openssl ts`. */
function withDocTimeStamp(config: string, rect = '0 0 0 0'): Uint8Array {
  const prepared = stampable(rect);
  return prepared.fill(tokenFor(prepared.signed, config));
}

function openssl(args: string[]): void {
  const { status, out } = runTool('openssl', args);
  if (status !== 0) throw new Error(out);
}

describe('what PAdES lets a later validator add', () => {
  it('a document time-stamp made by openssl ts over the file is accepted, and pdfsig reads both signatures', async () => {
    const tsa = makeTsaFiles(path.join(dir, 'tsa'));
    const stamped = withDocTimeStamp(tsa.config);
    const file = save('timestamped.pdf', stamped);
    const report = pdfsig(file);
    expect(report).toContain('Signature #2');
    expect(report).toContain('Not total document signed'); // the service's signature
    expect(report).toContain('Total document signed'); // the time-stamp's
    const result = await checkPdfRevisions(stamped);
    expect(result).toMatchObject({ present: true, ok: true });
    expect((result as { coverage: string }).coverage).toContain(
      `revision 3 adds a document time-stamp (field object ${next + 1})`,
    );
    const verified = await cli(file, '--jwks', path.join(fixtures, 'jwks.json'));
    expect(verified.out).toMatch(
      /PASS {2}pdf-signature +revision 2 of 3 \(bytes 0-\d+\); after it only revision 3 adds a document time-stamp/,
    );
  });

  it('a time-stamp field that shows on the page is not one PAdES allows', async () => {
    const tsa = makeTsaFiles(path.join(dir, 'tsa2'));
    const visible = withDocTimeStamp(tsa.config, '40 40 240 140');
    const result = await checkPdfRevisions(visible);
    expect(result).toMatchObject({ ok: false, modified: true });
    expect((result as { reason: string }).reason).toContain('is visible on a page');
  });

  it('a token over other bytes is not a document time-stamp of this file', async () => {
    const tsa = makeTsaFiles(path.join(dir, 'tsa3'));
    const other = tokenFor(stampable('0 0 0 5').signed, tsa.config); // a zero-width widget
    const result = await checkPdfRevisions(stampable().fill(other));
    expect(result).toMatchObject({ ok: false, modified: true });
    expect((result as { reason: string }).reason).toContain(
      'adds a document time-stamp that is not over the bytes it covers',
    );
  });
});

/** RFC 7638 thumbprint of an Ed25519 key, computed here from the RFC. */
function thumbprint(x: string): string {
  return createHash('sha256')
    .update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`)
    .digest('base64url');
}

/** The receipt's bundle re-signed by `key`, endorsing `certificate` (sha256:<hex>). */
function resigned(
  bundle: { receipt: object; canonicalReceipt: string },
  key: KeyObject,
  publicX: string,
  certificate: string,
) {
  const kid = thumbprint(publicX);
  const sig = (text: string) => sign(null, Buffer.from(text), key).toString('base64url');
  const canonicalStatement = `{"certificate":"${certificate}","kid":"${kid}","type":"verification-receipt-pdf-signer/v1"}`;
  return {
    ...bundle,
    receipt: {
      ...bundle.receipt,
      receiptSignature: { alg: 'EdDSA', kid, signature: sig(bundle.canonicalReceipt) },
    },
    verificationMaterial: {
      publicKey: { kty: 'OKP', crv: 'Ed25519', x: publicX, kid, alg: 'EdDSA' },
    },
    pdfSigner: {
      statement: JSON.parse(canonicalStatement),
      canonicalStatement,
      signature: { alg: 'EdDSA', kid, signature: sig(canonicalStatement) },
    },
  };
}

describe('a receipt in the log, re-signed with an attacker key and PDF certificate', () => {
  it('fails with only the log pinned; the genuine one passes with the log and the published PDF certificate', async () => {
    const fileNum = objectNumber(receipt, /\/Type \/EmbeddedFile/);
    const data = /stream\n([\s\S]*)\nendstream/.exec(objectBody(receipt, fileNum))?.[1] ?? '';
    const bundle = JSON.parse(inflateSync(Buffer.from(data, 'latin1')).toString('utf8'));
    expect(bundle.logEntry).toBeDefined();
    const ed = generateKeyPairSync('ed25519');
    const x = ed.publicKey.export({ format: 'jwk' }).x as string;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const chain = [selfIssuedCertificate(ec, 'receipts.example.com')];
    const certificate = `sha256:${createHash('sha256')
      .update(chain[0] as Buffer)
      .digest('hex')}`;
    const forgedBundle = resigned(bundle, ed.privateKey, x, certificate);
    const eof = Buffer.from(receipt).indexOf('%%EOF', 0, 'latin1');
    const unsigned = receipt.subarray(0, eof + '%%EOF\n'.length);
    const swapped = appendRevision(unsigned, {
      objects: {
        [fileNum]: flateStream('/Type /EmbeddedFile', Buffer.from(JSON.stringify(forgedBundle))),
      },
    });
    const signed = await signPdf(Buffer.from(swapped), { privateKey: ec, chain });
    const file = save('resigned.pdf', signed.pdf);
    expect(pdfsig(file)).toContain('Total document signed');
    const policy = path.join(fixtures, 'log.policy');
    const logOnly = await cli(file, '--log-policy', policy, ...offlineFlag());
    expect(logOnly.out).toMatch(/PASS {2}key-trust +the receipt is in the pinned log/);
    expect(logOnly.out).toMatch(
      /FAIL {2}pdf-signature +.*\n +the PDF signer statement is signed by kid .*, not a pinned key/,
    );
    expect(logOnly.code).toBe(1);
    const genuine = await cli(
      path.join(fixtures, 'receipt.pdf'),
      '--log-policy',
      policy,
      '--pdf-cert',
      path.join(fixtures, 'pdf-signing-cert.pem'),
      ...offlineFlag(),
    );
    expect(genuine.code, genuine.out).toBe(0);
  });
});

/** --offline (accepting an unknown current status) where this CLI knows it. */
function offlineFlag(): string[] {
  return USAGE.includes('--offline') ? ['--offline'] : [];
}
