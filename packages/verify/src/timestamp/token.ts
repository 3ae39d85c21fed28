import { sha1 } from '@noble/hashes/legacy';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2';
import {
  children,
  DerError,
  equalBytes,
  expect,
  oidOf,
  readWhole,
  sequence,
  TAG,
  unsignedInteger,
  type DerNode,
} from './der.js';
import { hashName, verifySignature } from './signature.js';
import { checkTsaPath } from './chain.js';
import { parseCertificate, type Certificate } from './x509.js';
import { OID, parseToken, type ParsedToken } from './token-parse.js';

export { OID } from './token-parse.js';

/**
 * RFC 3161 time-stamp tokens: a CMS SignedData (RFC 5652) whose content is a TSTInfo. A token is
 * accepted only when its TSTInfo's message imprint is the hash of the data it is said to stamp,
 * its signed attributes hold that TSTInfo's digest and the signer's certificate (ESS
 * signing-certificate, RFC 2634 / RFC 5035), the signature verifies under that certificate, and
 * that certificate passes the path rule of chain.ts: for time-stamping alone, pinned or issued by
 * a pinned certificate through CAs, every certificate valid at the stamped time.
 */

/** Most bytes of one token read (a TSA's token with its certificate chain is a few KiB). */
export const MAX_TOKEN_BYTES = 64 * 1024;

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
  let trusted: Certificate[];
  try {
    trusted = expected.trusted.map((der) => parseCertificate(der));
  } catch (err) {
    if (err instanceof DerError) return fail(`a pinned certificate is malformed (${err.message})`);
    throw err;
  }
  try {
    if (token.length > MAX_TOKEN_BYTES) return fail('the token is too large');
    return await check(parseToken(token), expected, trusted);
  } catch (err) {
    if (err instanceof DerError) return fail(`the token is malformed (${err.message})`);
    throw err;
  }
}

const fail = (reason: string): TokenCheck => ({ ok: false, reason });

async function check(
  token: ParsedToken,
  expected: TokenExpectation,
  trusted: readonly Certificate[],
): Promise<TokenCheck> {
  const imprintHash = hashName(token.imprintHash);
  const digest = imprintHash ? DIGESTS[imprintHash] : undefined;
  if (!digest) return fail('the message imprint uses an unsupported hash');
  if (!equalBytes(digest(expected.data), token.imprint)) {
    return fail('the token stamps other data (message imprint mismatch)');
  }
  if (expected.nonce && !(token.nonce && equalBytes(trimZeros(expected.nonce), token.nonce))) {
    return fail('the token does not carry the nonce of the request');
  }
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
  const path = await checkTsaPath(signer, token.certificates, trusted, token.genTime);
  if (!path.ok) return fail(path.reason);
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
