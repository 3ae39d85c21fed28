/**
 * Why a fetch failed, in words a person can act on: fetch() itself only says "fetch failed" and
 * keeps the reason in `cause` (undici's error codes, or the abort signal's TimeoutError).
 */
export function fetchFailure(err: unknown, timeoutMs: number): string {
  const e = err as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string; name?: string };
  };
  if (e.name === 'TimeoutError' || e.cause?.name === 'TimeoutError') {
    return `no answer within ${timeoutMs / 1000} s (timeout)`;
  }
  const code = e.cause?.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused (nothing listens there)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found (DNS)';
  if (code === 'ECONNRESET') return 'connection reset by the server';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connection timed out (timeout)';
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || /SSL|TLS/.test(code)) {
    return `TLS error: ${code} (the server's certificate is not accepted)`;
  }
  return e.cause?.message ?? e.message ?? 'unknown error';
}
