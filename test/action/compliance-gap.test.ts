import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CiVerificationRequest, CiVerificationResponse } from '../../src/contract/ci.js';
import { leaks, runAction, SHA, startStub, type Stub } from './harness.js';

/**
 * fail-on against a compliance_gap answer, from a local stub of the endpoint that checks the
 * request against the contract schema and answers a contract-valid compliance_gap response (the
 * real service's compliance_gap, a run without an OIDC token, is in receipt.test.ts).
 */

const KEY = `vrs_${'1'.repeat(32)}_${'B'.repeat(43)}`;
const RECEIPT_ID = '2f1b0c1e-4c36-4a8e-9d7a-3b1f5f2a9c10';
let stub: Stub;

beforeAll(async () => {
  stub = await startStub((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'not_found', message: 'the stub only issues' }));
      return;
    }
    const parsed = CiVerificationRequest.safeParse(JSON.parse(req.body));
    if (
      req.url !== '/api/v1/verifications/ci' ||
      req.headers['x-api-key'] !== KEY ||
      !parsed.success
    ) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'validation_failed', message: 'stub rejected the request' }));
      return;
    }
    const answer = CiVerificationResponse.parse({
      receiptId: RECEIPT_ID,
      checkRunStatus: 'completed',
      receiptStatus: 'compliance_gap',
      conclusion: 'neutral',
      title: 'Provenance needs review (FLAG)',
      summary: 'Decision: FLAG (status compliance_gap)\nReasons: something_to_review',
      verificationTimestamp: '2025-01-01T00:00:00.000Z',
      provenanceNote: 'anchor PENDING; signed receipt kid test',
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});
afterAll(async () => stub?.close());

describe.concurrent('compliance_gap receipt (stubbed endpoint)', () => {
  it.each([
    ['failure', 0],
    ['compliance_gap', 1],
    ['never', 0],
  ])('with fail-on %s exits %i', async (failOn, code) => {
    const run = await runAction({ 'api-url': stub.url, 'api-key': KEY, 'fail-on': failOn });
    expect(run.code, run.stderr).toBe(code);
    expect(run.outputs).toEqual({
      'receipt-id': RECEIPT_ID,
      'receipt-status': 'compliance_gap',
      conclusion: 'neutral',
      'receipt-url': `${stub.url}/api/v1/receipt/${RECEIPT_ID}`,
      // the stub serves no bundle or attestation: the step says so and leaves these empty
      'bundle-path': '',
      'attestation-path': '',
    });
    expect(run.stdout).toContain('the receipt bundle was not saved: HTTP 404');
    expect(run.summary).toContain('⚠️ Verification receipt: Provenance needs review (FLAG)');
    expect(run.summary).toContain('- Reasons: something_to_review');
    if (code === 1) expect(run.stderr).toContain('failing because fail-on is compliance_gap');
    else expect(run.stdout).toContain('::warning title=Verification receipt::');
    expect(leaks(run, KEY)).toEqual([]);
  });

  it('sends the §2.13 request built from the runner environment', async () => {
    const run = await runAction(
      { 'api-url': stub.url, 'api-key': KEY, 'subject-kind': 'release', summary: 'v1.2.3' },
      { GITHUB_SERVER_URL: 'https://ghe.example.com/', GITHUB_RUN_ATTEMPT: '3' },
    );
    expect(run.code, run.stderr).toBe(0);
    const sent = stub.requests.find((req) => req.body.includes(`/${run.runId}/3`));
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      externalId: `octo-org/widgets/${run.runId}/3`,
      headSha: SHA,
      subject: { kind: 'release', summary: 'v1.2.3' },
      repository: {
        fullName: 'octo-org/widgets',
        htmlUrl: 'https://ghe.example.com/octo-org/widgets',
      },
      provenance: { eventName: 'push' },
      detailsUrl: `https://ghe.example.com/octo-org/widgets/actions/runs/${run.runId}`,
    });
  });

  it('details-url and external-id inputs override the defaults', async () => {
    const run = await runAction({
      'api-url': stub.url,
      'api-key': KEY,
      'details-url': 'https://ci.example.com/build/42',
      'external-id': 'octo-org/widgets/matrix-linux',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(
      JSON.parse(
        stub.requests.find((req) => req.body.includes('ci.example.com/build/42'))?.body ?? '',
      ),
    ).toMatchObject({
      externalId: 'octo-org/widgets/matrix-linux',
      detailsUrl: 'https://ci.example.com/build/42',
    });
  });
});
