import { policyPath } from '../contract/links.js';
import type { ReceiptRecord } from './ports.js';
import { revocationOf } from './record-state.js';
import type { Signer } from './signer.js';

/**
 * A receipt as a standard supply-chain attestation: a Sigstore bundle v0.3 whose DSSE envelope
 * holds an in-toto Statement v1 with a SLSA Verification Summary (VSA v1) predicate, signed with
 * the service's Ed25519 key (`verificationMaterial.publicKey.hint` is the kid, the JWKS has the
 * key). No transparency-log entry or timestamp is attached: the receipt's own log is C2SP, not
 * Rekor, so a verifier sets its tlog and timestamp thresholds to 0.
 */

export const SIGSTORE_BUNDLE_MEDIA_TYPE = 'application/vnd.dev.sigstore.bundle.v0.3+json';
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const VSA_PREDICATE_TYPE = 'https://slsa.dev/verification_summary/v1';

export interface SigstoreBundle {
  mediaType: typeof SIGSTORE_BUNDLE_MEDIA_TYPE;
  verificationMaterial: { publicKey: { hint: string }; tlogEntries: [] };
  dsseEnvelope: {
    payload: string;
    payloadType: typeof IN_TOTO_PAYLOAD_TYPE;
    signatures: { sig: string; keyid: string }[];
  };
}

/** DSSE v1 pre-authentication encoding: `DSSEv1 <len type> <type> <len body> <body>`. */
export function preAuthEncoding(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'utf8'),
    type,
    Buffer.from(` ${payload.length} `, 'utf8'),
    payload,
  ]);
}

interface Subject {
  kind?: string;
  summary?: string;
  artifactDigest?: string;
  headSha?: string;
  repository?: string;
  docHash?: string;
  bundleId?: string;
}

/** The in-toto subject and resource URI of the receipt's artifact. */
function artifactOf(subject: Subject): {
  name: string;
  digest: Record<string, string>;
  uri: string;
} {
  if (subject.kind === 'ci-workflow-run' && subject.headSha && subject.repository) {
    const uri = `git+https://github.com/${subject.repository}@${subject.headSha}`;
    return { name: uri, digest: { gitCommit: subject.headSha }, uri };
  }
  const hex = (subject.docHash ?? '').replace(/^sha256:/, '');
  const name = subject.bundleId ?? 'document';
  return { name, digest: { sha256: hex }, uri: `urn:verification-receipt:document:sha256:${hex}` };
}

/** The artifact a CI run declared (x-ci-subject-digest), as a second in-toto subject. */
function artifactDigestOf(subject: Subject): { name: string; digest: { sha256: string } }[] {
  if (!subject.artifactDigest) return [];
  const name = subject.summary || 'artifact';
  return [{ name, digest: { sha256: subject.artifactDigest.replace(/^sha256:/, '') } }];
}

/**
 * The in-toto Statement v1 with the VSA v1 predicate for a stored receipt. `baseUrl` names the
 * verifier and its policies; `receiptUri` is where the receipt itself is served.
 */
export function vsaStatement(
  record: ReceiptRecord,
  baseUrl: string,
  receiptUri: string,
): Record<string, unknown> {
  const { receipt } = record;
  const artifact = artifactOf(receipt.subject as Subject);
  const passed = receipt.decision === 'ALLOW' && !revocationOf(record).revoked;
  const level = `VERIFICATION_RECEIPT_${receipt.policyProfile.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  return {
    _type: STATEMENT_TYPE,
    subject: [
      { name: artifact.name, digest: artifact.digest },
      ...artifactDigestOf(receipt.subject as Subject),
    ],
    predicateType: VSA_PREDICATE_TYPE,
    predicate: {
      verifier: { id: baseUrl },
      timeVerified: receipt.createdAt,
      resourceUri: artifact.uri,
      policy: { uri: `${baseUrl}${policyPath(receipt.policyProfile)}` },
      inputAttestations: [
        {
          uri: receiptUri,
          digest: { sha256: receipt.receiptHash.replace(/^sha256:/, '') },
        },
      ],
      verificationResult: passed ? 'PASSED' : 'FAILED',
      verifiedLevels: [passed ? level : 'FAILED'],
      slsaVersion: '1.0',
    },
  };
}

/** The Sigstore bundle of a stored receipt, signed now by `signer`. */
export function attestationOf(
  record: ReceiptRecord,
  signer: Signer,
  baseUrl: string,
  receiptUri: string,
): SigstoreBundle {
  const statement = vsaStatement(record, baseUrl, receiptUri);
  const payload = Buffer.from(JSON.stringify(statement), 'utf8');
  const signature = signer.sign(preAuthEncoding(IN_TOTO_PAYLOAD_TYPE, payload));
  return {
    mediaType: SIGSTORE_BUNDLE_MEDIA_TYPE,
    verificationMaterial: { publicKey: { hint: signer.kid }, tlogEntries: [] },
    dsseEnvelope: {
      payload: payload.toString('base64'),
      payloadType: IN_TOTO_PAYLOAD_TYPE,
      signatures: [{ sig: Buffer.from(signature).toString('base64'), keyid: signer.kid }],
    },
  };
}
