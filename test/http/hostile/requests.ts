import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { CiVerificationRequest } from '../../../src/contract/ci.js';
import type { HostileApp } from './app.js';

type Method = 'GET' | 'POST' | 'DELETE';
export interface Endpoint {
  name: string;
  method: Method;
  /** The route as Fastify registers it (checked against the app in route-coverage.test.ts). */
  route: string;
  path: (id: string) => string;
  /** Needs the issuer headers (revoke). */
  issuer?: true;
  /** Left out of the OpenAPI document, for this reason. */
  undocumented?: string;
}

/** A receipt hash no receipt has: the public status answers 404 for it. */
export const UNKNOWN_HASH = `sha256:${'0'.repeat(64)}`;

/** Every endpoint a client can call: /api/v1 and the public ones. */
export const ENDPOINTS: Endpoint[] = [
  { name: 'verify', method: 'POST', route: '/api/v1/verify', path: () => '/api/v1/verify' },
  {
    name: 'receipt',
    method: 'GET',
    route: '/api/v1/receipt/:receiptId',
    path: (id) => `/api/v1/receipt/${id}`,
  },
  {
    name: 'pdf',
    method: 'GET',
    route: '/api/v1/receipt/:receiptId/pdf',
    path: (id) => `/api/v1/receipt/${id}/pdf`,
  },
  {
    name: 'bundle',
    method: 'GET',
    route: '/api/v1/receipt/:receiptId/bundle',
    path: (id) => `/api/v1/receipt/${id}/bundle`,
  },
  {
    name: 'tlog-proof',
    method: 'GET',
    route: '/api/v1/receipt/:receiptId/tlog-proof',
    path: (id) => `/api/v1/receipt/${id}/tlog-proof`,
  },
  {
    name: 'attestation',
    method: 'GET',
    route: '/api/v1/receipt/:receiptId/attestation',
    path: (id) => `/api/v1/receipt/${id}/attestation`,
  },
  {
    name: 're-verify',
    method: 'POST',
    route: '/api/v1/receipt/:receiptId/verify',
    path: (id) => `/api/v1/receipt/${id}/verify`,
  },
  {
    name: 'revoke',
    method: 'POST',
    route: '/api/v1/receipt/:receiptId/revoke',
    path: (id) => `/api/v1/receipt/${id}/revoke`,
    issuer: true,
  },
  {
    name: 'anchor',
    method: 'POST',
    route: '/api/v1/anchor/:receiptId',
    path: (id) => `/api/v1/anchor/${id}`,
  },
  { name: 'list', method: 'GET', route: '/api/v1/receipts', path: () => '/api/v1/receipts' },
  {
    name: 'repository-policy-check',
    method: 'POST',
    route: '/api/v1/repository-policy/check',
    path: () => '/api/v1/repository-policy/check',
  },
  {
    name: 'deployments',
    method: 'GET',
    route: '/api/v1/deployments',
    path: () => '/api/v1/deployments?repository=octo-org/octo-repo',
  },
  { name: 'webhooks', method: 'GET', route: '/api/v1/webhooks', path: () => '/api/v1/webhooks' },
  {
    name: 'webhook-subscribe',
    method: 'POST',
    route: '/api/v1/webhooks',
    path: () => '/api/v1/webhooks',
  },
  {
    name: 'webhook',
    method: 'GET',
    route: '/api/v1/webhooks/:id',
    path: (id) => `/api/v1/webhooks/${id}`,
  },
  {
    name: 'webhook-delete',
    method: 'DELETE',
    route: '/api/v1/webhooks/:id',
    path: (id) => `/api/v1/webhooks/${id}`,
  },
  {
    name: 'webhook-deliveries',
    method: 'GET',
    route: '/api/v1/webhooks/:id/deliveries',
    path: (id) => `/api/v1/webhooks/${id}/deliveries`,
  },
  {
    name: 'webhook-redeliver',
    method: 'POST',
    route: '/api/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    path: (id) => `/api/v1/webhooks/${id}/deliveries/${id}/redeliver`,
  },
  {
    name: 'webhook-test',
    method: 'POST',
    route: '/api/v1/webhooks/:id/test',
    path: (id) => `/api/v1/webhooks/${id}/test`,
  },
  {
    name: 'ci',
    method: 'POST',
    route: '/api/v1/verifications/ci',
    path: () => '/api/v1/verifications/ci',
  },
  {
    name: 'consistency',
    method: 'GET',
    route: '/api/v1/log/consistency',
    path: () => '/api/v1/log/consistency?from=1&to=1',
  },
  {
    name: 'checkpoint',
    method: 'GET',
    route: '/api/v1/log/checkpoint',
    path: () => '/api/v1/log/checkpoint',
  },
  {
    name: 'status',
    method: 'GET',
    route: '/status/:receiptHash',
    path: () => `/status/${UNKNOWN_HASH}`,
  },
  {
    name: 'jwks',
    method: 'GET',
    route: '/.well-known/jwks.json',
    path: () => '/.well-known/jwks.json',
  },
  {
    name: 'webhook-jwks',
    method: 'GET',
    route: '/.well-known/webhook-jwks.json',
    path: () => '/.well-known/webhook-jwks.json',
  },
  {
    name: 'bundle-schema',
    method: 'GET',
    route: '/schemas/receipt-bundle.v1.json',
    path: () => '/schemas/receipt-bundle.v1.json',
  },
  { name: 'policies', method: 'GET', route: '/policies', path: () => '/policies' },
  {
    name: 'policy',
    method: 'GET',
    route: '/policies/:profile',
    path: (id) => `/policies/${id}`,
  },
  {
    name: 'log-checkpoint',
    method: 'GET',
    route: '/log/checkpoint',
    path: () => '/log/checkpoint',
  },
  { name: 'log-vkey', method: 'GET', route: '/log/vkey', path: () => '/log/vkey' },
  { name: 'log-policy', method: 'GET', route: '/log/policy', path: () => '/log/policy' },
  {
    name: 'log-timestamps',
    method: 'GET',
    route: '/log/timestamps/:treeSize',
    path: (id) => `/log/timestamps/${id}`,
  },
  {
    name: 'pdf-signing-cert',
    method: 'GET',
    route: '/.well-known/pdf-signing-cert.pem',
    path: () => '/.well-known/pdf-signing-cert.pem',
  },
  {
    name: 'log-tile',
    method: 'GET',
    route: '/log/tile/*',
    path: (id) => `/log/tile/0/${id}`,
    undocumented: 'tile paths have a variable number of elements (c2sp.org/tlog-tiles)',
  },
  { name: 'healthz', method: 'GET', route: '/healthz', path: () => '/healthz' },
  { name: 'readyz', method: 'GET', route: '/readyz', path: () => '/readyz' },
];
export const POST_ENDPOINTS = ENDPOINTS.filter((e) => e.method === 'POST');
/** The endpoints behind an API key (the others are public). */
export const KEYED_ENDPOINTS = ENDPOINTS.filter((e) => e.route.startsWith('/api/v1/'));
export const ID_ENDPOINTS = ENDPOINTS.filter((e) => e.path('ID').includes('ID'));
export const endpointNamed = (name: string) => ENDPOINTS.find((e) => e.name === name) as Endpoint;

/** A valid CI verification request, with a fresh externalId. */
export function ciRequest(): CiVerificationRequest {
  return {
    externalId: `run-${randomBytes(6).toString('hex')}`,
    headSha: 'a'.repeat(40),
    subject: { kind: 'workflow_run', summary: 'build and test' },
    repository: { fullName: 'acme/widgets', htmlUrl: 'https://github.com/acme/widgets' },
    provenance: { eventName: 'push' },
  };
}

import { issuerHeaders } from '../../helpers/revocation.js';

export { issuerHeaders };

export interface Send {
  endpoint: Endpoint;
  id?: string;
  /** Raw body text (sent as is). */
  payload?: string;
  headers?: Record<string, string>;
  app?: FastifyInstance;
}

/** One request with the all-scopes key (and issuer headers for revoke), to `s.app` or the app. */
export async function send(h: HostileApp, s: Send): Promise<LightMyRequestResponse> {
  const options: InjectOptions = {
    method: s.endpoint.method,
    url: s.endpoint.path(s.id ?? h.receiptId),
    headers: {
      'x-api-key': h.key,
      ...(s.payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(s.endpoint.issuer ? issuerHeaders(h.issuerPem, s.id ?? h.receiptId) : {}),
      ...s.headers,
    },
    ...(s.payload !== undefined && s.endpoint.method === 'POST' ? { payload: s.payload } : {}),
  };
  return (s.app ?? h.ctx.app).inject(options);
}

/** Every path of a JSON document, leaves and containers alike. */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const children: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : value !== null && typeof value === 'object'
      ? Object.entries(value)
      : [];
  return children.flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

/** The value at `path` in `doc`. */
export function valueAt(doc: unknown, path: (string | number)[]): unknown {
  let node: unknown = doc;
  for (const step of path) node = (node as Record<string | number, unknown>)[step];
  return node;
}

/** A copy of `doc` with the value at `path` replaced (or removed when `value` is undefined). */
export function setPath(doc: unknown, path: (string | number)[], value: unknown): unknown {
  const copy: unknown = structuredClone(doc);
  let node = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}
