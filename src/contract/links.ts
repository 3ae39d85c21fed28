/**
 * The interface's URL shapes: where the HTTP layer serves the API, a receipt and the verify page.
 * Relative paths, absolute once PUBLIC_URL is known. The domain never builds a URL: it is given
 * a receipt's links (`receiptLinks`, the `ReceiptLinks` port of src/receipts) by the composition
 * root.
 */

/** The prefix every authenticated API route is registered under. */
export const API_PREFIX = '/api/v1';

export function receiptPath(id: string): string {
  return `${API_PREFIX}/receipt/${id}`;
}

/** Where the policy profiles are published (no key): a receipt's VSA names its profile's. */
export const POLICIES_PATH = '/policies';

export function policyPath(profile: string): string {
  return `${POLICIES_PATH}/${encodeURIComponent(profile)}`;
}

/** The relying party's verifier on npm. Scoped on purpose: the unscoped `receipts` is not ours. */
export const VERIFIER_PACKAGE = '@verification-receipts/verify';

/**
 * The command that checks a receipt file, pinned to the issuing service: online (its keys, log and
 * the receipt's current status), or to a saved copy of its keys, offline (the current status is
 * then unknown, which `--offline` says it accepts). Every public text that tells
 * someone how to verify (the PDF, the /verify page, the check run, the OpenAPI document) prints
 * this one; a verifier run without a trust root refuses, so none is ever shown without one.
 */
export function verifyCommand(
  file: string,
  serviceUrl: string,
  pin: 'online' | 'jwks' = 'online',
): string {
  const root = pin === 'online' ? `--online ${serviceUrl}` : '--jwks jwks.json --offline';
  const saved =
    pin === 'jwks' ? `  # jwks.json: a saved copy of ${serviceUrl}/.well-known/jwks.json` : '';
  return `npx ${VERIFIER_PACKAGE} ${file} ${root}${saved}`;
}

export function absoluteUrl(publicUrl: string | undefined, path: string): string {
  return publicUrl ? `${publicUrl}${path}` : path;
}

/** The public verify page of a receipt, opened at its hash (QR codes, check runs). */
export function verifyPagePath(receiptHash: string): string {
  return `/verify?hash=${encodeURIComponent(receiptHash)}`;
}

/** Where a stored receipt's JSON and PDF are fetched, and whether those are absolute URLs. */
export function receiptLinks(publicUrl: string | undefined): {
  receipt(id: string): { json: string; pdf: string; absolute: boolean };
} {
  return {
    receipt(id) {
      const json = absoluteUrl(publicUrl, receiptPath(id));
      return { json, pdf: `${json}/pdf`, absolute: Boolean(publicUrl) };
    },
  };
}
