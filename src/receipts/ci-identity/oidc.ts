import {
  createRemoteJWKSet,
  customFetch,
  type FetchImplementation,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { ServiceError } from '../../errors.js';
import type { CiIdentityClaims, CiIdentityEvidence } from './identity.js';
import { BodyTooLargeError, readBounded } from '../../bounded-body.js';

/** An OpenID discovery document is a few KiB; anything past this is refused unread. */
const MAX_DISCOVERY_BYTES = 64 * 1024;
/** A JWKS of a few dozen keys is well under this. */
const MAX_JWKS_BYTES = 256 * 1024;

/**
 * Verifies the OpenID Connect ID token of a CI run (GitHub Actions' `id-token: write` token):
 * its issuer must be trusted (CI_OIDC_ISSUERS), its keys are found through OpenID discovery
 * (`<issuer>/.well-known/openid-configuration` -> `jwks_uri`), cached, and re-fetched when a token
 * names a key the cache lacks (rotation); signature (asymmetric algorithms only), audience,
 * expiry and not-before are checked with a small clock skew. An unreachable issuer is
 * `ci_identity_unavailable` (503); every other problem is an invalid token.
 */

export interface OidcOptions {
  issuers: readonly string[];
  /** Expected `aud`; undefined: no token can be accepted (the service has no audience). */
  audience: string | undefined;
  clockSkewSeconds: number;
  jwksCooldownMs?: number;
  timeoutMs?: number;
}

/** Tokens longer than this are refused unread (GitHub's are about 1.5 KiB). */
export const MAX_TOKEN_LENGTH = 16 * 1024;
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384'];
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

export class OidcVerifier {
  private readonly keys = new Map<string, { getKey: JWTVerifyGetKey; until: number }>();

  constructor(private readonly options: OidcOptions) {}

  async verify(token: string): Promise<CiIdentityEvidence> {
    const invalid = (reason: string): CiIdentityEvidence => ({ kind: 'oidc-invalid', reason });
    if (token.length > MAX_TOKEN_LENGTH)
      return invalid(`longer than ${MAX_TOKEN_LENGTH} characters`);
    let issuer: string;
    try {
      const header = decodeProtectedHeader(token);
      if (!ALGORITHMS.includes(String(header.alg)))
        return invalid(`algorithm ${String(header.alg)} is not accepted`);
      issuer = String(decodeJwt(token).iss ?? '');
    } catch {
      return invalid('not a signed JWT');
    }
    if (!this.options.issuers.includes(issuer))
      return invalid(`issuer ${JSON.stringify(issuer.slice(0, 200))} is not trusted`);
    if (!this.options.audience)
      return invalid(
        'the service has no CI_OIDC_AUDIENCE or PUBLIC_URL to check the audience against',
      );
    const getKey = await this.keySet(issuer);
    try {
      const { payload } = await jwtVerify(token, getKey, {
        issuer,
        audience: this.options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: this.options.clockSkewSeconds,
        requiredClaims: ['exp', 'iat', 'jti', 'repository', 'sha', 'event_name'],
      });
      return { kind: 'oidc-valid', claims: claimsOf(issuer, payload) };
    } catch (err) {
      if (err instanceof errors.JWKSTimeout || isFetchFailure(err)) throw unavailable(issuer, err);
      return invalid(reasonOf(err));
    }
  }

  /** The issuer's key set, from its discovery document (cached an hour). */
  private async keySet(issuer: string): Promise<JWTVerifyGetKey> {
    const cached = this.keys.get(issuer);
    if (cached && cached.until > Date.now()) return cached.getKey;
    const jwksUri = await this.discover(issuer);
    const getKey = createRemoteJWKSet(jwksUri, {
      timeoutDuration: this.options.timeoutMs ?? 5_000,
      cooldownDuration: this.options.jwksCooldownMs ?? 30_000,
      cacheMaxAge: 10 * 60_000,
      [customFetch]: boundedFetch(MAX_JWKS_BYTES),
    });
    this.keys.set(issuer, { getKey, until: Date.now() + DISCOVERY_TTL_MS });
    return getKey;
  }

  private async discover(issuer: string): Promise<URL> {
    let document: { jwks_uri?: unknown; issuer?: unknown };
    try {
      const res = await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, {
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const text = new TextDecoder().decode(await readBounded(res, MAX_DISCOVERY_BYTES));
      document = JSON.parse(text) as typeof document;
    } catch (err) {
      throw unavailable(issuer, err);
    }
    if (document.issuer !== issuer || typeof document.jwks_uri !== 'string') {
      throw unavailable(
        issuer,
        new Error('discovery document does not name this issuer and a jwks_uri'),
      );
    }
    const uri = new URL(document.jwks_uri);
    if (!allowedIssuerUrl(uri)) throw unavailable(issuer, new Error('jwks_uri is not https'));
    return uri;
  }
}

/** https, or http on a loopback host only (tests and local development). */
export function allowedIssuerUrl(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

function unavailable(issuer: string, cause: unknown): ServiceError {
  return new ServiceError(
    'ci_identity_unavailable',
    `the OIDC issuer ${issuer} could not be reached`,
    { cause },
  );
}

function isFetchFailure(err: unknown): boolean {
  return (
    err instanceof TypeError ||
    err instanceof BodyTooLargeError ||
    (err instanceof Error && err.name === 'TimeoutError')
  );
}

/** fetch whose answer body is read up to `limit` bytes (the JWKS jose asks for). */
function boundedFetch(limit: number): FetchImplementation {
  return async (url, options) => {
    const res = await fetch(url, options);
    const body = new TextDecoder().decode(await readBounded(res, limit));
    const type = res.headers.get('content-type');
    return new Response(body, {
      status: res.status,
      headers: type ? { 'content-type': type } : {},
    });
  };
}

function reasonOf(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'expired';
  if (err instanceof errors.JWTClaimValidationFailed)
    return `claim ${err.claim} ${err.reason === 'check_failed' ? 'does not match' : err.reason.replace('_', ' ')}`;
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'signature does not verify';
  if (err instanceof errors.JWKSNoMatchingKey)
    return 'signed with a key the issuer does not publish';
  if (err instanceof errors.JOSEAlgNotAllowed) return 'algorithm not accepted';
  if (err instanceof errors.JOSEError)
    return err.code.replace(/^ERR_/, '').toLowerCase().replaceAll('_', ' ');
  return 'could not be verified';
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

function claimsOf(issuer: string, p: JWTPayload): CiIdentityClaims {
  const optional = {
    run_id: text(p.run_id),
    run_attempt: text(p.run_attempt),
    workflow_ref: text(p.workflow_ref),
    job_workflow_ref: text(p.job_workflow_ref),
    ref: text(p.ref),
    repository_id: text(p.repository_id),
    repository_owner_id: text(p.repository_owner_id),
    runner_environment: text(p.runner_environment),
    jti: text(p.jti),
  };
  return {
    issuer,
    repository: text(p.repository) ?? '',
    sha: text(p.sha) ?? '',
    event_name: text(p.event_name) ?? '',
    ...(typeof p.exp === 'number' ? { exp: p.exp } : {}),
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}
