import { step, type Step } from '../steps.js';

/**
 * The in-toto Statement v1 in the envelope and its SLSA Verification Summary (VSA v1): what the
 * service states about the receipt (its hash, the result, the policy) and about the artifact
 * (`resourceUri` and the subject's digest, which must name the same thing).
 */
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const VSA_PREDICATE_TYPE = 'https://slsa.dev/verification_summary/v1';

/** What a verified attestation states, as the report and the CI policy use it. */
export interface AttestationFacts {
  /** `sha256:<hex>` of the receipt the summary is about (its first input attestation). */
  receiptHash?: string;
  receiptUri?: string;
  timeVerified?: string;
  verificationResult: 'PASSED' | 'FAILED';
  verifiedLevels: string[];
  /** The profile named by `policy.uri`'s last segment. */
  profile?: string;
  resourceUri?: string;
  /** `owner/name` and commit of a CI receipt's `git+https://github.com/<owner>/<name>@<sha>`. */
  repository?: string;
  sha?: string;
}

type Json = Record<string, unknown>;

const record = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

const GIT_URI =
  /^git\+https:\/\/github\.com\/([A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100})@([0-9a-f]{40}|[0-9a-f]{64})$/;
const DOCUMENT_URI = /^urn:verification-receipt:document:sha256:([0-9a-f]{64})$/;

function decodePayload(payload: Uint8Array): Json | undefined {
  try {
    return record(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload)));
  } catch {
    return undefined;
  }
}

function factsOf(predicate: Json): AttestationFacts | undefined {
  const result = predicate.verificationResult;
  if (result !== 'PASSED' && result !== 'FAILED') return undefined;
  const input = record(
    Array.isArray(predicate.inputAttestations) ? predicate.inputAttestations[0] : undefined,
  );
  const hex = text(record(input?.digest)?.sha256);
  const policyUri = text(record(predicate.policy)?.uri);
  const levels = Array.isArray(predicate.verifiedLevels)
    ? predicate.verifiedLevels.map(String)
    : [];
  const resourceUri = text(predicate.resourceUri);
  const git = GIT_URI.exec(resourceUri ?? '');
  const profile = policyUri ? decodeURIComponent(policyUri.split('/').pop() ?? '') : undefined;
  return {
    ...(hex && /^[0-9a-f]{64}$/.test(hex) ? { receiptHash: `sha256:${hex}` } : {}),
    ...(text(input?.uri) ? { receiptUri: text(input?.uri) } : {}),
    ...(text(predicate.timeVerified) ? { timeVerified: text(predicate.timeVerified) } : {}),
    verificationResult: result,
    verifiedLevels: levels,
    ...(profile ? { profile } : {}),
    ...(resourceUri ? { resourceUri } : {}),
    ...(git ? { repository: git[1], sha: git[2] } : {}),
  };
}

/** What is wrong with a decoded payload as a Statement v1 with a VSA v1 predicate, if anything. */
function statementProblem(
  statement: Record<string, unknown> | undefined,
  facts: AttestationFacts | undefined,
): string | undefined {
  if (!statement) return 'the DSSE payload is not a JSON object';
  if (statement._type !== STATEMENT_TYPE)
    return `_type is ${JSON.stringify(statement._type)}, not ${STATEMENT_TYPE}`;
  if (statement.predicateType !== VSA_PREDICATE_TYPE)
    return `predicateType is ${JSON.stringify(statement.predicateType)}, not ${VSA_PREDICATE_TYPE}`;
  if (!facts) return 'the predicate states no verificationResult PASSED or FAILED';
  if (!facts.receiptHash)
    return 'the predicate names no receipt (inputAttestations[0].digest.sha256)';
  return undefined;
}

/** The statement step: JSON, Statement v1, the VSA v1 predicate, a known result. */
export function statementStep(payload: Uint8Array): {
  step: Step;
  facts?: AttestationFacts;
  subject?: unknown;
} {
  const statement = decodePayload(payload);
  const isVsa =
    statement?._type === STATEMENT_TYPE && statement.predicateType === VSA_PREDICATE_TYPE;
  const facts = isVsa ? factsOf(record(statement.predicate) ?? {}) : undefined;
  const problem = statementProblem(statement, facts);
  if (problem || !facts) return { step: step('statement', 'FAIL', problem ?? '') };
  const about = `in-toto Statement v1 with a SLSA VSA v1 predicate about receipt ${facts.receiptHash}`;
  return { step: step('statement', 'PASS', about), facts, subject: statement?.subject };
}

/** `resourceUri` and the subject's digest name the same commit (CI) or document (RON). */
export function subjectStep(facts: AttestationFacts, subject: unknown): Step {
  const digests = (Array.isArray(subject) ? subject : []).map(
    (s) => record(record(s)?.digest) ?? {},
  );
  const uri = facts.resourceUri ?? '';
  if (facts.sha) {
    return digests.some((d) => d.gitCommit === facts.sha)
      ? step(
          'vsa-subject',
          'PASS',
          `${facts.repository}@${facts.sha}: the subject's gitCommit is the resourceUri's commit`,
        )
      : step('vsa-subject', 'FAIL', `no subject's gitCommit is the commit of resourceUri ${uri}`);
  }
  const doc = DOCUMENT_URI.exec(uri)?.[1];
  if (doc) {
    return digests.some((d) => d.sha256 === doc)
      ? step(
          'vsa-subject',
          'PASS',
          `the subject's sha256 is the resourceUri's document (sha256:${doc})`,
        )
      : step('vsa-subject', 'FAIL', `no subject's sha256 is the document of resourceUri ${uri}`);
  }
  return step(
    'vsa-subject',
    'FAIL',
    `resourceUri ${JSON.stringify(uri)} names neither a commit nor a document`,
  );
}
