import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CA_EXT, openssl, TestPki, type Issued } from './test-pki.js';
import type { TsaFiles } from './tsa.js';

/**
 * Signed deeds made by tools independent of the code under test, once per test process (a few
 * seconds of openssl, certutil and pdfsig) and cached in a temporary directory:
 *
 * - a test PKI made with `openssl ca`: a root and an intermediate CA, the notary's certificate,
 *   an expired one of the same notary, another notary's, and a certificate of the same name from
 *   a CA outside the trust anchors;
 * - an NSS database (`certutil`, `pk12util`) holding those identities, with which poppler's
 *   `pdfsig -add-signature` signs (adbe.pkcs7.detached, BER indefinite lengths, no signingTime,
 *   the time in /M only);
 * - a second route: a PDF assembled here byte by byte with a signature dictionary whose
 *   /Contents is filled with `openssl cms -sign` over its /ByteRange (DER, signingTime signed);
 * - incremental updates written by hand: an edit of the page after signing, a DSS-only revision.
 */

export const NOTARY_NAME = 'Jane Q Public';
export const NOTARY_ID = 'TX-1234567';
const DAY = 24 * 3600 * 1000;
export const LEAF_EXT = [
  'basicConstraints = CA:FALSE',
  'keyUsage = critical,digitalSignature,nonRepudiation',
];

export interface NotarialFixtures {
  dir: string;
  root: Issued;
  intermediate: Issued;
  notary: Issued;
  expired: Issued;
  other: Issued;
  rogueRoot: Issued;
  rogue: Issued;
  /** The root CA as a PEM file: the tenant's notary trust anchors. */
  anchorsFile: string;
  /** The deed with its notarial certificate text, unsigned. */
  unsigned: Buffer;
  /** Signed with pdfsig by the notary. */
  signed: Buffer;
  /** Signed by the other notary, then by the notary (two signatures, two revisions). */
  twoSignatures: Buffer;
  /** Signed by the notary with `openssl cms` over a hand-assembled PDF. */
  cmsSigned: Buffer;
  /** Signed by the notary, then page 1's content replaced in a later revision. */
  editedAfterSigning: Buffer;
  /** Signed by the notary, then a revision adding only a DSS dictionary. */
  dssAfterSigning: Buffer;
  signedByExpired: Buffer;
  signedByOther: Buffer;
  signedByRogue: Buffer;
  /** Signed by the notary, then one byte of the signed page content changed in place. */
  tampered: Buffer;
  /**
   * Signed by the notary with `openssl cms`, with a signature time-stamp token (`openssl ts`, the
   * TSA of `tsa`) over its signature value in the unsigned attributes.
   */
  timeStamped(tsa: TsaFiles): Buffer;
  /** Signs `pdf` with pdfsig as the identity `nick` (notary, expired, other, rogue). */
  sign(pdf: Buffer, nick: string, field: string): Buffer;
}

let cached: NotarialFixtures | undefined;

export function notarialFixtures(): NotarialFixtures {
  cached ??= build();
  return cached;
}

function build(): NotarialFixtures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notarial-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const pki = new TestPki(path.join(dir, 'pki'));
  const root = pki.issue('root', 'Test Notary Root CA', { ext: CA_EXT });
  const intermediate = pki.issue('intermediate', 'Test Notary Issuing CA', {
    issuer: root,
    ext: ['basicConstraints = critical,CA:TRUE,pathlen:0', 'keyUsage = critical,keyCertSign'],
  });
  const notary = pki.issue('notary', NOTARY_NAME, {
    issuer: intermediate,
    ext: LEAF_EXT,
    rsa: true,
  });
  // NSS files identities by subject: each certificate gets a subject of its own
  const expired = pki.issue('expired', 'Jane Q. Public', {
    issuer: intermediate,
    ext: LEAF_EXT,
    rsa: true,
    notBefore: new Date(Date.now() - 800 * DAY),
    notAfter: new Date(Date.now() - 400 * DAY),
  });
  const other = pki.issue('other', 'John Roe', { issuer: intermediate, ext: LEAF_EXT, rsa: true });
  const rogueRoot = pki.issue('rogue-root', 'Elsewhere Root CA', { ext: CA_EXT });
  const rogue = pki.issue('rogue', 'Jane Q Public (elsewhere)', {
    issuer: rogueRoot,
    ext: LEAF_EXT,
    rsa: true,
  });

  const nss = path.join(dir, 'nss');
  fs.mkdirSync(nss);
  tool('certutil', ['-N', '-d', `sql:${nss}`, '--empty-password']);
  for (const [nick, leaf, chain] of [
    ['notary', notary, intermediate],
    ['expired', expired, intermediate],
    ['other', other, intermediate],
    ['rogue', rogue, rogueRoot],
  ] as const) {
    const p12 = path.join(dir, `${nick}.p12`);
    openssl(
      [
        'pkcs12',
        '-export',
        '-inkey',
        leaf.keyFile,
        '-in',
        leaf.certFile,
        '-certfile',
        chain.certFile,
        '-name',
        nick,
        '-passout',
        'pass:',
        '-out',
        p12,
      ],
      dir,
    );
    tool('pk12util', ['-i', p12, '-d', `sql:${nss}`, '-W', '']);
  }

  const unsigned = deedPdf();
  const sign = (input: Buffer, nick: string, field: string): Buffer => {
    const src = path.join(dir, `in-${nick}-${field}.pdf`);
    const out = path.join(dir, `out-${nick}-${field}.pdf`);
    fs.writeFileSync(src, input);
    tool('pdfsig', [
      '-nssdir',
      `sql:${nss}`,
      '-nick',
      nick,
      '-add-signature',
      '-new-signature-field-name',
      field,
      src,
      out,
    ]);
    return fs.readFileSync(out);
  };
  const signed = sign(unsigned, 'notary', 'Notary');
  const anchorsFile = root.certFile;
  return {
    dir,
    root,
    intermediate,
    notary,
    expired,
    other,
    rogueRoot,
    rogue,
    anchorsFile,
    unsigned,
    signed,
    twoSignatures: sign(sign(unsigned, 'other', 'Witness'), 'notary', 'Notary'),
    cmsSigned: cmsSignedPdf(dir, notary, intermediate),
    editedAfterSigning: appendPageEdit(signed),
    dssAfterSigning: appendDss(signed, [intermediate.der, root.der]),
    signedByExpired: sign(unsigned, 'expired', 'Notary'),
    signedByOther: sign(unsigned, 'other', 'Notary'),
    signedByRogue: sign(unsigned, 'rogue', 'Notary'),
    tampered: tamper(signed),
    sign,
    timeStamped: (tsa) =>
      cmsSignedPdf(dir, notary, intermediate, (cms) => withSignatureTimeStamp(dir, cms, tsa)),
  };
}

function tool(name: string, args: string[]): void {
  execFileSync(name, args, { stdio: 'pipe', timeout: 60_000 });
}

const CONTENT = [
  'BT /F1 14 Tf 72 720 Td (Warranty Deed) Tj ET',
  'BT /F1 11 Tf 72 690 Td (Grantor: Alice Ordinary Seller) Tj ET',
  'BT /F1 11 Tf 72 600 Td (Notary Public: Jane Q Public) Tj ET',
  'BT /F1 11 Tf 72 585 Td (Commission No. TX-1234567) Tj ET',
].join('\n');

/**
 * A deed of about `bytes` bytes: the one-page deed with an incompressible stream (random bytes,
 * like a scanned exhibit) as an object nothing draws.
 */
export function largeDeed(bytes: number): Buffer {
  const data = randomBytes(Math.max(0, bytes - 1200)).toString('latin1');
  return deedPdf(CONTENT, [`<< /Length ${data.length} >>\nstream\n${data}\nendstream`]);
}

/** A one-page deed with a notarial certificate block, written object by object. */
export function deedPdf(content = CONTENT, extra: string[] = []): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    ...extra,
  ];
  return assemble('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', objects, 1);
}

/** A file (or an update) of `objects` numbered from `first`, its xref table and trailer. */
function assemble(head: string, objects: string[], first: number, trailer = '', base = 0): Buffer {
  let out = head;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(base + Buffer.byteLength(out, 'latin1'));
    out += `${first + i} 0 obj\n${body}\nendobj\n`;
  });
  const xref = base + Buffer.byteLength(out, 'latin1');
  const size = first + objects.length;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out +=
    first === 1
      ? `xref\n0 ${size}\n0000000000 65535 f \n${rows}`
      : `xref\n${first} ${objects.length}\n${rows}`;
  out += `trailer\n<< /Size ${size} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The file's last trailer /Size and its last startxref offset. */
export function tail(pdf: Buffer): { size: number; startxref: number } {
  const text = pdf.toString('latin1');
  const size = [...text.matchAll(/\/Size (\d+)/g)].at(-1)?.[1];
  const startxref = [...text.matchAll(/startxref\s+(\d+)/g)].at(-1)?.[1];
  if (!size || !startxref) throw new Error('no trailer');
  return { size: Number(size), startxref: Number(startxref) };
}

/** An incremental update: `objects` as `num -> body` (existing numbers replace, new ones add). */
export function appendUpdate(pdf: Buffer, objects: Map<number, string>, trailer = ''): Buffer {
  const { size, startxref } = tail(pdf);
  let out = pdf.toString('latin1');
  if (!out.endsWith('\n')) out += '\n';
  const rows: string[] = [];
  for (const [num, body] of [...objects].sort((a, b) => a[0] - b[0])) {
    rows.push(`${num} 1\n${String(Buffer.byteLength(out, 'latin1')).padStart(10, '0')} 00000 n \n`);
    out += `${num} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  const newSize = Math.max(size, ...[...objects.keys()].map((n) => n + 1));
  out += `xref\n${rows.join('')}trailer\n<< /Size ${newSize} /Root 1 0 R /Prev ${startxref} ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The last revision's body of object `num` ("<< ... >>"), as written. */
function lastBody(pdf: Buffer, num: number): string {
  const text = pdf.toString('latin1');
  const at = text.lastIndexOf(`\n${num} 0 obj`);
  const start = text.indexOf('<<', at);
  const end = text.indexOf('endobj', start);
  return text.slice(start, end).trim();
}

/** After signing, page 1's content stream replaced: the grantor's name changed. */
export function appendPageEdit(signed: Buffer): Buffer {
  const content = CONTENT.replace('Alice Ordinary Seller', 'Mallory Other Person');
  return appendUpdate(
    signed,
    new Map([[4, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`]]),
  );
}

/** After signing, a revision that only adds a DSS with certificates (PAdES LTV). */
export function appendDss(signed: Buffer, certificates: Buffer[]): Buffer {
  const { size } = tail(signed);
  const catalog = lastBody(signed, 1).replace(/>>\s*$/, ` /DSS ${size} 0 R >>`);
  const objects = new Map<number, string>([[1, catalog]]);
  const refs = certificates.map((_, i) => `${size + 1 + i} 0 R`).join(' ');
  objects.set(size, `<< /Certs [${refs}] >>`);
  certificates.forEach((der, i) => {
    objects.set(
      size + 1 + i,
      `<< /Length ${der.length} >>\nstream\n${der.toString('latin1')}\nendstream`,
    );
  });
  return appendUpdate(signed, objects);
}

/** One byte of the signed page content changed in place: the signature no longer matches. */
function tamper(signed: Buffer): Buffer {
  const out = Buffer.from(signed);
  const at = out.indexOf('Warranty Deed');
  out[at] = 'w'.charCodeAt(0);
  return out;
}

/**
 * The deed signed by `signer` with `openssl cms` (`chain` carried in the CMS), with a signature
 * time-stamp token of `tsa` when given; made in a directory of its own under `dir`.
 */
export function cmsSignedDeed(dir: string, signer: Issued, chain: Issued, tsa?: TsaFiles): Buffer {
  const work = fs.mkdtempSync(path.join(dir, 'deed-'));
  return tsa
    ? cmsSignedPdf(work, signer, chain, (cms) => withSignatureTimeStamp(work, cms, tsa))
    : cmsSignedPdf(work, signer, chain);
}

/** Bytes reserved for the CMS in /Contents (hex: twice as many characters). */
const RESERVED = 8192;

/**
 * A deed whose signature is made by `openssl cms -sign` (detached, DER, signingTime signed) over
 * the /ByteRange of a PDF assembled here: the signature dictionary, its field and the form.
 */
function cmsSignedPdf(
  dir: string,
  signer: Issued,
  chain: Issued,
  withCms: (cms: Buffer) => Buffer = (cms) => cms,
): Buffer {
  const placeholder = '0'.repeat(RESERVED * 2);
  const range = '[0 0000000000 0000000000 0000000000]';
  const pdf = deedPdf(CONTENT, [
    `<< /Fields [7 0 R] /SigFlags 3 >>`,
    `<< /FT /Sig /T (Notary) /V 8 0 R /Type /Annot /Subtype /Widget /Rect [0 0 0 0] /F 132 /P 3 0 R >>`,
    `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /M (D:${pdfNow()}) /ByteRange ${range} /Contents <${placeholder}> >>`,
  ])
    .toString('latin1')
    .replace('/Type /Catalog /Pages 2 0 R', '/Type /Catalog /Pages 2 0 R /AcroForm 6 0 R')
    .replace('/Contents 4 0 R >>', '/Contents 4 0 R /Annots [7 0 R] >>');
  // the catalog and page grew: rebuild with correct offsets
  const fixed = reassemble(pdf);
  const text = fixed.toString('latin1');
  const a = text.indexOf(`<${placeholder}>`);
  const b = a + placeholder.length + 2;
  const c = fixed.length - b;
  const numbers = `[0 ${String(a).padStart(10, '0')} ${String(b).padStart(10, '0')} ${String(c).padStart(10, '0')}]`;
  const withRange = Buffer.from(text.replace(range, numbers), 'latin1');
  const signedBytes = Buffer.concat([withRange.subarray(0, a), withRange.subarray(b)]);
  const input = path.join(dir, 'cms-input.bin');
  const output = path.join(dir, 'cms-output.der');
  fs.writeFileSync(input, signedBytes);
  openssl(
    [
      'cms',
      '-sign',
      '-binary',
      '-md',
      'sha256',
      '-in',
      input,
      '-signer',
      signer.certFile,
      '-inkey',
      signer.keyFile,
      '-certfile',
      chain.certFile,
      '-outform',
      'DER',
      '-out',
      output,
    ],
    dir,
  );
  const cms = withCms(fs.readFileSync(output)).toString('hex');
  if (cms.length > placeholder.length) throw new Error('CMS larger than its placeholder');
  const contents = `<${cms.padEnd(placeholder.length, '0')}>`;
  return Buffer.concat([
    withRange.subarray(0, a),
    Buffer.from(contents, 'latin1'),
    withRange.subarray(b),
  ]);
}

/** The objects of a one-revision file written again with fresh offsets. */
function reassemble(pdf: string): Buffer {
  const bodies: string[] = [];
  for (const match of pdf.matchAll(/(\d+) 0 obj\n([\s\S]*?)\nendobj\n/g))
    bodies.push(match[2] ?? '');
  return assemble('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', bodies, 1);
}

function pdfNow(): string {
  return `${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/** One DER TLV: its tag, header length and total length (definite lengths, as openssl writes). */
function tlv(der: Buffer, at: number): { tag: number; header: number; end: number } {
  const tag = der[at] ?? 0;
  const first = der[at + 1] ?? 0;
  let length = first;
  let header = 2;
  if (first & 0x80) {
    length = 0;
    for (let i = 0; i < (first & 0x7f); i += 1) length = length * 256 + (der[at + 2 + i] ?? 0);
    header += first & 0x7f;
  }
  return { tag, header, end: at + header + length };
}

function children(der: Buffer, at: number): number[] {
  const { header, end } = tlv(der, at);
  const out: number[] = [];
  for (let i = at + header; i < end; i = tlv(der, i).end) out.push(i);
  return out;
}

function encodeTlv(tag: number, body: Buffer): Buffer {
  const n = body.length;
  const length =
    n < 0x80
      ? Buffer.from([n])
      : Buffer.concat([
          Buffer.from([0x80 | Math.ceil(n.toString(16).length / 2)]),
          Buffer.from(
            n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'),
            'hex',
          ),
        ]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

/**
 * The CMS with an id-aa-signatureTimeStampToken unsigned attribute added to its one SignerInfo
 * (RFC 3161 appendix A): a token by `openssl ts` over the signature value, the enclosing
 * SignerInfo, SET, SignedData, [0] and ContentInfo written again with their new lengths.
 */
function withSignatureTimeStamp(dir: string, cms: Buffer, tsa: TsaFiles): Buffer {
  const [, content = 0] = children(cms, 0);
  const signedData = children(cms, content)[0] ?? 0;
  const parts = children(cms, signedData);
  const infos = parts[parts.length - 1] ?? 0;
  const info = children(cms, infos)[0] ?? 0;
  const fields = children(cms, info);
  const sig = fields[5] ?? 0;
  const sigTlv = tlv(cms, sig);
  const value = cms.subarray(sig + sigTlv.header, sigTlv.end);
  fs.writeFileSync(path.join(dir, 'sigvalue.bin'), value);
  openssl(['ts', '-query', '-data', 'sigvalue.bin', '-sha256', '-cert', '-out', 'sig.tsq'], dir);
  openssl(
    [
      'ts',
      '-reply',
      '-config',
      tsa.config,
      '-queryfile',
      'sig.tsq',
      '-token_out',
      '-out',
      'sig.tst',
    ],
    dir,
  );
  const token = fs.readFileSync(path.join(dir, 'sig.tst'));
  const oid = Buffer.from('060b2a864886f70d010910020e', 'hex'); // 1.2.840.113549.1.9.16.2.14
  const attribute = encodeTlv(0x30, Buffer.concat([oid, encodeTlv(0x31, token)]));
  const unsigned = encodeTlv(0xa1, attribute);
  const whole = (at: number) => cms.subarray(at, tlv(cms, at).end);
  const newInfo = encodeTlv(0x30, Buffer.concat([...fields.map(whole), unsigned]));
  const newInfos = encodeTlv(0x31, newInfo);
  const newSignedData = encodeTlv(
    0x30,
    Buffer.concat([...parts.slice(0, -1).map(whole), newInfos]),
  );
  const [type = 0] = children(cms, 0);
  return encodeTlv(0x30, Buffer.concat([whole(type), encodeTlv(0xa0, newSignedData)]));
}
