import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
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
} from '../../src/asn1/der.js';

/**
 * Certificates and CRLs built in process (no openssl) for the CRL reader's unit tests and its
 * fuzz target: a P-256 CA, a certificate it issues naming `crlUrls` as distribution points, and
 * CRLs signed by any key, with any dates, entries and extensions.
 */

const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const CN = '2.5.4.3';

export const nameOf = (cn: string): Buffer => seq(setOf(seq(oid(CN), utf8(cn))));

export const newKey = (): KeyObject =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

const spkiOf = (key: KeyObject): Buffer =>
  createPublicKey(key).export({ format: 'der', type: 'spki' });

const ext = (id: string, critical: boolean, value: Buffer) =>
  seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

/** CRLDistributionPoints with one point whose fullName lists `urls`. */
export const distributionPoints = (urls: string[]): Buffer =>
  seq(seq(explicit(0, explicit(0, ...urls.map((u) => tlv(0x86, Buffer.from(u, 'ascii')))))));

export function certificate(o: {
  issuer: string;
  subject: string;
  serial: number;
  subjectKey: KeyObject;
  issuerKey: KeyObject;
  crlUrls?: string[];
  ca?: boolean;
}): Buffer {
  const extensions = [
    ext('2.5.29.19', true, o.ca ? seq(bool(true)) : seq()),
    ...(o.crlUrls ? [ext('2.5.29.31', false, distributionPoints(o.crlUrls))] : []),
  ];
  const tbs = seq(
    explicit(0, integer(2)),
    integer(o.serial),
    algorithm(ECDSA_SHA256),
    nameOf(o.issuer),
    seq(time(new Date('2025-01-01T00:00:00Z')), time(new Date('2040-01-01T00:00:00Z'))),
    nameOf(o.subject),
    spkiOf(o.subjectKey),
    explicit(3, seq(...extensions)),
  );
  return seq(tbs, algorithm(ECDSA_SHA256), bits(sign('sha256', tbs, o.issuerKey)));
}

export function crl(o: {
  issuer: string;
  key: KeyObject;
  thisUpdate: Date;
  nextUpdate?: Date;
  revoked?: { serial: number; at: Date; critical?: string }[];
  /** OIDs of extra CRL extensions, marked critical. */
  critical?: string[];
}): Buffer {
  const entries = (o.revoked ?? []).map((r) =>
    seq(
      integer(r.serial),
      time(r.at),
      ...(r.critical ? [seq(ext(r.critical, true, Buffer.from([0x05, 0x00])))] : []),
    ),
  );
  const extensions = [
    ext('2.5.29.20', false, integer(1)),
    ...(o.critical ?? []).map((id) => ext(id, true, Buffer.from([0x05, 0x00]))),
  ];
  const tbs = seq(
    integer(1),
    algorithm(ECDSA_SHA256),
    nameOf(o.issuer),
    time(o.thisUpdate),
    ...(o.nextUpdate ? [time(o.nextUpdate)] : []),
    ...(entries.length > 0 ? [seq(...entries)] : []),
    explicit(0, seq(...extensions)),
  );
  return seq(tbs, algorithm(ECDSA_SHA256), bits(sign('sha256', tbs, o.key)));
}
