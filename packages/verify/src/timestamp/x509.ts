import { sha256 } from '@noble/hashes/sha2';
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
import { parseExtensions, type CertificateExtensions } from './x509-extensions.js';
import { verifySignature } from './signature.js';

export { KEY_USAGE, type CertificateExtensions } from './x509-extensions.js';

/** The parts of an RFC 5280 certificate that checking a time-stamp token needs. */
export interface Certificate {
  der: Uint8Array;
  tbs: Uint8Array;
  serial: Uint8Array;
  /** DER of the issuer and subject Names, compared byte for byte. */
  issuer: Uint8Array;
  subject: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** DER of the SubjectPublicKeyInfo. */
  spki: Uint8Array;
  signatureAlgorithm: string;
  signature: Uint8Array;
  /** The X.509v3 extensions path validation reads (RFC 5280 4.2). */
  extensions: CertificateExtensions;
  /** The subject's commonName, for reports. */
  commonName: string | undefined;
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
};

/** Most bytes of one certificate read (a TSA or signing certificate is a few KiB). */
export const MAX_CERTIFICATE_BYTES = 16 * 1024;

export function parseCertificate(der: Uint8Array): Certificate {
  if (der.length > MAX_CERTIFICATE_BYTES) throw new DerError('certificate too large');
  const [tbsNode, algNode, sigNode] = sequence(readWhole(der), 'certificate');
  const tbs = expect(tbsNode, TAG.sequence, 'tbsCertificate');
  const fields = children(tbs);
  // version [0] (absent for v1), serial, signature algorithm (repeated outside), issuer, ...
  const [serialNode, , issuerNode, validity, subjectField, spkiNode] = fields.slice(
    fields[0]?.tag === ctx(0) ? 1 : 0,
  );
  const serial = unsignedInteger(serialNode);
  const issuer = expect(issuerNode, TAG.sequence, 'issuer').bytes;
  const [notBefore, notAfter] = sequence(validity, 'validity').map(timeOf);
  const subjectNode = expect(subjectField, TAG.sequence, 'subject');
  const spki = expect(spkiNode, TAG.sequence, 'subjectPublicKeyInfo').bytes;
  const extensions = fields.find((f) => f.tag === ctx(3));
  const signature = expect(sigNode, TAG.bitString, 'signature').value;
  if (!notBefore || !notAfter || signature[0] !== 0) throw new DerError('certificate: malformed');
  return {
    der,
    tbs: tbs.bytes,
    serial,
    issuer,
    subject: subjectNode.bytes,
    notBefore,
    notAfter,
    spki,
    signatureAlgorithm: oidOf(sequence(algNode, 'signatureAlgorithm')[0]),
    signature: signature.subarray(1),
    extensions: parseExtensions(extensions),
    commonName:
      attributeOf(subjectNode, OID.commonName) ?? attributeOf(subjectNode, OID.organization),
  };
}

/** The first value of an attribute type in a Name, as text. */
function attributeOf(name: DerNode, type: string): string | undefined {
  for (const rdn of children(name)) {
    for (const attribute of sequence(rdn, 'rdn', TAG.set)) {
      const [oid, value] = sequence(attribute, 'attribute');
      if (oidOf(oid) === type && value) return new TextDecoder().decode(value.value).slice(0, 200);
    }
  }
  return undefined;
}

/** PEM `CERTIFICATE` blocks of a file (a chain allowed), as DER. */
export function certificatesFromPem(text: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  const re = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
  for (const match of text.matchAll(re)) {
    const body = (match[1] ?? '').replace(/\s+/g, '');
    const binary = atob(body);
    const der = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) der[i] = binary.charCodeAt(i);
    out.push(der);
  }
  return out;
}

/** `sha256:<hex>` of a certificate's DER (how a report names a certificate). */
export function certificateFingerprint(der: Uint8Array): string {
  return `sha256:${Array.from(sha256(der), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Whether `issuer` signed `cert` (names match and the signature verifies under its key). */
export async function issuedBy(cert: Certificate, issuer: Certificate): Promise<boolean> {
  if (!equalBytes(cert.issuer, issuer.subject)) return false;
  return verifySignature({
    spki: issuer.spki,
    algorithm: cert.signatureAlgorithm,
    signature: cert.signature,
    data: cert.tbs,
  });
}
