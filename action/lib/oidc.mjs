/* global fetch, AbortSignal -- Node >= 20 built-ins */
import { URL } from 'node:url';
import { ActionError } from './errors.mjs';

/**
 * The run's OpenID Connect ID token from the runner, as actions/core getIDToken does: the job
 * must grant `permissions: id-token: write`, which gives the step ACTIONS_ID_TOKEN_REQUEST_URL
 * and ACTIONS_ID_TOKEN_REQUEST_TOKEN. Undefined when the job does not grant it.
 *
 * @param {Record<string, string | undefined>} env
 * @param {string} audience The `aud` the service checks (its PUBLIC_URL or CI_OIDC_AUDIENCE).
 * @param {number} timeoutMs
 * @returns {Promise<string | undefined>}
 */
export async function requestIdToken(env, audience, timeoutMs) {
  const url = env.ACTIONS_ID_TOKEN_REQUEST_URL?.trim();
  const bearer = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN?.trim();
  if (!url || !bearer) return undefined;
  const target = new URL(url);
  target.searchParams.set('audience', audience);
  let res;
  try {
    res = await fetch(target, {
      headers: { authorization: `Bearer ${bearer}`, accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new ActionError(
      `could not request an OIDC token from the runner (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const text = await res.text();
  if (!res.ok) throw new ActionError(`the runner refused an OIDC token (HTTP ${res.status})`);
  /** @type {unknown} */
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const value = /** @type {{ value?: unknown } | undefined} */ (body)?.value;
  if (typeof value !== 'string' || value.length === 0) {
    throw new ActionError('the runner answered without an OIDC token');
  }
  return value;
}
