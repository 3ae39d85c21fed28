import { createPublicKey, verify } from 'node:crypto';
import {
  children,
  DerError,
  equalBytes,
  oidOf,
  readWhole,
  sequence,
  TAG,
  unsignedInteger,
  type Certificate,
  type DerNode,
} from '@verification-receipts/verify/internals';

/**
 * X.509 certificate revocation lists (RFC 5280 5) as far as embedding one in a DSS needs: where a
 * certificate's issuer publishes its CRL (the cRLDistributionPoints extension, RFC 5280 4.2.1.13;
 * http URLs only), and whether a fetched CRL is the issuer's, current, and names the certificate.
 * A CRL is a stranger's bytes until its signature verifies: every read is bounded, and anything
 * malformed is a DerError, which the caller turns into a refusal.
 */

/** Largest CRL read (a small CA's CRL is a few KiB; a public CA's can be hundreds). */
export const MAX_CRL_BYTES = 1024 * 1024;
/** Most revoked entries read from one CRL. */
const MAX_ENTRIES = 50_000;
/** Most extensions read from a CRL, an entry or a certificate. */
const MAX_EXTENSIONS = 32;
/** Most URLs taken from one certificate's distribution points. */
const MAX_URLS = 4;

const OID = {
  crlDistributionPoints: '2.5.29.31',
  /** cRLNumber and authorityKeyIdentifier: understood (they change nothing here). */
  crlNumber: '2.5.29.20',
  authorityKeyIdentifier: '2.5.29.35',
  /** Entry extensions that change nothing about whether the serial is revoked. */
  reasonCode: '2.5.29.21',
  invalidityDate: '2.5.29.24',
};
const UNDERSTOOD = new Set([
  OID.crlNumber,
  OID.authorityKeyIdentifier,
  OID.reasonCode,
  OID.invalidityDate,
]);

const ctx = (n: number) => 0xa0 | n;

export interface Crl {
  der: Uint8Array;
  tbs: Uint8Array;
  /** DER of the issuer Name, compared byte for byte with a certificate's issuer. */
  issuer: Uint8Array;
  thisUpdate: Date;
  nextUpdate: Date | undefined;
  /** Revoked serial numbers (unsigned big-endian, hex) and when. */
  revoked: Map<string, Date>;
  signatureAlgorithm: string;
  signature: Uint8Array;
  /** Critical extensions (of the list or of an entry) this reader does not process. */
  unhandledCritical: string[];
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** CertificateList ::= SEQUENCE { tbsCertList, signatureAlgorithm, signatureValue } */
export function parseCrl(der: Uint8Array): Crl {
  if (der.length > MAX_CRL_BYTES) throw new DerError('CRL too large');
  const [tbsNode, algNode, sigNode, extra] = sequence(
    readWhole(der),
    'CertificateList',
    TAG.sequence,
  );
  if (extra || !tbsNode || tbsNode.tag !== TAG.sequence) throw new DerError('CRL: malformed');
  const fields = children(tbsNode, 8);
  let i = fields[0]?.tag === TAG.integer ? 1 : 0; // version v2 (absent for v1)
  const innerAlg = oidOf(sequence(fields[i++], 'CRL signature')[0]);
  const issuer = fields[i++];
  if (!issuer || issuer.tag !== TAG.sequence) throw new DerError('CRL issuer: unexpected DER');
  const thisUpdate = timeOf(fields[i++]);
  const nextUpdate = isTime(fields[i]) ? timeOf(fields[i++]) : undefined;
  const unhandledCritical: string[] = [];
  const revoked = new Map<string, Date>();
  if (fields[i]?.tag === TAG.sequence) {
    for (const entry of children(fields[i++] as DerNode, MAX_ENTRIES)) {
      const [serial, date, extensions, more] = sequence(entry, 'revoked entry');
      if (more) throw new DerError('revoked entry: malformed');
      revoked.set(hex(unsignedInteger(serial)), timeOf(date));
      if (extensions) unhandledCritical.push(...criticalUnknown(extensions));
    }
  }
  if (fields[i]?.tag === ctx(0)) {
    const [list, more] = children(fields[i++] as DerNode, 2);
    if (more || !list) throw new DerError('CRL extensions: malformed');
    unhandledCritical.push(...criticalUnknown(list));
  }
  if (i !== fields.length) throw new DerError('CRL: unexpected fields');
  const signatureAlgorithm = oidOf(sequence(algNode, 'signatureAlgorithm')[0]);
  if (signatureAlgorithm !== innerAlg) throw new DerError('CRL: signature algorithms differ');
  if (!sigNode || sigNode.tag !== TAG.bitString || sigNode.value[0] !== 0) {
    throw new DerError('CRL signature: malformed');
  }
  return {
    der,
    tbs: tbsNode.bytes,
    issuer: issuer.bytes,
    thisUpdate,
    nextUpdate,
    revoked,
    signatureAlgorithm,
    signature: sigNode.value.subarray(1),
    unhandledCritical,
  };
}

/** The OIDs of critical extensions in an Extensions list that are not in UNDERSTOOD. */
function criticalUnknown(list: DerNode): string[] {
  const out: string[] = [];
  for (const extension of children(expectSequence(list, 'extensions'), MAX_EXTENSIONS)) {
    const parts = sequence(extension, 'extension');
    const id = oidOf(parts[0]);
    const critical = parts.length === 3 && parts[1]?.tag === TAG.boolean && parts[1].value[0] !== 0;
    if (critical && !UNDERSTOOD.has(id)) out.push(id);
  }
  return out;
}

function expectSequence(node: DerNode, what: string): DerNode {
  if (node.tag !== TAG.sequence) throw new DerError(`${what}: unexpected DER`);
  return node;
}

const isTime = (node: DerNode | undefined) =>
  node?.tag === TAG.utcTime || node?.tag === TAG.generalizedTime;

/** RFC 5280 4.1.2.5: UTCTime YYMMDDHHMMSSZ, GeneralizedTime YYYYMMDDHHMMSSZ (no fractions). */
function timeOf(node: DerNode | undefined): Date {
  const text = node && isTime(node) ? new TextDecoder().decode(node.value) : '';
  const match =
    node?.tag === TAG.utcTime
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) throw new DerError('CRL time: malformed');
  const [, y = '', mo = '', d = '', h = '', mi = '', s = ''] = match;
  const year = y.length === 2 ? Number(y) + (Number(y) >= 50 ? 1900 : 2000) : Number(y);
  const date = new Date(
    Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)),
  );
  if (Number.isNaN(date.getTime())) throw new DerError('CRL time: invalid date');
  return date;
}

/**
 * The http URLs of a certificate's cRLDistributionPoints (fullName uniformResourceIdentifiers;
 * ldap, https and relative names are skipped), at most MAX_URLS; none without the extension.
 */
export function crlUrls(certificate: Certificate): string[] {
  const tbs = children(readWhole(certificate.tbs), 16);
  const wrapper = tbs.find((f) => f.tag === ctx(3));
  if (!wrapper) return [];
  const [list] = children(wrapper, 1);
  const urls: string[] = [];
  for (const extension of sequence(list, 'extensions').slice(0, MAX_EXTENSIONS)) {
    const parts = sequence(extension, 'extension');
    if (oidOf(parts[0]) !== OID.crlDistributionPoints) continue;
    const value = parts.at(-1);
    if (value?.tag !== TAG.octetString) throw new DerError('extension value: unexpected DER');
    for (const point of sequence(readWhole(value.value), 'CRLDistributionPoints')) {
      const name = sequence(point, 'DistributionPoint').find((n) => n.tag === ctx(0));
      const full = name ? children(name, 1)[0] : undefined;
      if (full?.tag !== ctx(0)) continue; // nameRelativeToCRLIssuer: not followed
      for (const general of children(full, 16)) {
        if (general.tag !== 0x86) continue; // uniformResourceIdentifier [6] IA5String
        const url = new TextDecoder().decode(general.value);
        if (/^http:\/\/[^\s]+$/i.test(url) && urls.length < MAX_URLS) urls.push(url);
      }
    }
  }
  return urls;
}

export type CrlCheck = { ok: true; crl: Crl; revokedAt?: Date } | { ok: false; reason: string };

/** How far a CRL's thisUpdate may lie ahead of this clock. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Whether `der` is a CRL fit to embed for `subject`: issued under `issuer`'s name, signed by its
 * key, current at `now` (thisUpdate passed, nextUpdate present and not passed), with no critical
 * extension this reader does not process; and whether it lists the subject's serial.
 */
export function checkCrl(
  der: Uint8Array,
  subject: Certificate,
  issuer: Certificate,
  now: Date,
): CrlCheck {
  let crl: Crl;
  try {
    crl = parseCrl(der);
  } catch (err) {
    if (err instanceof DerError) return { ok: false, reason: `not a CRL: ${err.message}` };
    throw err;
  }
  if (!equalBytes(crl.issuer, issuer.subject) || !equalBytes(subject.issuer, issuer.subject)) {
    return { ok: false, reason: "the CRL is not the certificate issuer's" };
  }
  if (!signatureVerifies(crl, issuer)) {
    return { ok: false, reason: "the CRL's signature does not verify under its issuer's key" };
  }
  if (crl.unhandledCritical.length > 0) {
    return { ok: false, reason: `unprocessed critical extension ${crl.unhandledCritical[0]}` };
  }
  if (crl.thisUpdate.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    return { ok: false, reason: 'the CRL is not yet valid (thisUpdate in the future)' };
  }
  if (!crl.nextUpdate || crl.nextUpdate <= now) {
    return { ok: false, reason: 'the CRL is stale (nextUpdate absent or passed)' };
  }
  const revokedAt = crl.revoked.get(hex(subject.serial));
  return revokedAt ? { ok: true, crl, revokedAt } : { ok: true, crl };
}

/** CRL signature algorithms: the hash node:crypto verifies with (RSA PKCS#1 v1.5, ECDSA). */
const HASH_OF_SIGNATURE: Record<string, string> = {
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};

function signatureVerifies(crl: Crl, issuer: Certificate): boolean {
  const hash = HASH_OF_SIGNATURE[crl.signatureAlgorithm];
  if (!hash) return false;
  try {
    const key = createPublicKey({ key: Buffer.from(issuer.spki), format: 'der', type: 'spki' });
    return verify(hash, crl.tbs, key, crl.signature);
  } catch {
    return false;
  }
}
