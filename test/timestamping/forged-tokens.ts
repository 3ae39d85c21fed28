import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';
import { parseCertificate } from '@verification-receipts/verify/internals';
import {
  algorithm,
  bits,
  bool,
  explicit,
  integer,
  octets,
  oid,
  retag,
  seq,
  setOf,
  time,
  tlv,
  utf8,
} from '../../src/asn1/der.js';

/**
 * RFC 3161 time-stamp tokens made here, field by field, with Node's crypto and the service's DER
 * encoder: a test CA, a TSA certificate it issues and tokens signed by it, each with one thing
 * wrong on request (the nonce, the extended key usage, the ESS signing-certificate attribute, the
 * validity period). A real authority (openssl ts) never issues such tokens, which is why they are
 * made here: to prove that the reader refuses each of them.
 */

const OID = {
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  policy: '1.3.6.1.4.1.99999.1',
};

const sha256 = (data: Uint8Array): Buffer => createHash('sha256').update(data).digest();
const name = (cn: string): Buffer => seq(setOf(seq(oid(OID.commonName), utf8(cn))));
const ecSign = (key: KeyObject, data: Uint8Array): Buffer =>
  sign('sha256', data, { key, dsaEncoding: 'der' });

interface CertOptions {
  subject: string;
  issuer: string;
  key: KeyObject;
  issuerKey: KeyObject;
  serial: number;
  notBefore: Date;
  notAfter: Date;
  extensions: Buffer[];
}

function certificate(o: CertOptions): Buffer {
  const spki = createPublicKey(o.key).export({ format: 'der', type: 'spki' });
  const signatureAlgorithm = algorithm(OID.ecdsaWithSha256);
  const tbs = seq(
    explicit(0, integer(2)),
    integer(o.serial),
    signatureAlgorithm,
    name(o.issuer),
    seq(time(o.notBefore), time(o.notAfter)),
    name(o.subject),
    spki,
    ...(o.extensions.length > 0 ? [explicit(3, seq(...o.extensions))] : []),
  );
  return seq(tbs, signatureAlgorithm, bits(ecSign(o.issuerKey, tbs)));
}

const extension = (id: string, value: Buffer): Buffer => seq(oid(id), bool(true), octets(value));
const p256 = (): KeyObject => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const DAY = 24 * 3600 * 1000;

export interface TestAuthority {
  /** The CA's certificate (DER): what a relying party pins. */
  ca: Buffer;
  stamp(data: Uint8Array, options?: TokenOptions): Buffer;
}

export interface TokenOptions {
  /** The TSTInfo nonce (big-endian bytes); none when absent. */
  nonce?: Uint8Array;
  /** The TSA certificate's extended key usages; absent: no extension at all. */
  extKeyUsage?: string[] | null;
  /** The TSA certificate's validity, relative to genTime (ms). */
  validFrom?: number;
  validUntil?: number;
  /** The ESS signing-certificate-v2 attribute: the signer's (default), another's, or none. */
  signingCertificate?: 'signer' | 'other' | 'none';
  genTime?: Date;
}

export const TIME_STAMPING = OID.timeStamping;
export const SERVER_AUTH = OID.serverAuth;

export function testAuthority(name = 'Forged Test'): TestAuthority {
  const caKey = p256();
  const now = Date.now();
  const ca = certificate({
    subject: `${name} CA`,
    issuer: `${name} CA`,
    key: caKey,
    issuerKey: caKey,
    serial: 1,
    notBefore: new Date(now - 3650 * DAY),
    notAfter: new Date(now + 3650 * DAY),
    extensions: [extension(OID.basicConstraints, seq(bool(true)))],
  });
  let serial = 100;
  return {
    ca,
    stamp(data, options = {}) {
      const genTime = options.genTime ?? new Date(Math.floor(Date.now() / 1000) * 1000);
      const tsaKey = p256();
      const eku = options.extKeyUsage === undefined ? [OID.timeStamping] : options.extKeyUsage;
      const tsa = certificate({
        subject: `${name} TSA`,
        issuer: `${name} CA`,
        key: tsaKey,
        issuerKey: caKey,
        serial: (serial += 1),
        notBefore: new Date(genTime.getTime() + (options.validFrom ?? -DAY)),
        notAfter: new Date(genTime.getTime() + (options.validUntil ?? 365 * DAY)),
        extensions: eku ? [extension(OID.extKeyUsage, seq(...eku.map((e) => oid(e))))] : [],
      });
      return token(data, genTime, options, { tsa, tsaKey, certificates: [tsa], other: ca });
    },
  };
}

/** A TSA made elsewhere (openssl): its certificate, key, and the certificates its tokens carry. */
export interface TokenSigner {
  certificate: Buffer;
  key: KeyObject;
  /** The certificates put in the token after the TSA's own (intermediates). */
  chain: Buffer[];
}

/** A token over `data` signed by `signer`, stamped now unless `genTime` says otherwise. */
export function tokenSignedBy(
  signer: TokenSigner,
  data: Uint8Array,
  options: Pick<TokenOptions, 'nonce' | 'genTime'> = {},
): Buffer {
  const genTime = options.genTime ?? new Date(Math.floor(Date.now() / 1000) * 1000);
  return token(data, genTime, options, {
    tsa: signer.certificate,
    tsaKey: signer.key,
    certificates: [signer.certificate, ...signer.chain],
    other: signer.chain[0] ?? signer.certificate,
  });
}

function generalizedTime(date: Date): Buffer {
  const text = date
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return tlv(0x18, Buffer.from(text, 'ascii'));
}

interface Signing {
  tsa: Buffer;
  tsaKey: KeyObject;
  /** The token's certificates field. */
  certificates: Buffer[];
  /** What an ESS attribute naming another certificate names. */
  other: Buffer;
}

function token(
  data: Uint8Array,
  genTime: Date,
  options: TokenOptions,
  { tsa, tsaKey, certificates, other }: Signing,
): Buffer {
  const tstInfo = seq(
    integer(1),
    oid(OID.policy),
    seq(algorithm(OID.sha256), octets(sha256(data))),
    integer(Date.now() % 1_000_000),
    generalizedTime(genTime),
    ...(options.nonce ? [integer(options.nonce)] : []),
  );
  const cert = parseCertificate(tsa);
  const essTarget = options.signingCertificate === 'other' ? other : tsa;
  const essCertIdV2 = seq(octets(sha256(essTarget)));
  const attrs = setOf(
    seq(oid(OID.contentType), setOf(oid(OID.tstInfo))),
    seq(oid(OID.messageDigest), setOf(octets(sha256(tstInfo)))),
    ...(options.signingCertificate === 'none'
      ? []
      : [seq(oid(OID.signingCertificateV2), setOf(seq(seq(essCertIdV2))))]),
  );
  const signerInfo = seq(
    integer(1),
    seq(cert.issuer, integer(cert.serial)),
    algorithm(OID.sha256),
    retag(0xa0, attrs),
    algorithm(OID.ecdsaWithSha256),
    octets(ecSign(tsaKey, attrs)),
  );
  const content = seq(
    integer(3),
    setOf(algorithm(OID.sha256)),
    seq(oid(OID.tstInfo), explicit(0, octets(tstInfo))),
    explicit(0, ...certificates),
    setOf(signerInfo),
  );
  return seq(oid(OID.signedData), explicit(0, content));
}
