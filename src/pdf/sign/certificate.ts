import { createHash, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { children, readWhole } from '@verification-receipts/verify/internals';
import {
  algorithm,
  bits,
  bool,
  explicit,
  integer,
  octets,
  oid,
  seq,
  setOf,
  time,
  tlv,
  utf8,
} from '../../asn1/der.js';
import { OID } from './oids.js';

/** RFC 5280 4.1.2.5: the notAfter of a certificate with no well-defined expiration date. */
const NO_EXPIRY = tlv(0x18, Buffer.from('99991231235959Z', 'ascii'));

/**
 * The default PDF signing certificate: self-issued (RFC 5280), for a P-256 key made at first
 * start. Its subject names the issuing organisation; it is an end-entity certificate with the key
 * usages digitalSignature and nonRepudiation and no extended key usage (NSS, behind poppler's
 * pdfsig, refuses RFC 9336's id-kp-documentSigning for PDF signatures), with no expiry of its own
 * (RFC 5280's 99991231235959Z), because a receipt is kept for ten years or more and its signature
 * must not look expired then.
 */
export function selfIssuedCertificate(
  privateKey: KeyObject,
  issuerName: string,
  now = new Date(),
): Buffer {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const name = seq(
    setOf(seq(oid(OID.organization), utf8(issuerName))),
    setOf(seq(oid(OID.commonName), utf8(`${issuerName} PDF receipts`.slice(0, 64)))),
  );
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x01; // positive and 16 octets long (RFC 5280 4.1.2.2)
  const signatureAlgorithm = algorithm(OID.ecdsaWithSha256);
  const notBefore = new Date(Math.floor(now.getTime() / 1000) * 1000 - 60_000);
  const tbs = seq(
    explicit(0, integer(2)), // v3
    integer(serial),
    signatureAlgorithm,
    name,
    seq(time(notBefore), NO_EXPIRY),
    name,
    spki,
    explicit(3, seq(...extensions(spki))),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  return seq(tbs, signatureAlgorithm, bits(signature));
}

function extensions(spki: Buffer): Buffer[] {
  const ext = (id: string, critical: boolean, value: Buffer) =>
    seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
  // keyUsage bits: digitalSignature (0) and nonRepudiation / contentCommitment (1)
  const keyUsage = Buffer.from([0x03, 0x02, 0x06, 0xc0]);
  // RFC 5280 4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING's value
  const subjectPublicKey = children(readWhole(spki))[1]?.value.subarray(1) ?? spki;
  const keyId = createHash('sha1').update(subjectPublicKey).digest();
  return [
    ext(OID.basicConstraints, true, seq()),
    ext(OID.keyUsage, true, keyUsage),
    ext(OID.subjectKeyIdentifier, false, octets(keyId)),
  ];
}
