import {
  MAX_DOCUMENT_BYTES,
  parseCertificate,
  readDocumentSignatures,
  type Certificate,
  type DocumentSignature,
  type DocumentText,
} from '@verification-receipts/verify/internals';
import type { NotaryTrust } from '../ports.js';
import type { NotaryRecord } from '../types.js';
import type { CertificateRevocation } from '../certificate-revocation.js';
import { judgeRevocation, type SigningTime } from './revocation.js';
import {
  certificatePath,
  isNotary,
  signerFacts,
  signingTime,
  type NotaryMatch,
  type SignatureReason,
  type SignerFacts,
  type SignatureProblem,
} from './signer.js';

/**
 * What the document's own signatures prove, read once per request for the checks of a profile
 * that runs `doc.signatures` (and that `ron.seal` and `ocr.consistency` then also read). The PDF
 * is read by the verifier package's revision-aware reader, so the service and a relying party
 * with `receipt-verify --artifact` see the same signatures; the judgement against the tenant's
 * trust anchors and registry is made here (who signed and when: ./signer.ts). Every problem names
 * a reason of `doc.signatures`.
 */

export interface JudgedSignature {
  index: number;
  revision: number;
  subFilter: string | undefined;
  signer: SignerFacts | undefined;
  /** When it was signed and what says so. */
  time: SigningTime | undefined;
  /** What it covers, and what changed after it, in words. */
  coverage: string;
  /** The first problem found, in the order of the reasons of `doc.signatures`. */
  problem: SignatureProblem | undefined;
  /** Whether the signer is the notary of the request, and why (or why not). */
  notary: NotaryMatch;
  /**
   * What the issuers' CRLs say of the signer's path (a validated path only): the summary for the
   * details, and why revocation could not be established when a CRL is published but was not had.
   */
  revocation: { summary: string; unknown?: string } | undefined;
}

export type DocumentEvidence =
  | { kind: 'unreadable'; reason: string }
  | {
      kind: 'read';
      revisions: number;
      signatures: JudgedSignature[];
      /** Document time-stamps, one phrase each; they add no signer. */
      timeStamps: string[];
      text: DocumentText;
    };

export interface EvidenceInput {
  bytes: Uint8Array;
  trust: NotaryTrust | undefined;
  notary: NotaryRecord | undefined;
  now: Date;
  /** Looks up the CRLs of a validated signer path; without it revocation is not checked. */
  revocation?: CertificateRevocation | undefined;
}

/**
 * Reads and judges the document's signatures; never throws for any bytes. Whatever the reader or
 * the judgement should still throw is the document's `unreadable` answer, not a failed request
 * (the reader's own fuzz target, packages/verify/test/fuzz, is where such a throw is found).
 */
export async function documentEvidence(input: EvidenceInput): Promise<DocumentEvidence> {
  try {
    return await readAndJudge(input);
  } catch (err) {
    const why = err instanceof Error ? err.message.slice(0, 200) : 'an unexpected failure';
    return { kind: 'unreadable', reason: `the document could not be read to the end (${why})` };
  }
}

async function readAndJudge(input: EvidenceInput): Promise<DocumentEvidence> {
  // the bound receipt-verify --artifact and the /verify page read deeds within
  if (input.bytes.length > MAX_DOCUMENT_BYTES) {
    const reason = `the document is larger than ${MAX_DOCUMENT_BYTES} bytes, the verifier's bound`;
    return { kind: 'unreadable', reason };
  }
  const read = await readDocumentSignatures(input.bytes);
  if (!read.ok) return { kind: 'unreadable', reason: read.reason };
  const anchors = trustAnchors(input.trust);
  const signatures: JudgedSignature[] = [];
  const timeStamps: string[] = [];
  for (const signature of read.signatures) {
    if (signature.kind === 'document time-stamp') {
      timeStamps.push(timeStampPhrase(signature));
      continue;
    }
    signatures.push(await judge(signature, read.revisions, { ...input, anchors }));
  }
  return { kind: 'read', revisions: read.revisions, signatures, timeStamps, text: read.text };
}

function trustAnchors(trust: NotaryTrust | undefined): Certificate[] {
  const out: Certificate[] = [];
  for (const der of trust?.anchors ?? []) {
    try {
      out.push(parseCertificate(new Uint8Array(Buffer.from(der, 'base64'))));
    } catch {
      // registered through the CLI, which parses each one; a broken row trusts nothing
    }
  }
  return out;
}

interface Judge extends EvidenceInput {
  anchors: Certificate[];
}

async function judge(
  signature: DocumentSignature,
  revisions: number,
  input: Judge,
): Promise<JudgedSignature> {
  const base = {
    index: signature.index,
    revision: signature.revision,
    subFilter: signature.subFilter,
    coverage: coverageOf(signature, revisions),
  };
  const notFound = { is: false, why: 'no verified signer' };
  const cms = signature.cms;
  const failed = (reason: SignatureReason, text: string): JudgedSignature => ({
    ...base,
    signer: cms && signerFacts(cms.signer),
    time: undefined,
    problem: { reason, text },
    notary: notFound,
    revocation: undefined,
  });
  if (signature.invalid !== undefined)
    return failed('document_signature_invalid', signature.invalid);
  if (signature.modified !== undefined) {
    return failed('document_modified_after_signing', signature.modified);
  }
  if (!cms) return failed('document_signature_invalid', 'the signature cannot be checked');
  const signer = signerFacts(cms.signer);
  const time = await signingTime(signature, input);
  const notary = isNotary(cms.signer, input);
  const path = await certificatePath(cms.signer, cms.certificates, time.at, input.anchors);
  const judged = { ...base, signer, time, notary, revocation: undefined };
  if ('problem' in path) return { ...judged, problem: path.problem };
  if (!input.revocation) return { ...judged, problem: undefined };
  const statuses = await input.revocation.statusOf(path.path);
  const { revoked, ...revocation } = judgeRevocation(path.path, statuses, time);
  return {
    ...judged,
    problem: revoked ? { reason: 'signer_certificate_revoked', text: revoked } : undefined,
    revocation,
  };
}

function coverageOf(signature: DocumentSignature, revisions: number): string {
  const c = signature.coverage;
  if (!c) return 'no whole revision';
  if (c.wholeFile) return `the whole document (revision ${c.revision} of ${revisions})`;
  const after =
    signature.additions.length > 0 ? `; after it ${signature.additions.join(', ')}` : '';
  return `revision ${c.revision} of ${revisions} (bytes 0-${c.end})${after}`;
}

function timeStampPhrase(signature: DocumentSignature): string {
  const where = `document time-stamp in revision ${signature.revision}`;
  return signature.invalid ? `${where}: ${signature.invalid}` : where;
}
