import { equalBytes } from './der.js';
import { OID } from './token-parse.js';
import { issuedBy, KEY_USAGE, type Certificate } from './x509.js';

/**
 * Whether a time-stamping authority's certificate may be trusted at the stamped time: the one
 * rule the verifier and the service's TSA client share. The TSA certificate is for time-stamping
 * alone (RFC 3161 2.3: extended key usage id-kp-timeStamping, critical) and, when it carries a
 * keyUsage, for signing only. It is pinned itself or issued, through the token's certificates, by
 * a pinned one (RFC 5280 6.1, with the pinned certificate as the trust anchor): every issuer on
 * the path is a CA (basicConstraints cA, keyCertSign when keyUsage is present, its
 * pathLenConstraint honoured), every signature verifies, every certificate is valid at the stamped
 * time and carries no critical extension this reader does not process. The rule is that of
 * `openssl verify -purpose timestampsign -attime <genTime>`, which the tests compare it with, and
 * stricter where openssl is lenient: a path has at most MAX_PATH certificates (openssl: 100); a
 * pinned issuer needs basicConstraints cA (openssl also takes a v1 root or keyCertSign alone);
 * the extended key usage lists timeStamping and nothing else (openssl ignores purposes it does
 * not know); critical name or policy constraints are refused (openssl processes them). Among
 * several certificates of the issuer's name, the one whose signature verifies is taken.
 */

/** Most certificates in a path, the TSA's and the pinned one included. */
export const MAX_PATH = 5;
/** Most issuer signatures checked while looking for a path (each costs a verification). */
const MAX_SIGNATURE_CHECKS = 16;
/** Most complete paths tried (a token may carry several certificates with one name). */
const MAX_PATHS = 4;

export type PathCheck = { ok: true; path: Certificate[] } | { ok: false; reason: string };

export async function checkTsaPath(
  signer: Certificate,
  bag: readonly Certificate[],
  pinned: readonly Certificate[],
  at: Date,
): Promise<PathCheck> {
  return checkPath(signer, bag, pinned, at, { role: 'TSA', leafProblem: tsaProblem });
}

/**
 * The same path rule for the signer of a document (a notary's PAdES or PKCS#7 signature): its
 * certificate, when it carries a keyUsage, may sign (digitalSignature or nonRepudiation), and when
 * it carries an extended key usage, lists a document-signing purpose; every issuer up to a trust
 * anchor is checked exactly as for a TSA, at the signing time.
 */
export async function checkSignerPath(
  signer: Certificate,
  bag: readonly Certificate[],
  anchors: readonly Certificate[],
  at: Date,
): Promise<PathCheck> {
  return checkPath(signer, bag, anchors, at, { role: 'signer', leafProblem: signerProblem });
}

interface Rule {
  /** How reports name the leaf ("the TSA certificate", "the signer certificate"). */
  role: string;
  leafProblem: (cert: Certificate) => string | undefined;
}

async function checkPath(
  signer: Certificate,
  bag: readonly Certificate[],
  pinned: readonly Certificate[],
  at: Date,
  rule: Rule,
): Promise<PathCheck> {
  const leaf = rule.leafProblem(signer) ?? certificateProblem(signer, at);
  if (leaf) return { ok: false, reason: `${nameOf(signer, 0, 1, rule.role)} ${leaf}` };
  if (pinned.some((p) => equalBytes(p.der, signer.der))) return { ok: true, path: [signer] };
  const { paths, cut } = await candidatePaths(signer, bag, pinned);
  let first: string | undefined;
  for (const path of paths) {
    const problem = pathProblem(path, at, rule.role);
    if (!problem) return { ok: true, path };
    first ??= problem;
  }
  const unpinned = `the ${rule.role}'s certificate is not pinned nor issued by a pinned certificate`;
  return { ok: false, reason: first ?? (cut ? `${unpinned} within ${cut}` : unpinned) };
}

/** Extended key usages that allow signing documents (any of them, when the extension is there). */
const DOCUMENT_SIGNING = new Set([
  '2.5.29.37.0', // anyExtendedKeyUsage
  '1.3.6.1.5.5.7.3.4', // emailProtection (S/MIME certificates sign PDFs in practice)
  '1.3.6.1.5.5.7.3.36', // id-kp-documentSigning (RFC 9336)
  '1.2.840.113583.1.1.5', // Adobe Authentic Documents Trust
  '1.3.6.1.4.1.311.10.3.12', // Microsoft document signing
]);

/** What makes a certificate unfit to sign a document, if anything. */
function signerProblem(cert: Certificate): string | undefined {
  const usage = cert.extensions.keyUsage;
  const signing = KEY_USAGE.digitalSignature | KEY_USAGE.nonRepudiation;
  if (usage !== undefined && (usage & signing) === 0) {
    return 'has a keyUsage without digitalSignature or nonRepudiation';
  }
  const eku = cert.extensions.extKeyUsage;
  if (eku && !eku.purposes.some((p) => DOCUMENT_SIGNING.has(p))) {
    return `is not for signing documents (its extended key usage lists ${eku.purposes.join(', ')})`;
  }
  return undefined;
}

/** What makes a certificate unfit to sign time-stamps (RFC 3161 2.3), if anything. */
function tsaProblem(cert: Certificate): string | undefined {
  const eku = cert.extensions.extKeyUsage;
  if (!eku) return 'has no extended key usage: it is not for time-stamping (id-kp-timeStamping)';
  if (eku.purposes.length !== 1 || eku.purposes[0] !== OID.timeStamping) {
    return `is not for time-stamping alone (id-kp-timeStamping; it lists ${eku.purposes.join(', ')})`;
  }
  if (!eku.critical) return 'has a non-critical extended key usage (RFC 3161 2.3: critical)';
  const usage = cert.extensions.keyUsage;
  const signing = KEY_USAGE.digitalSignature | KEY_USAGE.nonRepudiation;
  if (usage !== undefined && ((usage & signing) === 0 || (usage & ~signing) !== 0)) {
    return 'has a keyUsage other than digitalSignature or nonRepudiation';
  }
  return undefined;
}

/** What makes any certificate of the path unusable at `at`, if anything. */
function certificateProblem(cert: Certificate, at: Date): string | undefined {
  if (at < cert.notBefore || at > cert.notAfter) {
    return `is not valid at the stamped time ${at.toISOString()} (valid from ${cert.notBefore.toISOString()} to ${cert.notAfter.toISOString()})`;
  }
  const [unhandled] = cert.extensions.unhandledCritical;
  if (unhandled) return `has a critical extension this verifier does not process (${unhandled})`;
  return undefined;
}

/** What makes `path[i]` (i > 0) unfit to issue `path[i - 1]`, if anything. */
function issuerProblem(path: readonly Certificate[], i: number, role: string): string | undefined {
  const cert = path[i];
  const below = path[i - 1];
  if (!cert || !below) return 'is missing';
  const constraints = cert.extensions.basicConstraints;
  if (!constraints?.ca) {
    const why = constraints ? 'basicConstraints CA:FALSE' : 'no basicConstraints';
    return `is not a CA (${why}) yet issued ${nameOf(below, i - 1, path.length, role)}`;
  }
  const usage = cert.extensions.keyUsage;
  if (usage !== undefined && (usage & KEY_USAGE.keyCertSign) === 0) {
    return 'may not sign certificates (its keyUsage lacks keyCertSign)';
  }
  // RFC 5280 4.2.1.9: intermediates below it, self-issued ones not counted, the leaf neither
  const intermediates = path.slice(1, i).filter((c) => !equalBytes(c.issuer, c.subject)).length;
  if (constraints.pathLen !== undefined && intermediates > constraints.pathLen) {
    return `allows ${constraints.pathLen} intermediate certificate(s) below it (pathLenConstraint), the path has ${intermediates}`;
  }
  return undefined;
}

function pathProblem(path: readonly Certificate[], at: Date, role: string): string | undefined {
  for (let i = 1; i < path.length; i += 1) {
    const cert = path[i];
    if (!cert) break;
    const problem = issuerProblem(path, i, role) ?? certificateProblem(cert, at);
    if (problem) return `${nameOf(cert, i, path.length, role)} ${problem}`;
  }
  return undefined;
}

/**
 * Paths from `signer` to a pinned certificate through the token's certificates, each link a
 * verified signature under a matching name, found depth first within MAX_PATH, MAX_PATHS and
 * MAX_SIGNATURE_CHECKS.
 */
async function candidatePaths(
  signer: Certificate,
  bag: readonly Certificate[],
  pinned: readonly Certificate[],
): Promise<{ paths: Certificate[][]; cut: string | undefined }> {
  const found: Certificate[][] = [];
  let cut: string | undefined;
  let budget = MAX_SIGNATURE_CHECKS;
  const signs = async (issuer: Certificate, cert: Certificate): Promise<boolean> => {
    if (!equalBytes(cert.issuer, issuer.subject)) return false;
    if (budget <= 0) {
      cut = `${MAX_SIGNATURE_CHECKS} signature checks`;
      return false;
    }
    budget -= 1;
    return issuedBy(cert, issuer);
  };
  const isPinned = (c: Certificate) => pinned.some((p) => equalBytes(p.der, c.der));
  const extend = async (path: Certificate[]): Promise<void> => {
    const current = path[path.length - 1] ?? signer;
    for (const anchor of pinned) {
      if (found.length < MAX_PATHS && (await signs(anchor, current))) found.push([...path, anchor]);
    }
    if (path.length + 2 > MAX_PATH) {
      // room for one more intermediate and the anchor, or none: say so if one would follow
      if (bag.some((c) => equalBytes(c.subject, current.issuer) && !isPinned(c))) {
        cut = `${MAX_PATH} certificates`;
      }
      return;
    }
    for (const next of bag) {
      if (found.length >= MAX_PATHS || isPinned(next)) continue;
      if (path.some((c) => equalBytes(c.der, next.der))) continue;
      if (await signs(next, current)) await extend([...path, next]);
    }
  };
  await extend([signer]);
  return { paths: found, cut };
}

/** How a report names the certificate at `index` of a path of `length`. */
function nameOf(cert: Certificate, index: number, length: number, leaf: string): string {
  const role =
    index === 0
      ? `the ${leaf} certificate`
      : index === length - 1
        ? 'the pinned'
        : 'the intermediate';
  const name = `"${cert.commonName ?? 'unnamed'}"`;
  return index === 0 ? `${role} ${name}` : `${role} certificate ${name}`;
}
