/**
 * Strict base64url (RFC 4648 §5, no padding): the bytes, or undefined for any other spelling.
 * Node's decoder skips junk characters and accepts padding and the standard alphabet, so the
 * decoded bytes are re-encoded and compared: one value has exactly one accepted spelling.
 */
export function decodeBase64url(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}
