/** A response body longer than the reader allowed; the rest was not read. */
export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`answer larger than ${limit} bytes`);
  }
}

/**
 * The body of a fetch answer, read chunk by chunk and abandoned as soon as it passes `limit`
 * bytes: an answer from another server (a witness, a log, an OIDC issuer, a CA's CRL) can never
 * make this process hold more than `limit` bytes of it. One that declares a longer body
 * (`content-length`) is refused before its first byte is read.
 */
export async function readBounded(res: Response, limit: number): Promise<Uint8Array> {
  if (Number(res.headers.get('content-length') ?? '0') > limit) {
    await res.body?.cancel();
    throw new BodyTooLargeError(limit);
  }
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = reader ? await reader.read() : { done: true as const, value: undefined };
    if (next.done) break;
    size += next.value.length;
    if (size > limit) {
      await reader?.cancel();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(next.value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
