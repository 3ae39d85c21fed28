import type { RonCheckId } from './checks/catalogue.js';
import { fail, quote } from './checks/outcome.js';
import type { CheckOutcome } from './types.js';

/**
 * Named policy profiles: which RON checks run and how strictly they judge. A request names its
 * profile in `policy.profile`; the receipt records it. Profile ids carry a version suffix and a
 * published profile never changes behaviour: a stricter or looser variant gets a new id, so an old
 * receipt can always be read against the rules it was issued under.
 */
export interface PolicyProfile {
  id: string;
  description: string;
  /** The checks that run, always in RON_CHECK_ORDER whatever the order here. */
  checks: readonly RonCheckId[];
  /** Status of `ron.seal` for an opaque seal (no `sealScheme`). Never PASS: it cannot be verified. */
  opaqueSeal: 'WARN' | 'FAIL';
  /** `doc.hash` without document bytes: FAIL when true, WARN when false. */
  requireDocument: boolean;
  /**
   * `registry.screening` when screening cannot happen (no subject, unusable subject, no lists, a
   * list unreadable): FAIL when true, WARN when false (no subject at all is then a PASS).
   */
  requireScreening: boolean;
  /** `property.jurisdiction` when the notary's commission state differs from the property's. */
  interstateNotarization: 'PASS' | 'WARN';
  /**
   * The notary's own X.509 signature in the document (`doc.signatures`), for profiles that run it:
   * the status of a document that carries no signature; whether that verified signature stands
   * in for an opaque seal in `ron.seal`; whether `ocr.consistency` reads the notarial certificate
   * from the document's text when no OCR fields are sent. Absent from profiles that do not.
   */
  documentSignatures?: {
    unsigned: 'WARN' | 'FAIL';
    provesOpaqueSeal: boolean;
    ocrFromDocumentText: boolean;
  };
}

/**
 * The checks of the v1 profiles, listed explicitly: a check added to the catalogue later reaches
 * no published profile (its behaviour would change), only a new profile version that lists it.
 * test/receipts/policy.unit.test.ts pins every published profile.
 */
const V1_RON_CHECKS: readonly RonCheckId[] = [
  'doc.hash',
  'ron.seal',
  'ron.commission',
  'property.jurisdiction',
  'ocr.consistency',
  'registry.screening',
  'request.timestamp',
];

const profiles: PolicyProfile[] = [
  {
    id: 'ron-standard-v1',
    description:
      'Every v1 RON check. Gaps in evidence (no document, opaque seal, no screening lists) FLAG.',
    checks: V1_RON_CHECKS,
    opaqueSeal: 'WARN',
    requireDocument: false,
    requireScreening: false,
    interstateNotarization: 'PASS',
  },
  {
    id: 'ron-strict-v1',
    description:
      'Every v1 RON check. An opaque seal, a missing document or missing screening BLOCKs; ' +
      'interstate notarisation FLAGs.',
    checks: V1_RON_CHECKS,
    opaqueSeal: 'FAIL',
    requireDocument: true,
    requireScreening: true,
    interstateNotarization: 'WARN',
  },
  {
    id: 'ron-basic-v1',
    description:
      'As ron-standard-v1 without the OCR cross-check, for integrations whose OCR output is ' +
      'not reliable enough to compare.',
    checks: V1_RON_CHECKS.filter((id) => id !== 'ocr.consistency'),
    opaqueSeal: 'WARN',
    requireDocument: false,
    requireScreening: false,
    interstateNotarization: 'PASS',
  },
];

/**
 * The PAdES profile runs every v1 check and `doc.signatures`, which checks the notary's own X.509
 * signature in the document; the document is required (there is nothing to check without it).
 */
profiles.push({
  id: 'ron-pades-v1',
  description:
    "Every v1 RON check, and doc.signatures: the notary's own X.509 (PAdES or PKCS#7) signature " +
    "in the document verifies, chains to the tenant's notary trust anchors and is the registered " +
    "notary's; a verified one stands in for an opaque seal. The document is required.",
  checks: [...V1_RON_CHECKS, 'doc.signatures'],
  opaqueSeal: 'WARN',
  requireDocument: true,
  requireScreening: false,
  interstateNotarization: 'PASS',
  documentSignatures: { unsigned: 'WARN', provesOpaqueSeal: true, ocrFromDocumentText: true },
});

/** Every defined profile; the first is the one integrations should start from. */
export const POLICY_PROFILES: readonly Readonly<PolicyProfile>[] = Object.freeze(
  profiles.map((profile) => Object.freeze(profile)),
);

/** The profile with exactly this id (case-sensitive), or undefined. */
export function resolveProfile(id: string): PolicyProfile | undefined {
  return POLICY_PROFILES.find((profile) => profile.id === id);
}

/**
 * The single outcome a request with an unknown profile gets instead of running checks: a FAIL of
 * `policy.profile`, so the receipt records the refusal (decision BLOCK) rather than erroring.
 */
export function unknownProfileOutcome(
  id: string,
  knownIds: readonly string[] = POLICY_PROFILES.map((profile) => profile.id),
): CheckOutcome {
  const known = knownIds.join(', ');
  return fail(
    'policy.profile',
    'unknown_policy_profile',
    `policy profile ${quote(id)} is not defined; known profiles: ${known}`,
  );
}
