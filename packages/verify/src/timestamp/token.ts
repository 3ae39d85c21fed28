import { sha1 } from '@noble/hashes/legacy';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2';
import {
  children,
  ctx,
  DerError,
  equalBytes,
  expect,
  oidOf,
  readWhole,
  sequence,
  TAG,
  timeOf,
  unsignedInteger,
  type DerNode,
} from './der.js';
import { hashName, verifySignature } from './signature.js';
import { issuedBy, parseCertificate, type Certificate } from './x509.js';

/**
 * RFC 3161 time-stamp tokens: a CMS SignedData (RFC 5652) whose content is a TSTInfo. A token is
 * accepted only when its TSTInfo's message imprint is the hash of the data it is said to stamp,
 * its signed attributes hold that TSTInfo's digest and the signer's certificate (ESS
 * signing-certificate, RFC 2634 / RFC 5035), the signature verifies under that certificate, and
 * the certificate is a pinned one or issued (through the token's own certificates) by one, for
 * time-stamping (id-kp-timeStamping) and valid at the stamped time.
 */

export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  sha256: '2.16.840.1.101.3.4.2.1',
};

/** Most bytes of one token read (a TSA's token with its certificate chain is a few KiB). */
export const MAX_TOKEN_BYTES = 64 * 1024;
const MAX_CHAIN = 4;

const DIGESTS: Record<string, (data: Uint8Array) => Uint8Array> = {
  'SHA-256': sha256,
  'SHA-384': sha384,
  'SHA-512': sha512,
};

export interface StampedTime {
  genTime: Date;
  /** The TSA, as its certificate's common name (or organisation). */
  tsa: string;
  /** TSTInfo serial number, hex. */
  serial: string;
  nonce: Uint8Array | undefined;
  signer: Certificate;
}

export type TokenCheck = ({ ok: true } & StampedTime) | { ok: false; reason: string };

export interface TokenExpectation {
  /** The stamped data (its hash must be the token's message imprint). */
  data: Uint8Array;
  /** The nonce the request carried, when checking a fresh answer. */
  nonce?: Uint8Array;
  /** Pinned TSA certificates (DER): the signer or an issuer of it. */
  trusted: readonly Uint8Array[];
}

export async function verifyTimestampToken(
  token: Uint8Array,
  expected: TokenExpectation,
): Promise<TokenCheck> {
  try {
    if (token.length > MAX_TOKEN_BYTES) return fail('the token is too large');
    return await check(parseToken(token), expected);
  } catch (err) {
    if (err instanceof DerError) return fail(`the token is malformed (${err.message})`);
    throw err;
  }
}

const fail = (reason: string): TokenCheck => ({ ok: false, reason });

interface ParsedToken {
  tstInfo: Uint8Array;
  imprintHash: string;
  imprint: Uint8Array;
  genTime: Date;
  serial: Uint8Array;
  nonce: Uint8Array | undefined;
  certificates: Certificate[];
  signer: { issuer: Uint8Array; serial: Uint8Array };
  digestAlgorithm: string;
  signedAttrs: DerNode;
  signatureAlgorithm: string;
  signature: Uint8Array;
}

function parseToken(token: Uint8Array): ParsedToken {
  const [type, wrapped] = sequence(readWhole(token), 'ContentInfo');
  if (oidOf(type) !== OID.signedData) throw new DerError('not a SignedData');
  const signedData = sequence(children(expect(wrapped, ctx(0), 'content'))[0], 'SignedData');
  const [, , encap, ...rest] = signedData;
  const [eType, eContent] = sequence(encap, 'encapContentInfo');
  if (oidOf(eType) !== OID.tstInfo) throw new DerError('content is not a TSTInfo');
  const tstInfo = expect(
    children(expect(eContent, ctx(0), 'eContent'))[0],
    TAG.octetString,
    'eContent',
  ).value;
  const certNode = rest.find((n) => n.tag === ctx(0));
  const certificates = certNode ? children(certNode, 8).map((c) => parseCertificate(c.bytes)) : [];
  const signerInfos = sequence(rest[rest.length - 1], 'signerInfos', TAG.set);
  if (signerInfos.length !== 1) throw new DerError('a token has exactly one SignerInfo');
  const info = sequence(signerInfos[0], 'SignerInfo');
  const [sidIssuer, sidSerial] = sequence(info[1], 'signer identifier (issuerAndSerialNumber)');
  const signedAttrs = expect(info[3], ctx(0), 'signedAttrs');
  const [imprintHash, imprint, genTime, serial, nonce] = parseTstInfo(tstInfo);
  return {
    tstInfo,
    imprintHash,
    imprint,
    genTime,
    serial,
    nonce,
    certificates,
    signer: {
      issuer: expect(sidIssuer, TAG.sequence, 'sid issuer').bytes,
      serial: unsignedInteger(sidSerial),
    },
    digestAlgorithm: oidOf(sequence(info[2], 'digestAlgorithm')[0]),
    signedAttrs,
    signatureAlgorithm: oidOf(sequence(info[4], 'signatureAlgorithm')[0]),
    signature: expect(info[5], TAG.octetString, 'signature').value,
  };
}

function parseTstInfo(
  der: Uint8Array,
): [string, Uint8Array, Date, Uint8Array, Uint8Array | undefined] {
  const fields = sequence(readWhole(der), 'TSTInfo');
  const [, , imprintNode, serialNode, genTimeNode, ...optional] = fields;
  const [alg, digest] = sequence(imprintNode, 'messageImprint');
  const nonceNode = optional.find((n) => n.tag === TAG.integer);
  return [
    oidOf(sequence(alg, 'hashAlgorithm')[0]),
    expect(digest, TAG.octetString, 'hashedMessage').value,
    timeOf(expect(genTimeNode, TAG.generalizedTime, 'genTime')),
    unsignedInteger(serialNode),
    nonceNode ? unsignedInteger(nonceNode) : undefined,
  ];
}

async function check(token: ParsedToken, expected: TokenExpectation): Promise<TokenCheck> {
  const imprintHash = hashName(token.imprintHash);
  const digest = imprintHash ? DIGESTS[imprintHash] : undefined;
  if (!digest) return fail('the message imprint uses an unsupported hash');
  if (!equalBytes(digest(expected.data), token.imprint)) {
    return fail('the token stamps other data (message imprint mismatch)');
  }
  if (expected.nonce && !(token.nonce && equalBytes(trimZeros(expected.nonce), token.nonce))) {
    return fail('the token does not carry the nonce of the request');
  }
  const trusted = expected.trusted.map((der) => parseCertificate(der));
  const signer = [...token.certificates, ...trusted].find(
    (c) => equalBytes(c.issuer, token.signer.issuer) && equalBytes(c.serial, token.signer.serial),
  );
  if (!signer) return fail("the TSA's certificate is neither in the token nor pinned");
  const attrs = attributesOf(token.signedAttrs);
  const attrsProblem = checkAttributes(attrs, token, signer);
  if (attrsProblem) return fail(attrsProblem);
  const signedBytes = new Uint8Array(token.signedAttrs.bytes);
  signedBytes[0] = TAG.set; // RFC 5652 5.4: the signature is over the explicit SET OF tag
  const signed = await verifySignature({
    spki: signer.spki,
    algorithm: token.signatureAlgorithm,
    digestAlgorithm: token.digestAlgorithm,
    signature: token.signature,
    data: signedBytes,
  });
  if (!signed) return fail("the token's signature does not verify under its TSA certificate");
  if (!signer.extKeyUsage?.includes(OID.timeStamping)) {
    return fail("the TSA's certificate is not for time-stamping (id-kp-timeStamping)");
  }
  if (token.genTime < signer.notBefore || token.genTime > signer.notAfter) {
    return fail("the stamped time is outside the TSA certificate's validity");
  }
  if (!(await chainsToPinned(signer, token.certificates, trusted))) {
    return fail("the TSA's certificate is not pinned nor issued by a pinned certificate");
  }
  return {
    ok: true,
    genTime: token.genTime,
    tsa: signer.commonName ?? 'unnamed TSA',
    serial: Array.from(token.serial, (b) => b.toString(16).padStart(2, '0')).join(''),
    nonce: token.nonce,
    signer,
  };
}

function trimZeros(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i += 1;
  return bytes.subarray(i);
}

function attributesOf(node: DerNode): Map<string, DerNode[]> {
  const out = new Map<string, DerNode[]>();
  for (const attribute of children(node, 32)) {
    const [type, values] = sequence(attribute, 'attribute');
    const oid = oidOf(type);
    if (out.has(oid)) throw new DerError('an attribute appears twice');
    out.set(oid, sequence(values, 'attribute values', TAG.set));
  }
  return out;
}

function checkAttributes(
  attrs: Map<string, DerNode[]>,
  token: ParsedToken,
  signer: Certificate,
): string | undefined {
  const type = attrs.get(OID.contentType)?.[0];
  if (!type || oidOf(type) !== OID.tstInfo) return 'the signed content type is not TSTInfo';
  const hash = hashName(token.digestAlgorithm);
  const digest = hash ? DIGESTS[hash] : undefined;
  const messageDigest = attrs.get(OID.messageDigest)?.[0];
  if (!digest || !messageDigest) return 'the token has no usable message digest';
  if (
    !equalBytes(
      expect(messageDigest, TAG.octetString, 'messageDigest').value,
      digest(token.tstInfo),
    )
  ) {
    return 'the signed digest is not that of the TSTInfo';
  }
  return signingCertificateProblem(attrs, signer);
}

/** ESS signing-certificate(-v2): the first ESSCertID must be the hash of the signer's certificate. */
function signingCertificateProblem(
  attrs: Map<string, DerNode[]>,
  signer: Certificate,
): string | undefined {
  const v2 = attrs.get(OID.signingCertificateV2)?.[0];
  const v1 = attrs.get(OID.signingCertificate)?.[0];
  const value = v2 ?? v1;
  if (!value) return 'the token does not name its signing certificate (ESS signing-certificate)';
  const [certs] = sequence(value, 'SigningCertificate');
  const [first] = sequence(certs, 'certs');
  const parts = sequence(first, 'ESSCertID');
  let hashOf: (data: Uint8Array) => Uint8Array = sha1;
  let certHash = parts[0];
  if (v2 && parts[0]?.tag === TAG.sequence) {
    const name = hashName(oidOf(sequence(parts[0], 'hashAlgorithm')[0]));
    const fn = name ? DIGESTS[name] : undefined;
    if (!fn) return 'the signing-certificate hash algorithm is unsupported';
    hashOf = fn;
    certHash = parts[1];
  } else if (v2) {
    hashOf = sha256; // ESSCertIDv2's default
  }
  const expectedHash = expect(certHash, TAG.octetString, 'certHash').value;
  return equalBytes(hashOf(signer.der), expectedHash)
    ? undefined
    : 'the signing-certificate attribute names another certificate';
}

async function chainsToPinned(
  cert: Certificate,
  bag: readonly Certificate[],
  pinned: readonly Certificate[],
): Promise<boolean> {
  let current = cert;
  for (let depth = 0; depth < MAX_CHAIN; depth += 1) {
    if (pinned.some((p) => equalBytes(p.der, current.der))) return true;
    for (const p of pinned) if (await issuedBy(current, p)) return true;
    const next = bag.find(
      (c) => !equalBytes(c.der, current.der) && equalBytes(c.subject, current.issuer),
    );
    if (!next || !(await issuedBy(current, next))) return false;
    current = next;
  }
  return false;
}

/**
 * An RFC 3161 TimeStampResp: the token when the status is granted (0) or grantedWithMods (1),
 * else why not.
 */
export function tokenOfResponse(
  response: Uint8Array,
): { ok: true; token: Uint8Array } | { ok: false; reason: string } {
  try {
    const [statusInfo, token] = sequence(readWhole(response), 'TimeStampResp');
    const [status] = sequence(statusInfo, 'PKIStatusInfo');
    const code = unsignedInteger(status);
    if (code.length !== 1 || (code[0] ?? 9) > 1) {
      return { ok: false, reason: `the TSA refused the request (status ${code[0] ?? '?'})` };
    }
    if (!token) return { ok: false, reason: 'the TSA granted but sent no token' };
    return { ok: true, token: expect(token, TAG.sequence, 'timeStampToken').bytes };
  } catch (err) {
    if (err instanceof DerError)
      return { ok: false, reason: `not a TimeStampResp (${err.message})` };
    throw err;
  }
}
