import {
  certificateFingerprint,
  checkSignerPath,
  nameAttributes,
  nameText,
  verifyTimestampToken,
  type Certificate,
  type DocumentSignature,
} from '@verification-receipts/verify/internals';
import { nameTokens } from '../../screening/normalise.js';
import { nameSimilarity } from '../../screening/similarity.js';
import type { NotaryTrust } from '../ports.js';
import type { NotaryRecord } from '../types.js';
import type { SigningTime } from './revocation.js';

/**
 * Who signed a deed and when, as `doc.signatures` judges it: the signer's certificate as an
 * auditor reads it, the signing time from its best source, the signer's path to the tenant's
 * notary trust anchors at that time, and whether the signer is the request's registered notary
 * (its pinned certificate, or under the subject rule its name).
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

/** The first problem with a signature, named by a reason of `doc.signatures`. */
export interface SignatureProblem {
  reason: SignatureReason;
  text: string;
}

/** Whether the signer is the notary of the request, and why (or why not). */
export interface NotaryMatch {
  is: boolean;
  why: string;
}

export function signerFacts(cert: Certificate): SignerFacts {
  return {
    subject: nameText(cert.subject),
    issuer: nameText(cert.issuer),
    serial: Buffer.from(cert.serial).toString('hex'),
    fingerprint: certificateFingerprint(cert.der),
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
  };
}

/** The signer's validated path (leaf first, the anchor last), or the first problem with it. */
export async function certificatePath(
  signer: Certificate,
  bag: readonly Certificate[],
  at: Date,
  anchors: readonly Certificate[],
): Promise<{ path: Certificate[] } | { problem: SignatureProblem }> {
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
export async function signingTime(
  signature: DocumentSignature,
  input: { anchors: readonly Certificate[]; now: Date },
): Promise<SigningTime> {
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

export function isNotary(
  signer: Certificate,
  input: { notary: NotaryRecord | undefined; trust: NotaryTrust | undefined },
): NotaryMatch {
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
