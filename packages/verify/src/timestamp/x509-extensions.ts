import {
  children,
  DerError,
  expect,
  oidOf,
  readWhole,
  sequence,
  smallInteger,
  TAG,
  type DerNode,
} from './der.js';

/**
 * The X.509v3 extensions (RFC 5280 4.2) that deciding whether a certificate may stand in a
 * time-stamping path needs: basicConstraints, keyUsage and extKeyUsage, read into typed values,
 * and the critical extensions this reader does not process, which a path must not contain (RFC
 * 5280 4.2: a critical extension that is not recognised makes the certificate unusable). A
 * malformed or repeated extension is a DerError, which the callers turn into a verdict.
 */

export interface CertificateExtensions {
  /** Absent when the certificate has no basicConstraints extension. */
  basicConstraints: { ca: boolean; pathLen: number | undefined } | undefined;
  /** The keyUsage bits (KEY_USAGE masks); absent when the extension is. */
  keyUsage: number | undefined;
  /** The extended key usages (OIDs) and whether the extension is critical. */
  extKeyUsage: { purposes: string[]; critical: boolean } | undefined;
  /** OIDs of critical extensions this reader does not process. */
  unhandledCritical: string[];
}

/** keyUsage bits (RFC 5280 4.2.1.3), bit n of the BIT STRING as `1 << n`. */
export const KEY_USAGE = {
  digitalSignature: 1 << 0,
  nonRepudiation: 1 << 1,
  keyCertSign: 1 << 5,
} as const;

const OID = {
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
};

/**
 * Extensions that are understood without changing the path's outcome: key identifiers (only
 * help to find an issuer), subjectAltName (no name constraints are processed, and a critical
 * nameConstraints is refused), certificatePolicies (the relying party accepts any policy and
 * requires none explicitly; policyConstraints, which could demand one, is refused when critical).
 */
const UNDERSTOOD = new Set([
  ...Object.values(OID),
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.17', // subjectAltName
  '2.5.29.32', // certificatePolicies
]);

/** Most extensions read from one certificate; a real one has about ten. */
const MAX_EXTENSIONS = 32;
/** Most key purposes read from one extKeyUsage. */
const MAX_KEY_PURPOSES = 16;

/** The extensions of a certificate, from its `[3]` field (absent: a v1 or v2 certificate). */
export function parseExtensions(wrapper: DerNode | undefined): CertificateExtensions {
  const out: CertificateExtensions = {
    basicConstraints: undefined,
    keyUsage: undefined,
    extKeyUsage: undefined,
    unhandledCritical: [],
  };
  if (!wrapper) return out;
  const [list, extra] = children(wrapper, 2);
  if (extra) throw new DerError('extensions: more than one list');
  const seen = new Set<string>();
  for (const extension of children(expect(list, TAG.sequence, 'extensions'), MAX_EXTENSIONS)) {
    const { id, critical, value } = extensionParts(extension);
    if (seen.has(id)) throw new DerError(`extensions: ${id} appears twice`);
    seen.add(id);
    if (id === OID.basicConstraints) out.basicConstraints = basicConstraintsOf(value);
    else if (id === OID.keyUsage) out.keyUsage = keyUsageOf(value);
    else if (id === OID.extKeyUsage) out.extKeyUsage = { purposes: purposesOf(value), critical };
    if (critical && !UNDERSTOOD.has(id)) out.unhandledCritical.push(id);
  }
  return out;
}

/** Extension ::= SEQUENCE { extnID, critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING } */
function extensionParts(node: DerNode): { id: string; critical: boolean; value: Uint8Array } {
  const parts = sequence(node, 'extension');
  if (parts.length < 2 || parts.length > 3) throw new DerError('extension: malformed');
  const id = oidOf(parts[0]);
  const critical = parts.length === 3 ? booleanOf(parts[1]) : false;
  const value = expect(parts[parts.length - 1], TAG.octetString, 'extension value').value;
  return { id, critical, value };
}

function booleanOf(node: DerNode | undefined): boolean {
  const value = expect(node, TAG.boolean, 'boolean').value;
  if (value.length !== 1) throw new DerError('boolean: malformed');
  return value[0] !== 0;
}

/** BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL } */
function basicConstraintsOf(value: Uint8Array): CertificateExtensions['basicConstraints'] {
  const parts = sequence(readWhole(value), 'basicConstraints');
  if (parts.length > 2) throw new DerError('basicConstraints: malformed');
  let index = 0;
  let ca = false;
  if (parts[index]?.tag === TAG.boolean) {
    ca = booleanOf(parts[index]);
    index += 1;
  }
  const lengthNode = parts[index];
  if (lengthNode && index + 1 !== parts.length) throw new DerError('basicConstraints: malformed');
  return { ca, pathLen: lengthNode ? smallInteger(lengthNode) : undefined };
}

/** KeyUsage ::= BIT STRING (nine named bits: at most two content octets). */
function keyUsageOf(value: Uint8Array): number {
  const bits = expect(readWhole(value), TAG.bitString, 'keyUsage').value;
  const unused = bits[0];
  if (unused === undefined || unused > 7 || bits.length > 3) {
    throw new DerError('keyUsage: malformed');
  }
  let mask = 0;
  for (let n = 0; n < (bits.length - 1) * 8; n += 1) {
    if (((bits[1 + (n >> 3)] ?? 0) & (0x80 >> (n & 7))) !== 0) mask |= 1 << n;
  }
  return mask;
}

/** ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId */
function purposesOf(value: Uint8Array): string[] {
  const list = children(expect(readWhole(value), TAG.sequence, 'extKeyUsage'), MAX_KEY_PURPOSES);
  if (list.length === 0) throw new DerError('extKeyUsage: empty');
  return list.map((n) => oidOf(n));
}
