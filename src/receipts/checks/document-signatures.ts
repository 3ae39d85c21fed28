import type { JudgedSignature } from '../notarial/evidence.js';
import type { SignatureReason } from '../notarial/signer.js';
import type { CheckOutcome } from '../types.js';
import type { RonCheckContext } from './context.js';
import { fail, judged, pass, quote, warn } from './outcome.js';

const CHECK_ID = 'doc.signatures';

/** When two signatures have problems, the reason reported is the first of this order. */
const PROBLEM_ORDER: readonly SignatureReason[] = [
  'document_signature_invalid',
  'document_modified_after_signing',
  'signer_certificate_expired',
  'signer_certificate_revoked',
  'signer_not_trusted',
];

/**
 * `doc.signatures`: the X.509 signatures inside the submitted document (a notary's PAdES or
 * PKCS#7 signature), every one over every revision. Each must verify over its byte range, be
 * followed only by what PAdES allows (DSS, document time-stamps, further signatures), be made with
 * a certificate valid at the signing time that chains to the tenant's notary trust anchors and
 * that its issuer has not revoked (unless a trusted time-stamp places the signature before the
 * revocation); one of them must be the registered notary's, made while the commission was
 * current. A CRL that is published but cannot be had is a WARN: the signature may stand, but
 * nobody could tell. The reading
 * and judging is `documentEvidence` (../notarial/evidence.ts), done once per request.
 */
export function checkDocumentSignatures(ctx: RonCheckContext): CheckOutcome {
  const unsigned = ctx.profile.documentSignatures?.unsigned ?? 'WARN';
  const evidence = ctx.documentEvidence;
  if (ctx.document === undefined || evidence === undefined) {
    return judged(
      CHECK_ID,
      ctx.profile.requireDocument ? 'FAIL' : 'WARN',
      'document_not_provided',
      'no document bytes (doc.pdfBase64) supplied; its signatures could not be checked',
    );
  }
  if (evidence.kind === 'unreadable') {
    return fail(CHECK_ID, 'document_unreadable', `the document cannot be read: ${evidence.reason}`);
  }
  const { signatures } = evidence;
  const stamps = evidence.timeStamps.length > 0 ? `; ${evidence.timeStamps.join('; ')}` : '';
  if (signatures.length === 0) {
    const text = `the document (${evidence.revisions} revision(s)) carries no signature${stamps}`;
    return judged(CHECK_ID, unsigned, 'document_unsigned', text);
  }
  const summary = signatures.map(describe).join(' | ') + stamps;
  for (const reason of PROBLEM_ORDER) {
    const bad = signatures.find((s) => s.problem?.reason === reason);
    if (bad) return fail(CHECK_ID, reason, `signature ${bad.index} fails: ${summary}`);
  }
  const notary = signatures.find((s) => s.notary.is);
  if (!notary) {
    return fail(
      CHECK_ID,
      'signer_not_registered_notary',
      `no signature is the notary ${quote(ctx.request.ron.notaryId)}'s: ${summary}`,
    );
  }
  const outside = commissionProblem(ctx, notary);
  if (outside) return fail(CHECK_ID, 'signing_time_outside_commission', `${outside}: ${summary}`);
  const unknown = signatures.find((s) => s.revocation?.unknown !== undefined);
  if (unknown) {
    const text = `signature ${unknown.index}: whether its certificates were revoked is unknown (${unknown.revocation?.unknown}): ${summary}`;
    return warn(CHECK_ID, 'signer_revocation_unknown', text);
  }
  return pass(CHECK_ID, `signature ${notary.index} is the registered notary's: ${summary}`);
}

/** Whether the verified notary signature of `ctx` proves the registered notary signed it. */
export function notarySignatureProven(ctx: RonCheckContext): boolean {
  return ctx.documentEvidence !== undefined && checkDocumentSignatures(ctx).status === 'PASS';
}

/** The notary signed after the last day of the registered commission. */
function commissionProblem(ctx: RonCheckContext, notary: JudgedSignature): string | undefined {
  const expires = ctx.notary?.commissionExpires;
  const at = notary.time?.at;
  if (!expires || !at || !/^\d{4}-\d{2}-\d{2}$/.test(expires)) return undefined;
  const end = Date.parse(`${expires}T23:59:59.999Z`);
  if (Number.isNaN(end) || at.getTime() <= end) return undefined;
  return `signature ${notary.index} was made ${at.toISOString()}, after the commission's last day ${expires}`;
}

/** One signature for auditors: signer, issuer, serial, fingerprint, time, coverage, verdict. */
function describe(s: JudgedSignature): string {
  const kind = s.subFilter ? `, ${quote(s.subFilter)}` : '';
  const head = `signature ${s.index} (revision ${s.revision}${kind})`;
  const signer = s.signer
    ? `signer ${quote(s.signer.subject)} issued by ${quote(s.signer.issuer)}, serial ${s.signer.serial.slice(0, 40)}, ${s.signer.fingerprint}`
    : 'signer not verified';
  const time = s.time
    ? `signed ${s.time.at.toISOString()} per ${s.time.source}`
    : 'signing time not read';
  const verdict = s.problem
    ? `${s.problem.reason}: ${s.problem.text}`
    : 'verifies and chains to the trust anchors';
  const notary = s.signer ? `; notary: ${s.notary.why}` : '';
  const revocation = s.revocation ? `; ${s.revocation.summary}` : '';
  return `${head}: ${signer}; ${time}; covers ${s.coverage}; ${verdict}${revocation}${notary}`;
}
