import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString } from 'pdf-lib';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2';
import {
  children,
  ctx,
  DerError,
  equalBytes,
  expect,
  oidOf,
  readNode,
  readWhole,
  sequence,
  TAG,
  unsignedInteger,
  type DerNode,
} from '../timestamp/der.js';
import { hashName, verifySignature } from '../timestamp/signature.js';
import { certificateFingerprint, parseCertificate } from '../timestamp/x509.js';

/**
 * The PAdES signature of a PDF receipt (ISO 32000-1 12.8, ETSI EN 319 142-1): the signature
 * dictionary of the form's signature field, its CMS SignedData (RFC 5652, detached) checked here
 * over the /ByteRange, and the signing certificate's SHA-256, which the receipt's own key must
 * endorse (./endorsement.ts). Only a signature whose byte range covers the whole file (but its
 * own /Contents) counts: bytes appended after signing are not signed.
 */
export type PdfSignature =
  | { present: false }
  | { present: true; ok: false; reason: string }
  | {
      present: true;
      ok: true;
      /** `sha256:<hex>` of the signing certificate's DER. */
      certificate: string;
      /** The signing certificate's common name (or organisation). */
      signer: string;
    };

/** A signature dictionary as found in the file, before its CMS is checked. */
export interface RawPdfSignature {
  byteRange: number[];
  contents: Uint8Array;
}

/** Signature fields read (a receipt has one). */
const MAX_FIELDS = 16;
/** Largest /Contents read (a signature with a chain and a time-stamp token is under 32 KiB). */
const MAX_CONTENTS_BYTES = 64 * 1024;

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
};

const DIGESTS: Record<string, (data: Uint8Array) => Uint8Array> = {
  'SHA-256': sha256,
  'SHA-384': sha384,
  'SHA-512': sha512,
};

/** The signature dictionaries of the form's signature fields (`/FT /Sig` with a `/V`). */
export function signatureFields(catalog: PDFDict): RawPdfSignature[] | string {
  const form = catalog.lookup(PDFName.of('AcroForm'));
  const fields = form instanceof PDFDict ? form.lookup(PDFName.of('Fields')) : undefined;
  if (!(fields instanceof PDFArray)) return [];
  if (fields.size() > MAX_FIELDS) return 'the PDF form has too many fields';
  const out: RawPdfSignature[] = [];
  for (let i = 0; i < fields.size(); i += 1) {
    const field = fields.lookup(i);
    if (!(field instanceof PDFDict) || field.lookup(PDFName.of('FT')) !== PDFName.of('Sig')) {
      continue;
    }
    const value = field.lookup(PDFName.of('V'));
    if (!(value instanceof PDFDict)) continue;
    const range = value.lookup(PDFName.of('ByteRange'));
    const contents = value.lookup(PDFName.of('Contents'));
    const numbers =
      range instanceof PDFArray && range.size() === 4
        ? range.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : Number.NaN))
        : [];
    const bytes =
      contents instanceof PDFHexString || contents instanceof PDFString
        ? contents.asBytes()
        : undefined;
    if (numbers.length !== 4 || !bytes) return 'a PDF signature has no /ByteRange or /Contents';
    if (bytes.length > MAX_CONTENTS_BYTES) return 'a PDF signature is too large';
    out.push({ byteRange: numbers, contents: bytes });
  }
  return out;
}

/**
 * The signature covering the whole file, checked: none is `present: false`; signatures that all
 * leave bytes unsigned, or one that does not verify, are `ok: false`.
 */
export async function checkPdfSignature(
  file: Uint8Array,
  fields: readonly RawPdfSignature[],
): Promise<PdfSignature> {
  if (fields.length === 0) return { present: false };
  const whole = fields.find((f) => coversFile(f.byteRange, file));
  if (!whole) {
    return {
      present: true,
      ok: false,
      reason: 'the file was changed after it was signed (its signature does not cover every byte)',
    };
  }
  try {
    return await checkCms(whole, file);
  } catch (err) {
    if (!(err instanceof DerError)) throw err;
    return { present: true, ok: false, reason: `the signature is malformed (${err.message})` };
  }
}

/** `[0 a b c]`: from the start to the `<` of /Contents, then from after its `>` to the end. */
function coversFile(range: readonly number[], file: Uint8Array): boolean {
  const [start, a, b, c] = range;
  if (start !== 0 || a === undefined || b === undefined || c === undefined) return false;
  if (![a, b, c].every((n) => Number.isSafeInteger(n) && n > 0)) return false;
  return a < b && b + c === file.length && file[a] === 0x3c && file[b - 1] === 0x3e;
}

async function checkCms(raw: RawPdfSignature, file: Uint8Array): Promise<PdfSignature> {
  const fail = (reason: string): PdfSignature => ({ present: true, ok: false, reason });
  // /Contents is zero-padded after the DER value
  const [type, wrapped] = sequence(readWhole(readNode(raw.contents).bytes), 'ContentInfo');
  if (oidOf(type) !== OID.signedData) return fail('the signature is not a CMS SignedData');
  const [, , encap, ...rest] = sequence(
    children(expect(wrapped, ctx(0), 'content'))[0],
    'SignedData',
  );
  const [eType, eContent] = sequence(encap, 'encapContentInfo');
  if (oidOf(eType) !== OID.data || eContent) return fail('the signature is not detached');
  const certNode = rest.find((n) => n.tag === ctx(0));
  const certificates = certNode ? children(certNode, 8).map((n) => parseCertificate(n.bytes)) : [];
  const signerInfos = sequence(rest[rest.length - 1], 'signerInfos', TAG.set);
  if (signerInfos.length !== 1) return fail('the signature has more than one signer');
  const info = sequence(signerInfos[0], 'SignerInfo');
  const [sidIssuer, sidSerial] = sequence(info[1], 'signer identifier (issuerAndSerialNumber)');
  const issuer = expect(sidIssuer, TAG.sequence, 'sid issuer').bytes;
  const serial = unsignedInteger(sidSerial);
  const signer = certificates.find(
    (c) => equalBytes(c.issuer, issuer) && equalBytes(c.serial, serial),
  );
  if (!signer) return fail('the signing certificate is not in the signature');
  const digestAlgorithm = oidOf(sequence(info[2], 'digestAlgorithm')[0]);
  const signedAttrs = expect(info[3], ctx(0), 'signedAttrs');
  const problem = attributesProblem(signedAttrs, digestAlgorithm, signedBytes(raw, file));
  if (problem) return fail(problem);
  const data = new Uint8Array(signedAttrs.bytes);
  data[0] = TAG.set; // RFC 5652 5.4: the signature is over the explicit SET OF tag
  const verified = await verifySignature({
    spki: signer.spki,
    algorithm: oidOf(sequence(info[4], 'signatureAlgorithm')[0]),
    digestAlgorithm,
    signature: expect(info[5], TAG.octetString, 'signature').value,
    data,
  });
  if (!verified) return fail('the signature does not verify under its certificate');
  return {
    present: true,
    ok: true,
    certificate: certificateFingerprint(signer.der),
    signer: signer.commonName ?? 'unnamed signer',
  };
}

function signedBytes(raw: RawPdfSignature, file: Uint8Array): Uint8Array[] {
  const [, a = 0, b = 0, c = 0] = raw.byteRange;
  return [file.subarray(0, a), file.subarray(b, b + c)];
}

function attributesProblem(
  node: DerNode,
  digestAlgorithm: string,
  ranges: readonly Uint8Array[],
): string | undefined {
  const attrs = new Map<string, DerNode | undefined>();
  for (const attribute of children(node, 32)) {
    const [type, values] = sequence(attribute, 'attribute');
    attrs.set(oidOf(type), sequence(values, 'attribute values', TAG.set)[0]);
  }
  const type = attrs.get(OID.contentType);
  if (!type || oidOf(type) !== OID.data) return 'the signed content type is not id-data';
  const hash = hashName(digestAlgorithm);
  const digest = hash ? DIGESTS[hash] : undefined;
  const messageDigest = attrs.get(OID.messageDigest);
  if (!digest || !messageDigest) return 'the signature has no usable message digest';
  const total = ranges.reduce((n, r) => n + r.length, 0);
  const signed = new Uint8Array(total);
  let at = 0;
  for (const r of ranges) {
    signed.set(r, at);
    at += r.length;
  }
  const value = expect(messageDigest, TAG.octetString, 'messageDigest').value;
  return equalBytes(value, digest(signed))
    ? undefined
    : 'the signed bytes were changed (the message digest does not match)';
}
