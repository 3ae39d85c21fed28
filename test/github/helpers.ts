import { createHmac, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import nock from 'nock';
import { APP_ID, type WorkflowRunPayload } from './fixtures.js';

export const WEBHOOK_SECRET = 'test-webhook-secret';
export const PUBLIC_URL = 'https://receipts.example.test';
export const GITHUB_API = 'https://api.github.com';
export const TOKEN = 'ghs_installation_token_for_tests';

/** A fresh RSA key for the app's JWTs (PKCS#1 PEM, as GitHub hands them out). */
export function appPrivateKey(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs1', format: 'pem' })
    .toString();
}

export function githubEnv(): Record<string, string> {
  return {
    APP_ID: String(APP_ID),
    PRIVATE_KEY: appPrivateKey(),
    WEBHOOK_SECRET,
    PUBLIC_URL,
  };
}

export function sign(body: string, secret = WEBHOOK_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** POST a webhook delivery to the real route, signed over the exact body string. */
export async function deliver(
  app: FastifyInstance,
  event: string,
  payload: unknown,
  options: { secret?: string; headers?: Record<string, string | undefined> } = {},
) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-github-event': event,
    'x-github-delivery': randomUUID(),
    'x-hub-signature-256': sign(body, options.secret),
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return app.inject({ method: 'POST', url: '/api/github/webhooks', headers, payload: body });
}

/** Every GitHub request not matched by an interceptor, collected for the afterEach check. */
export const unmatched: string[] = [];
nock.emitter.on('no match', (req: { method?: string; path?: string; href?: string }) => {
  unmatched.push(`${req.method ?? '?'} ${req.href ?? req.path ?? '?'}`);
});

export function github(): nock.Scope {
  return nock(GITHUB_API);
}

/** The installation token exchange (app JWT in, installation token out). */
export function nockToken(installationId: number): nock.Scope {
  return github()
    .post(`/app/installations/${installationId}/access_tokens`)
    .matchHeader('authorization', /^bearer ey/i)
    .reply(201, {
      token: TOKEN,
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      permissions: { checks: 'write', actions: 'read', contents: 'read', metadata: 'read' },
      repository_selection: 'all',
    });
}

function authed(): nock.Scope {
  return nock(GITHUB_API, { reqheaders: { authorization: `token ${TOKEN}` } });
}

/** `.github/receipts.yml`: the file (raw media type), or 404 in the repo and the owner's `.github`. */
export function nockRepoConfig(owner: string, repo: string, yaml: string | null): void {
  const path = (r: string) => `/repos/${owner}/${r}/contents/.github%2Freceipts.yml`;
  if (yaml === null) {
    authed().get(path(repo)).reply(404, { message: 'Not Found' });
    authed().get(path('.github')).reply(404, { message: 'Not Found' });
  } else {
    authed()
      .get(path(repo))
      .reply(200, yaml, { 'content-type': 'application/vnd.github.raw; charset=utf-8' });
  }
}

export interface ExistingCheckRun {
  id: number;
  external_id: string;
  status: string;
}

/** The lookup of this app's check runs with that name on the commit. */
export function nockListCheckRuns(
  owner: string,
  repo: string,
  sha: string,
  name: string,
  checkRuns: ExistingCheckRun[] = [],
): void {
  authed()
    .get(`/repos/${owner}/${repo}/commits/${sha}/check-runs`)
    .query({ check_name: name, app_id: String(APP_ID), filter: 'all', per_page: '100' })
    .reply(200, { total_count: checkRuns.length, check_runs: checkRuns });
}

export type CheckRunBody = {
  name?: string;
  head_sha?: string;
  external_id?: string;
  status: string;
  conclusion?: string;
  details_url?: string;
  output: { title: string; summary: string };
};

/** POST (create) or PATCH (update) of a check run; the request body lands in `bodies`. */
export function nockCheckRunWrite(
  owner: string,
  repo: string,
  write: { create: true; id?: number } | { update: number },
): CheckRunBody[] {
  const bodies: CheckRunBody[] = [];
  const capture = (body: CheckRunBody) => {
    bodies.push(body);
    return true;
  };
  if ('update' in write) {
    authed()
      .patch(`/repos/${owner}/${repo}/check-runs/${write.update}`, capture)
      .reply(200, { id: write.update });
  } else {
    authed()
      .post(`/repos/${owner}/${repo}/check-runs`, capture)
      .reply(201, { id: write.id ?? 9001 });
  }
  return bodies;
}

/** Where a workflow run's check run lives, and the externalId the app gives it. */
export function runCoords(payload: WorkflowRunPayload) {
  const run = payload.workflow_run;
  return {
    owner: payload.repository.owner.login,
    repo: payload.repository.name,
    sha: run.head_sha,
    name: `Verification receipt: ${run.name || run.path.split('/').pop()}`,
    externalId: `${payload.repository.full_name}/actions/runs/${run.id}/attempts/${run.run_attempt}`,
  };
}

/** Token, the config file (default: none), check-run lookup (none) and the POST creating one. */
export function nockNewCheckRun(
  installationId: number,
  payload: WorkflowRunPayload,
  options: { config?: string | null; checkRunId?: number } = {},
): CheckRunBody[] {
  const c = runCoords(payload);
  nockToken(installationId);
  nockRepoConfig(c.owner, c.repo, options.config ?? null);
  nockListCheckRuns(c.owner, c.repo, c.sha, c.name);
  return nockCheckRunWrite(c.owner, c.repo, { create: true, id: options.checkRunId });
}
