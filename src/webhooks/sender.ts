import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './target.js';

/**
 * One POST of a webhook to the address its target was checked at: the name is not resolved
 * again (the connection's lookup answers the checked address; TLS still checks the certificate
 * against the name), redirects are not followed (a 3xx is a failed attempt), at most
 * `MAX_ANSWER_BYTES` of the answer are read, and the whole exchange ends after the `timeoutMs`
 * it is given (what is left of the attempt's timeout once the name was checked).
 */

/** What is read of a receiver's answer (for the delivery's last error); the rest is dropped. */
export const MAX_ANSWER_BYTES = 4_096;

export interface SendResult {
  /** The answer's status, or undefined when none came (refused, reset, timed out). */
  status: number | undefined;
  /** Why no answer came, or the start of a non-2xx answer's body. */
  error: string | undefined;
  /** A non-2xx answer's `Retry-After` header, as sent (schedule.ts reads it). */
  retryAfter?: string | undefined;
}

export type Send = (
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
) => Promise<SendResult>;

/** A lookup that answers the checked address, whatever the name. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    const cb = callback as (...args: unknown[]) => void;
    if ((options as { all?: boolean }).all)
      cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
}

export function httpSender(userAgent: string): Send {
  return (target, headers, body, timeoutMs) =>
    new Promise<SendResult>((resolve) => {
      const client = target.url.protocol === 'https:' ? https : http;
      const payload = Buffer.from(body, 'utf8');
      let settled = false;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = client.request(target.url, {
        method: 'POST',
        lookup: pinnedLookup(target),
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': userAgent,
        },
      });
      let answered: number | undefined;
      let retryAfter: string | undefined;
      const timer = setTimeout(() => {
        finish({
          status: answered,
          error: answered
            ? `answered ${answered}, its body not ended within ${timeoutMs} ms`
            : `no answer within ${timeoutMs} ms`,
          retryAfter,
        });
        request.destroy();
      }, timeoutMs);
      request.on('error', (err) => finish({ status: undefined, error: err.message }));
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const status = response.statusCode ?? 0;
        answered = status;
        if (status >= 200 && status < 300) {
          // delivered: the answer's body is not needed
          finish({ status, error: undefined });
          response.destroy();
          return;
        }
        const header = response.headers['retry-after'];
        retryAfter = typeof header === 'string' ? header.slice(0, 128) : undefined;
        const done = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 512);
          finish({ status, error: `answered ${status} ${text}`.trim(), retryAfter });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (read < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - read));
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      });
      request.end(payload);
    });
}
