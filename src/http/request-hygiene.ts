import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * What the service takes from a request before routing, so logs and answers never carry secrets
 * or client-chosen junk: query values that look like credentials are redacted from the URL (the
 * service never reads credentials from the query: a key sent as `?x-api-key=` would otherwise be
 * logged with the URL), and a client's `x-request-id` is adopted only when it is short and plain.
 */

/** Query parameter names whose values are credentials, wherever a client puts them. */
const SECRET_PARAMETER =
  /^(x-api-key|api[-_]?key|key|token|access[-_]?token|x-issuer-signature|signature|secret|password)$/i;

export const REDACTED = '[redacted]';

/** The URL with the values of credential-like query parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const parts = url.slice(q + 1).split('&');
  let changed = false;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] ?? '';
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    if (SECRET_PARAMETER.test(safeDecode(name))) {
      parts[i] = `${name}=${REDACTED}`;
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${parts.join('&')}` : url;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/** Fastify's `rewriteUrl`: every later reader (router, logs, error messages) sees the redacted URL. */
export function rewriteUrl(req: IncomingMessage): string {
  const url = redactUrl(req.url ?? '/');
  (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
  return url;
}

/** A client's request id is kept only if it is 1-128 characters of [A-Za-z0-9._:-]. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the client's x-request-id when acceptable, else a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const offered = req.headers['x-request-id'];
  return typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : randomUUID();
}
