import nock from 'nock';
import { describe, expect, it, vi } from 'vitest';
import { createTestContext } from '../helpers/context.js';
import { workflowRunPayload } from './fixtures.js';
import { deliver, github, sign } from './helpers.js';
import { githubSuite } from './suite.js';

const suite = githubSuite();

describe('POST /api/github/webhooks', () => {
  it('rejects a bad signature with 401 before any handler or GitHub call', async () => {
    const issueCi = vi.spyOn(suite.ctx.app.services.receipts, 'issueCi');
    const payload = workflowRunPayload(suite.installationId, 'completed', { event: 'push' });
    const res = await deliver(suite.ctx.app, 'workflow_run', payload, { secret: 'not-the-secret' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: 'unauthorized',
      message: 'x-hub-signature-256 does not match the payload',
    });
    expect(issueCi).not.toHaveBeenCalled();
  });

  it('rejects a missing signature with 401', async () => {
    const payload = workflowRunPayload(suite.installationId, 'completed');
    const res = await deliver(suite.ctx.app, 'workflow_run', payload, {
      headers: { 'x-hub-signature-256': undefined },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('verifies the exact bytes: re-serialised JSON no longer matches', async () => {
    const payload = workflowRunPayload(suite.installationId, 'completed');
    const pretty = JSON.stringify(payload, null, 2);
    const res = await suite.ctx.app.inject({
      method: 'POST',
      url: '/api/github/webhooks',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'workflow_run',
        'x-github-delivery': 'd-1',
        'x-hub-signature-256': sign(JSON.stringify(payload)),
      },
      payload: pretty,
    });
    expect(res.statusCode).toBe(401);
  });

  it.each(['x-github-event', 'x-github-delivery'])('answers 400 without %s', async (name) => {
    const payload = workflowRunPayload(suite.installationId, 'completed');
    const res = await deliver(suite.ctx.app, 'workflow_run', payload, {
      headers: { [name]: undefined },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', details: { headers: [name] } });
  });

  it('answers 400 to a signed body that is not JSON', async () => {
    const res = await deliver(suite.ctx.app, 'workflow_run', '{"action": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed' });
  });

  it('accepts events it has no handler for (ping) without calling GitHub', async () => {
    const res = await deliver(suite.ctx.app, 'ping', { zen: 'Keep it logically awesome.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('a handler failure (GitHub down) is a masked 500: no stack, no upstream detail', async () => {
    // Twice: reading .github/receipts.yml fails first (that alone would fail the check run
    // closed), then writing the check run needs a token again and cannot get one.
    github()
      .post(`/app/installations/${suite.installationId}/access_tokens`)
      .times(2)
      .reply(500, { message: 'upstream exploded at /srv/secret/path.js:12' });
    const payload = workflowRunPayload(suite.installationId, 'completed', { event: 'push' });
    const res = await deliver(suite.ctx.app, 'workflow_run', payload);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal_error', message: 'internal error' });
    expect(res.body).not.toMatch(/exploded|secret|at .*\.js/);
  });

  it('leaves the API routes on the normal JSON parser', async () => {
    const res = await suite.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/verifications/ci',
      headers: {
        'content-type': 'application/json',
        'x-api-key': await suite.ctx.apiKey(['verify'], suite.tenant),
      },
      payload: {
        externalId: 'api-1',
        headSha: 'a'.repeat(40),
        subject: { kind: 'workflow_run', summary: 'via the API' },
        repository: { fullName: 'octo-org/octo-repo' },
        provenance: { eventName: 'push' },
      },
    });
    expect(res.statusCode).toBe(200);
    // parsed as JSON and issued; without an OIDC token the identity is unverified (neutral)
    expect(res.json()).toMatchObject({ conclusion: 'neutral' });
  });
});

describe('without APP_ID / PRIVATE_KEY / WEBHOOK_SECRET', () => {
  it('the app is disabled: the webhook route does not exist, the API runs', async () => {
    const ctx = await createTestContext({ PUBLIC_URL: 'https://receipts.example.test' });
    try {
      expect(ctx.config.github).toBeUndefined();
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/github/webhooks',
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(res.statusCode).toBe(404);
      expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
    expect(nock.isDone()).toBe(true);
  });
});
