import { createHash, sign, type KeyObject } from 'node:crypto';
import { parseCertificate } from '@verification-receipts/verify/internals';
import {
  algorithm,
  explicit,
  integer,
  nul,
  octets,
  oid,
  retag,
  seq,
  setOf,
} from '../../asn1/der.js';
import { OID } from './oids.js';

/**
 * The CMS detached signature (RFC 5652 SignedData) of a PAdES baseline signature (ETSI EN 319
 * 142-1, B-B and B-T): signed attributes content-type (id-data), message-digest and
 * signing-certificate-v2 (RFC 5035) and nothing else (no signing-time: PAdES puts the claimed
 * time in the signature dictionary's /M); the certificate chain in `certificates`; for B-T a
 * signature time-stamp token (RFC 3161 appendix A) as an unsigned attribute.
 */

export interface SigningCredentials {
  privateKey: KeyObject;
  /** DER certificates, the signing certificate first, then its chain. */
  chain: Buffer[];
}

const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();

const attribute = (type: string, value: Uint8Array): Buffer => seq(oid(type), setOf(value));

/** The DER SET OF signed attributes over the document digest (the bytes the key signs). */
export function signedAttributes(documentDigest: Buffer, certificate: Buffer): Buffer {
  const cert = parseCertificate(certificate);
  // ESSCertIDv2 with the default hash (SHA-256, so no hashAlgorithm) and the issuer/serial
  const issuerSerial = seq(seq(explicit(4, cert.issuer)), integer(cert.serial));
  const essCertIdV2 = seq(octets(sha256(certificate)), issuerSerial);
  return setOf(
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(documentDigest)),
    attribute(OID.signingCertificateV2, seq(seq(essCertIdV2))),
  );
}

/** Signs the DER SET of signed attributes (RFC 5652 5.4) with SHA-256. */
export function signAttributes(credentials: SigningCredentials, attributes: Buffer): Buffer {
  const ec = credentials.privateKey.asymmetricKeyType === 'ec';
  return sign(
    'sha256',
    attributes,
    ec ? { key: credentials.privateKey, dsaEncoding: 'der' } : credentials.privateKey,
  );
}

export interface SignedDataParts {
  credentials: SigningCredentials;
  attributes: Buffer;
  signature: Buffer;
  /** RFC 3161 TimeStampToken over the signature value (PAdES B-T). */
  timestampToken?: Buffer | undefined;
}

/** The ContentInfo holding the SignedData: the bytes of the PDF's /Contents. */
export function signedData(parts: SignedDataParts): Buffer {
  const { credentials, attributes, signature, timestampToken } = parts;
  const [first] = credentials.chain;
  if (!first) throw new Error('a PDF signature needs its signing certificate');
  const cert = parseCertificate(first);
  const sha256Id = algorithm(OID.sha256);
  const ec = credentials.privateKey.asymmetricKeyType === 'ec';
  const signerInfo = seq(
    integer(1),
    seq(cert.issuer, integer(cert.serial)), // IssuerAndSerialNumber
    sha256Id,
    retag(0xa0, attributes),
    ec ? algorithm(OID.ecdsaWithSha256) : algorithm(OID.sha256WithRsa, nul()),
    octets(signature),
    ...(timestampToken
      ? [explicit(1, attribute(OID.signatureTimeStampToken, timestampToken))]
      : []),
  );
  const content = seq(
    integer(1),
    setOf(sha256Id),
    seq(oid(OID.data)), // detached: no eContent
    explicit(0, ...credentials.chain),
    setOf(signerInfo),
  );
  return seq(oid(OID.signedData), explicit(0, content));
}
