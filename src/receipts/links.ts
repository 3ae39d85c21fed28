/** Where a receipt can be fetched: relative paths, absolute once PUBLIC_URL is known. */

export function receiptPath(id: string): string {
  return `/api/v1/receipt/${id}`;
}

export function absoluteUrl(publicUrl: string | undefined, path: string): string {
  return publicUrl ? `${publicUrl}${path}` : path;
}

/** The public verify page of a receipt, opened at its hash (QR codes, check runs). */
export function verifyPagePath(receiptHash: string): string {
  return `/verify?hash=${encodeURIComponent(receiptHash)}`;
}
