import {
  certificateFingerprint,
  checkSignerPath,
  nameAttributes,
  MAX_DOCUMENT_BYTES,
  nameText,
  parseCertificate,
  readDocumentSignatures,
  verifyTimestampToken,
  type Certificate,
  type DocumentSignature,
  type DocumentText,
} from '@verification-receipts/verify/internals';
import { nameTokens } from '../../screening/normalise.js';
import { nameSimilarity } from '../../screening/similarity.js';
import type { NotaryTrust } from '../ports.js';
import type { NotaryRecord } from '../types.js';
import type { CertificateRevocation } from '../certificate-revocation.js';
import { judgeRevocation, type SigningTime } from './revocation.js';

/**
 * What the document's own signatures prove, read once per request for the checks of a profile
 * that runs `doc.signatures` (and that `ron.seal` and `ocr.consistency` then also read). The PDF
 * is read by the verifier package's revision-aware reader, so the service and a relying party
 * with `receipt-verify --artifact` see the same signatures; the judgement against the tenant's
 * trust anchors and registry is made here. Every problem names a reason of `doc.signatures`.
 */

export type SignatureReason =
  | 'document_signature_invalid'
  | 'document_modified_after_signing'
  | 'signer_certificate_expired'
  | 'signer_certificate_revoked'
  | 'signer_not_trusted';

/** The signer's certificate as an auditor reads it. */
export interface SignerFacts {
  subject: string;
  issuer: string;
  /** Serial number, hex. */
  serial: string;
  /** `sha256:<hex>` of the certificate's DER. */
  fingerprint: string;
  notBefore: Date;
  notAfter: Date;
}

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
  problem: { reason: SignatureReason; text: string } | undefined;
  /** Whether the signer is the notary of the request, and why (or why not). */
  notary: { is: boolean; why: string };
  /** What the issuers' CRLs say of the signer's path (a validated path only). */
  revocation: string | undefined;
  /** Why revocation could not be established, when a CRL is published but was not had. */
  revocationUnknown: string | undefined;
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
    signer: cms && facts(cms.signer),
    time: undefined,
    problem: { reason, text },
    notary: notFound,
    revocation: undefined,
    revocationUnknown: undefined,
  });
  if (signature.invalid !== undefined)
    return failed('document_signature_invalid', signature.invalid);
  if (signature.modified !== undefined) {
    return failed('document_modified_after_signing', signature.modified);
  }
  if (!cms) return failed('document_signature_invalid', 'the signature cannot be checked');
  const signer = facts(cms.signer);
  const time = await signingTime(signature, input);
  const notary = isNotary(cms.signer, input);
  const path = await certificatePath(cms.signer, cms.certificates, time.at, input.anchors);
  const judged = {
    ...base,
    signer,
    time,
    notary,
    revocation: undefined,
    revocationUnknown: undefined,
  };
  if ('problem' in path) return { ...judged, problem: path.problem };
  if (!input.revocation) return { ...judged, problem: undefined };
  const statuses = await input.revocation.statusOf(path.path);
  const found = judgeRevocation(path.path, statuses, time);
  return {
    ...judged,
    problem: found.revoked
      ? { reason: 'signer_certificate_revoked', text: found.revoked }
      : undefined,
    revocation: found.summary,
    revocationUnknown: found.unknown,
  };
}

/** The signer's validated path (leaf first, the anchor last), or the first problem with it. */
async function certificatePath(
  signer: Certificate,
  bag: readonly Certificate[],
  at: Date,
  anchors: readonly Certificate[],
): Promise<{ path: Certificate[] } | { problem: NonNullable<JudgedSignature['problem']> }> {
  if (at < signer.notBefore || at > signer.notAfter) {
    const when = at < signer.notBefore ? 'not yet valid' : 'expired';
    return {
      problem: {
        reason: 'signer_certificate_expired',
        text: `the signer's certificate was ${when} at the signing time ${at.toISOString()} (valid ${signer.notBefore.toISOString()} to ${signer.notAfter.toISOString()})`,
      },
    };
  }
  if (anchors.length === 0) {
    return {
      problem: {
        reason: 'signer_not_trusted',
        text: 'the tenant has no notary trust anchors (receipts tenants policy --notary-trust-anchors)',
      },
    };
  }
  const path = await checkSignerPath(signer, bag, anchors, at);
  if (path.ok) return { path: path.path };
  return { problem: { reason: 'signer_not_trusted', text: path.reason } };
}

/**
 * The signing time, best source first: a signature time-stamp token over the signature value by
 * an authority the tenant's anchors trust; the signed signingTime attribute (the signer's own
 * claim, signed); the dictionary's /M (claimed, signed by nothing that proves it); else the
 * service clock, when nothing dates the signature.
 */
async function signingTime(signature: DocumentSignature, input: Judge): Promise<SigningTime> {
  const cms = signature.cms;
  let untrusted = '';
  if (cms?.timeStampToken) {
    const stamp = await verifyTimestampToken(cms.timeStampToken, {
      data: cms.signatureValue,
      trusted: input.anchors.map((a) => a.der),
    });
    if (stamp.ok) {
      const source = `a signature time-stamp token of "${stamp.tsa}"`;
      return { at: stamp.genTime, source, proven: true };
    }
    untrusted = ` (its signature time-stamp token is not used: ${stamp.reason})`;
  }
  if (cms?.signingTime) {
    return {
      at: cms.signingTime,
      source: `the signed signingTime attribute, claimed by the signer${untrusted}`,
      proven: false,
    };
  }
  if (signature.claimedTime) {
    return {
      at: signature.claimedTime,
      source: `the signature dictionary's /M, only claimed${untrusted}`,
      proven: false,
    };
  }
  return {
    at: input.now,
    source: `nothing in the signature; judged at the service clock${untrusted}`,
    proven: false,
  };
}

/** Minimum name similarity for a certificate's subject to name the registered notary. */
const SUBJECT_NAME_THRESHOLD = 0.92;

function isNotary(signer: Certificate, input: Judge): JudgedSignature['notary'] {
  const { notary, trust } = input;
  if (!notary) return { is: false, why: 'the request names no registered notary' };
  const fingerprint = certificateFingerprint(signer.der);
  if ((trust?.signer ?? 'certificate') === 'certificate') {
    if (!notary.certificateDer) {
      return {
        is: false,
        why: `notary ${JSON.stringify(notary.notaryId)} has no registered certificate`,
      };
    }
    const pinned = certificateFingerprint(
      new Uint8Array(Buffer.from(notary.certificateDer, 'base64')),
    );
    return pinned === fingerprint
      ? {
          is: true,
          why: `the certificate registered for notary ${JSON.stringify(notary.notaryId)} (${pinned})`,
        }
      : {
          is: false,
          why: `not the certificate registered for notary ${JSON.stringify(notary.notaryId)} (${pinned})`,
        };
  }
  const names = nameAttributes(signer.subject);
  const cn = names.filter((a) => a.type === 'CN').map((a) => a.value);
  const given = names.find((a) => a.type === 'GN')?.value;
  const surname = names.find((a) => a.type === 'SN')?.value;
  const candidates = [...cn, ...(given && surname ? [`${given} ${surname}`] : [])];
  const registered = nameTokens(notary.displayName);
  const best = Math.max(0, ...candidates.map((c) => nameSimilarity(nameTokens(c), registered)));
  const verdict = best >= SUBJECT_NAME_THRESHOLD;
  return {
    is: verdict,
    why: `the subject ${verdict ? 'names' : 'does not name'} the registered notary ${JSON.stringify(notary.displayName)} (similarity ${best.toFixed(3)}, threshold ${SUBJECT_NAME_THRESHOLD})`,
  };
}

function facts(cert: Certificate): SignerFacts {
  return {
    subject: nameText(cert.subject),
    issuer: nameText(cert.issuer),
    serial: Buffer.from(cert.serial).toString('hex'),
    fingerprint: certificateFingerprint(cert.der),
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
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
