import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { bodyOf, runRequest } from '../helpers/ci-run.js';
import { runCaptured } from '../helpers/cli.js';
import {
  createTestContext,
  ed25519Pem,
  listenLocally,
  tempDir,
  type TestContext,
} from '../helpers/context.js';
import { startIssuer, type TestIssuer } from '../helpers/oidc-issuer.js';
import { registerIssuer } from '../helpers/revocation.js';

export const WORKFLOW = '.github/workflows/release.yml';
const AUDIENCE = 'https://receipts.test';

export interface Attestation {
  mediaType: string;
  verificationMaterial: { publicKey: { hint: string } };
  dsseEnvelope: {
    payload: string;
    payloadType: string;
    signatures: { sig: string; keyid: string }[];
  };
}

/** A CI receipt with its bundle and attestation, downloaded to files. */
export interface Issued {
  id: string;
  repo: string;
  sha: string;
  profile: string;
  bundle: string;
  attestation: string;
  envelope: Attestation;
}

export interface AttestationSuite {
  ctx: TestContext;
  /** An API key with verify, read and revoke. */
  key: string;
  /** The service's JWKS, as a file. */
  jwks: string;
  baseUrl: string;
  /** A registered revocation issuer's key (for `revokeVia`). */
  revoker: string;
  /** A CI receipt of a push run, issued once per file. */
  clean: Issued;
  /** Writes a file into the suite's temporary directory; its path. */
  write(name: string, data: string): string;
  /** A CI receipt of a push run of acme/widgets (BLOCK for pull_request_target), with its files. */
  issueCi(event?: string): Promise<Issued>;
}

export const verify = (...argv: string[]) => runCaptured(['verify', ...argv]);

/**
 * One app per test file trusting a local OIDC issuer, acme/* allowed for CI receipts, a
 * registered revocation issuer, listening locally, and one clean CI receipt.
 */
export function attestationSuite(): AttestationSuite {
  const dir = tempDir('receipts-attestation-');
  let issuer: TestIssuer;
  const suite = {
    revoker: ed25519Pem(),
    write(name: string, data: string): string {
      const file = path.join(dir, name);
      fs.writeFileSync(file, data);
      return file;
    },
    issueCi: (event = 'push') => issueCi(suite, issuer, event),
  } as AttestationSuite;
  beforeAll(async () => {
    issuer = await startIssuer(AUDIENCE);
    suite.ctx = await createTestContext({
      CI_OIDC_ISSUERS: issuer.url,
      CI_OIDC_AUDIENCE: AUDIENCE,
      CI_OIDC_JWKS_COOLDOWN_MS: '0',
    });
    suite.key = await suite.ctx.apiKey(['verify', 'read', 'revoke']);
    await suite.ctx.repos.tenantPolicies.setCiRepositories('tenant-a', ['acme/*']);
    await registerIssuer(suite.ctx.repos, suite.revoker);
    suite.baseUrl = await listenLocally(suite.ctx.app);
    const jwks = await suite.ctx.app.inject({ url: '/.well-known/jwks.json' });
    suite.jwks = suite.write('jwks.json', jwks.body);
    suite.clean = await suite.issueCi();
  });
  afterAll(async () => {
    await suite.ctx.close();
    await issuer.close();
  });
  return suite;
}

async function download(suite: AttestationSuite, url: string): Promise<string> {
  const res = await suite.ctx.app.inject({ url, headers: { 'x-api-key': suite.key } });
  expect(res.statusCode).toBe(200);
  return res.body;
}

async function issueCi(suite: AttestationSuite, issuer: TestIssuer, event: string) {
  const request = runRequest('acme/widgets');
  request.headSha = Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex');
  request.provenance.eventName = event;
  const repo = request.repository.fullName;
  const token = await issuer.sign({
    repository: repo,
    sha: request.headSha,
    event_name: event,
    run_id: request.runId,
    run_attempt: '1',
    workflow_ref: `${repo}/${WORKFLOW}@refs/heads/main`,
    job_workflow_ref: `${repo}/${WORKFLOW}@refs/heads/main`,
    ref: 'refs/heads/main',
    repository_id: '123',
    repository_owner_id: '456',
    runner_environment: 'github-hosted',
  });
  const res = await suite.ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: { 'x-api-key': suite.key, 'x-ci-oidc-token': token },
    payload: bodyOf(request),
  });
  expect(res.statusCode).toBe(200);
  const id = res.json<{ receiptId: string }>().receiptId;
  const bundle = await download(suite, `/api/v1/receipt/${id}/bundle`);
  const attestation = await download(suite, `/api/v1/receipt/${id}/attestation`);
  return {
    id,
    repo,
    sha: request.headSha,
    profile: JSON.parse(bundle).receipt.policyProfile as string,
    bundle: suite.write(`${id}.bundle.json`, bundle),
    attestation: suite.write(`${id}.attestation.json`, attestation),
    envelope: JSON.parse(attestation) as Attestation,
  } satisfies Issued;
}
