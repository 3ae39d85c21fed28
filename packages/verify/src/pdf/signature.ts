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
  timeOf,
  unsignedInteger,
  type DerNode,
} from '../timestamp/der.js';
import { hashName, keyAlgorithm, verifySignature } from '../timestamp/signature.js';
import { certificateFingerprint, parseCertificate, type Certificate } from '../timestamp/x509.js';

/**
 * The PAdES signature of a PDF receipt (ISO 32000-1 12.8, ETSI EN 319 142-1): the signature
 * dictionary of the form's signature field, its CMS SignedData (RFC 5652, detached) checked here
 * over the /ByteRange, and the signing certificate's SHA-256, which the receipt's own key must
 * endorse (./endorsement.ts), or the relying party pin. Which revisions it covers, and what may
 * follow it, is ./revision-check.ts.
 */
export type PdfSignature =
  | { present: false }
  | {
      present: true;
      ok: false;
      reason: string;
      /** Set when the file was changed after signing beyond what PAdES allows. */
      modified?: true;
    }
  | {
      present: true;
      ok: true;
      /** What the signature covers: the whole file, or a revision and what came after it. */
      coverage?: string;
      /** `sha256:<hex>` of the signing certificate's DER. */
      certificate: string;
      /** The signing certificate's common name (or organisation). */
      signer: string;
      /** The signing certificate's notAfter and key algorithm (for the evidence horizon). */
      notAfter?: Date;
      algorithm?: string;
    };

/** A signature dictionary as found in the file, before its CMS is checked. */
export interface RawPdfSignature {
  byteRange: number[];
  contents: Uint8Array;
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
};

const DIGESTS: Record<string, (data: Uint8Array) => Uint8Array> = {
  'SHA-256': sha256,
  'SHA-384': sha384,
  'SHA-512': sha512,
};

/**
 * The CMS SignedData of `raw` checked over its byte ranges of `file`: detached, one signer whose
 * certificate it carries, id-data content type, the message digest of the signed bytes, and the
 * signature over the signed attributes. Which bytes the range must cover is decided by the
 * caller (./revision-check.ts).
 */
export async function checkCms(raw: RawPdfSignature, file: Uint8Array): Promise<PdfSignature> {
  const checked = await verifyCms(raw, file);
  if (!checked.ok) return { present: true, ok: false, reason: checked.reason };
  return {
    present: true,
    ok: true,
    certificate: certificateFingerprint(checked.signer.der),
    signer: checked.signer.commonName ?? 'unnamed signer',
    notAfter: checked.signer.notAfter,
    algorithm: keyAlgorithm(checked.signer.spki),
  };
}

/** A CMS signature that verified, with what a judge of its signer needs. */
export interface CmsSigner {
  ok: true;
  signer: Certificate;
  /** Every certificate the SignedData carries (the signer's included). */
  certificates: Certificate[];
  /** The signed signingTime attribute (RFC 5652 11.3), when there is one. */
  signingTime: Date | undefined;
  /** The signature value, which a signature time-stamp token stamps. */
  signatureValue: Uint8Array;
  /** The unsigned id-aa-signatureTimeStampToken attribute's token (DER), when present. */
  timeStampToken: Uint8Array | undefined;
}

export type CmsCheck = CmsSigner | { ok: false; reason: string };

/** `checkCms` with the signer's certificate, its bag and its times; never throws on bad DER. */
export async function verifyCms(raw: RawPdfSignature, file: Uint8Array): Promise<CmsCheck> {
  try {
    return await checkSignedData(raw, file);
  } catch (err) {
    if (!(err instanceof DerError)) throw err;
    return { ok: false, reason: `the signature is malformed (${err.message})` };
  }
}

async function checkSignedData(raw: RawPdfSignature, file: Uint8Array): Promise<CmsCheck> {
  const fail = (reason: string): CmsCheck => ({ ok: false, reason });
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
  const attrs = attributesOf(signedAttrs);
  const problem = await attributesProblem(attrs, digestAlgorithm, signedBytes(raw, file));
  if (problem) return fail(problem);
  const data = new Uint8Array(signedAttrs.bytes);
  data[0] = TAG.set; // RFC 5652 5.4: the signature is over the explicit SET OF tag
  const signatureValue = expect(info[5], TAG.octetString, 'signature').value;
  const verified = await verifySignature({
    spki: signer.spki,
    algorithm: oidOf(sequence(info[4], 'signatureAlgorithm')[0]),
    digestAlgorithm,
    signature: signatureValue,
    data,
  });
  if (!verified) return fail('the signature does not verify under its certificate');
  const time = attrs.get(OID.signingTime);
  const unsigned = info[6]?.tag === ctx(1) ? attributesOf(info[6]) : new Map();
  return {
    ok: true,
    signer,
    certificates,
    signingTime: time ? timeOf(time) : undefined,
    signatureValue,
    timeStampToken: unsigned.get(OID.signatureTimeStampToken)?.bytes,
  };
}

function attributesOf(node: DerNode): Map<string, DerNode | undefined> {
  const attrs = new Map<string, DerNode | undefined>();
  for (const attribute of children(node, 32)) {
    const [type, values] = sequence(attribute, 'attribute');
    attrs.set(oidOf(type), sequence(values, 'attribute values', TAG.set)[0]);
  }
  return attrs;
}

/** The platform's digest (a megabyte in a few milliseconds) where there is one, else noble's. */
async function digestOf(
  name: string,
  fallback: (data: Uint8Array) => Uint8Array,
  data: Uint8Array<ArrayBuffer>,
): Promise<Uint8Array> {
  const subtle = globalThis.crypto?.subtle;
  return subtle ? new Uint8Array(await subtle.digest(name, data)) : fallback(data);
}

function signedBytes(raw: RawPdfSignature, file: Uint8Array): Uint8Array[] {
  const [, a = 0, b = 0, c = 0] = raw.byteRange;
  return [file.subarray(0, a), file.subarray(b, b + c)];
}

async function attributesProblem(
  attrs: Map<string, DerNode | undefined>,
  digestAlgorithm: string,
  ranges: readonly Uint8Array[],
): Promise<string | undefined> {
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
  return equalBytes(value, await digestOf(hash as string, digest, signed))
    ? undefined
    : 'the signed bytes were changed (the message digest does not match)';
}
