import {
  children,
  ctx,
  DerError,
  expect,
  oidOf,
  readWhole,
  sequence,
  TAG,
  timeOf,
  unsignedInteger,
  type DerNode,
} from './der.js';
import { parseCertificate, type Certificate } from './x509.js';

/** The parts of an RFC 3161 token (a CMS SignedData over a TSTInfo) that checking it needs. */

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

export interface ParsedToken {
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

export function parseToken(token: Uint8Array): ParsedToken {
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
