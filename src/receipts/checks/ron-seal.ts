import { SEAL_SCHEME, verifySeal, type SealClaims } from '../seal.js';
import type { CheckOutcome, NotaryRecord } from '../types.js';
import { ALLOWED_CLOCK_SKEW_MS } from './clock.js';
import type { RonCheckContext } from './context.js';
import { notarySignatureProven } from './document-signatures.js';
import { fail, judged, pass, quote } from './outcome.js';

const CHECK_ID = 'ron.seal';

/**
 * `ron.seal`: for `sealScheme: SIM-ECDSA-v1`, verifies the compact JWS in `ron.sealPayload` with
 * the public key registered for `ron.notaryId`, then requires every claim to match the request
 * (notaryId, commissionState, and docHash against the normalised doc.docHash) and `iat` not to lie
 * in the future. Without `sealScheme` the seal is opaque: never a PASS, but a WARN or a FAIL as
 * the profile's `opaqueSeal` says.
 */
export function checkSeal(ctx: RonCheckContext): CheckOutcome {
  const { ron } = ctx.request;
  if (ctx.notary === undefined) {
    return fail(
      CHECK_ID,
      'notary_not_registered',
      `notary ${quote(ron.notaryId)} is not registered for this tenant; no key to verify the seal`,
    );
  }
  if (ron.sealScheme === undefined) {
    if (ctx.profile.documentSignatures?.provesOpaqueSeal && provenByDocument(ctx)) {
      return pass(
        CHECK_ID,
        `no sealScheme: the seal of provider ${quote(ron.provider)} is opaque, but the document ` +
          `(${ctx.docHash}) carries the registered notary's verified signature (doc.signatures)`,
      );
    }
    return judged(
      CHECK_ID,
      ctx.profile.opaqueSeal,
      'seal_unverifiable',
      `no sealScheme: the seal of provider ${quote(ron.provider)} is opaque and cannot be verified`,
    );
  }
  return checkSignedSeal(ctx, ctx.notary);
}

/** The registered notary's verified signature covers exactly the document the request names. */
function provenByDocument(ctx: RonCheckContext): boolean {
  return ctx.document?.digest === ctx.docHash && notarySignatureProven(ctx);
}

function checkSignedSeal(ctx: RonCheckContext, notary: NotaryRecord): CheckOutcome {
  const { ron } = ctx.request;
  const result = verifySeal(ron.sealPayload, notary.publicKeyPem);
  const subject = `${SEAL_SCHEME} seal of notary ${quote(ron.notaryId)}`;
  if (!result.ok) {
    const text = `${subject} did not verify with the registered key: ${result.reason}`;
    return fail(CHECK_ID, 'seal_invalid', text);
  }
  const mismatches = claimMismatches(result.claims, ctx);
  if (mismatches.length > 0) {
    const text = `${subject} is validly signed but ${mismatches.join('; ')}`;
    return fail(CHECK_ID, 'seal_claim_mismatch', text);
  }
  const issuedAt = new Date(result.claims.iat * 1000);
  if (issuedAt.getTime() > ctx.now.getTime() + ALLOWED_CLOCK_SKEW_MS) {
    const text = `${subject} claims iat ${issuedAt.toISOString()}, after ${ctx.now.toISOString()}`;
    return fail(CHECK_ID, 'seal_issued_in_future', text);
  }
  return pass(
    CHECK_ID,
    `${subject}: ES256 signature valid with the registered key; notaryId, commissionState and ` +
      `docHash claims match the request; issued ${issuedAt.toISOString()}`,
  );
}

/** One sentence per claim that differs from the request, naming both values. */
function claimMismatches(claims: SealClaims, ctx: RonCheckContext): string[] {
  const expected: Array<[keyof SealClaims, string]> = [
    ['notaryId', ctx.request.ron.notaryId],
    ['commissionState', ctx.request.ron.commissionState],
    ['docHash', ctx.docHash],
  ];
  return expected
    .filter(([claim, value]) => claims[claim] !== value)
    .map(
      ([claim, value]) =>
        `claim ${claim} is ${quote(String(claims[claim]))}, request has ${quote(value)}`,
    );
}
