import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preAuthEncoding } from '@verification-receipts/verify';
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
import { registerIssuer, revokeVia } from '../helpers/revocation.js';

/**
 * `receipt-verify` on a receipt's attestation (GET /api/v1/receipt/{id}/attestation) beside its
 * bundle: real CI receipts issued with a run's OIDC token, downloaded, checked against the pinned
 * JWKS with every CI option matching and not matching; tampered envelopes, unknown hints, wrong
 * types and a FAILED summary named by step and exit code.
 */

const AUDIENCE = 'https://receipts.test';
const WORKFLOW = '.github/workflows/release.yml';
let issuer: TestIssuer;
let ctx: TestContext;
let key: string;
let jwks: string;
let baseUrl: string;
const dir = tempDir('receipts-attestation-');
const revoker = ed25519Pem();

interface Attestation {
  mediaType: string;
  verificationMaterial: { publicKey: { hint: string } };
  dsseEnvelope: {
    payload: string;
    payloadType: string;
    signatures: { sig: string; keyid: string }[];
  };
}

interface Issued {
  id: string;
  repo: string;
  sha: string;
  profile: string;
  bundle: string;
  attestation: string;
  envelope: Attestation;
}

beforeAll(async () => {
  issuer = await startIssuer(AUDIENCE);
  ctx = await createTestContext({
    CI_OIDC_ISSUERS: issuer.url,
    CI_OIDC_AUDIENCE: AUDIENCE,
    CI_OIDC_JWKS_COOLDOWN_MS: '0',
  });
  key = await ctx.apiKey(['verify', 'read', 'revoke']);
  await ctx.repos.tenantPolicies.setCiRepositories('tenant-a', ['acme/*']);
  await registerIssuer(ctx.repos, revoker);
  baseUrl = await listenLocally(ctx.app);
  jwks = write('jwks.json', (await ctx.app.inject({ url: '/.well-known/jwks.json' })).body);
});
afterAll(async () => {
  await ctx.close();
  await issuer.close();
});

function write(name: string, data: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}

async function download(url: string): Promise<string> {
  const res = await ctx.app.inject({ url, headers: { 'x-api-key': key } });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** A CI receipt of a push run of acme/widgets (BLOCK for pull_request_target), with its files. */
async function issueCi(event = 'push'): Promise<Issued> {
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
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/verifications/ci',
    headers: { 'x-api-key': key, 'x-ci-oidc-token': token },
    payload: bodyOf(request),
  });
  expect(res.statusCode).toBe(200);
  const id = res.json<{ receiptId: string }>().receiptId;
  const bundle = await download(`/api/v1/receipt/${id}/bundle`);
  const attestation = await download(`/api/v1/receipt/${id}/attestation`);
  const profile = JSON.parse(bundle).receipt.policyProfile as string;
  return {
    id,
    repo,
    sha: request.headSha,
    profile,
    bundle: write(`${id}.bundle.json`, bundle),
    attestation: write(`${id}.attestation.json`, attestation),
    envelope: JSON.parse(attestation) as Attestation,
  };
}

const verify = (...argv: string[]) => runCaptured(['verify', ...argv]);

/** The attestation with its statement replaced and signed again by the service's own key. */
function resigned(
  issued: Issued,
  edit: (statement: Record<string, unknown>) => unknown,
  name: string,
) {
  const statement = JSON.parse(
    Buffer.from(issued.envelope.dsseEnvelope.payload, 'base64').toString(),
  );
  const edited = edit(statement);
  const payload = Buffer.from(typeof edited === 'string' ? edited : JSON.stringify(edited));
  return rewrite(issued, name, (a) => {
    a.dsseEnvelope.payload = payload.toString('base64');
    const pae = preAuthEncoding(a.dsseEnvelope.payloadType, payload);
    a.dsseEnvelope.signatures[0]!.sig = Buffer.from(ctx.app.services.signer!.sign(pae)).toString(
      'base64',
    );
  });
}

function rewrite(issued: Issued, name: string, edit: (a: Attestation) => void): string {
  const copy = structuredClone(issued.envelope);
  edit(copy);
  return write(name, JSON.stringify(copy));
}

let clean: Issued;
beforeAll(async () => {
  clean = await issueCi();
});

describe('receipt-verify on an attestation', () => {
  it('a real attestation verifies against the pinned JWKS and names each step', async () => {
    const { code, out } = await verify(clean.attestation, '--jwks', jwks);
    expect(code, out).toBe(0);
    for (const id of [
      'format',
      'dsse-payload-type',
      'key-trust',
      'dsse-signature',
      'statement',
      'vsa-subject',
    ])
      expect(out).toMatch(new RegExp(`PASS  ${id} `));
    expect(out).toContain(`attestation of receipt sha256:`);
    expect(out).toContain('verification result PASSED');
    const json = JSON.parse((await verify(clean.attestation, '--jwks', jwks, '--json')).out);
    expect(json).toMatchObject({
      exitCode: 0,
      authentic: true,
      attestation: { repository: clean.repo, sha: clean.sha },
    });
  });

  it('no trust root, or only --insecure-ignore-trust: not verified, as for a receipt', async () => {
    const receipt = await verify(clean.bundle);
    const attestation = await verify(clean.attestation);
    expect(attestation.code).toBe(receipt.code);
    const insecure = await verify(clean.attestation, '--insecure-ignore-trust');
    expect(insecure.code).toBe(1);
    expect(insecure.out).toContain('FAIL  key-trust');
  });

  it('a key the hint does not name, an edited payload or signature, or another payload type: exit 1 at that step', async () => {
    const other = write(
      'other-jwks.json',
      JSON.stringify({ keys: [JSON.parse(fs.readFileSync(jwks, 'utf8')).keys[0]] }),
    );
    const cases: [string, string][] = [
      [
        rewrite(clean, 'hint.json', (a) => {
          a.verificationMaterial.publicKey.hint = 'x'.repeat(43);
        }),
        'key-trust',
      ],
      [
        rewrite(clean, 'payload.json', (a) => {
          const bytes = Buffer.from(a.dsseEnvelope.payload, 'base64');
          bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 1;
          a.dsseEnvelope.payload = bytes.toString('base64');
        }),
        'dsse-signature',
      ],
      [
        rewrite(clean, 'sig.json', (a) => {
          const sig = Buffer.from(a.dsseEnvelope.signatures[0]!.sig, 'base64');
          sig[0] = sig[0]! ^ 1;
          a.dsseEnvelope.signatures[0]!.sig = sig.toString('base64');
        }),
        'dsse-signature',
      ],
      [
        rewrite(clean, 'several.json', (a) => {
          const sig = Buffer.from(a.dsseEnvelope.signatures[0]!.sig, 'base64');
          sig[5] = sig[5]! ^ 1;
          const bad = { sig: sig.toString('base64'), keyid: a.verificationMaterial.publicKey.hint };
          a.dsseEnvelope.signatures = [bad, { ...bad, sig: Buffer.alloc(64).toString('base64') }];
        }),
        'dsse-signature',
      ],
      [
        rewrite(clean, 'type.json', (a) => {
          a.dsseEnvelope.payloadType = 'application/json';
        }),
        'dsse-payload-type',
      ],
      [
        resigned(clean, (s) => ({ ...s, _type: 'https://in-toto.io/Statement/v0.1' }), 'stmt.json'),
        'statement',
      ],
      [
        resigned(
          clean,
          (s) => ({ ...s, predicateType: 'https://slsa.dev/provenance/v1' }),
          'pred.json',
        ),
        'statement',
      ],
      [resigned(clean, () => '{"_type": ', 'json.json'), 'statement'],
      [
        resigned(
          clean,
          (s) => ({ ...s, subject: [{ name: 'x', digest: { gitCommit: '0'.repeat(40) } }] }),
          'subj.json',
        ),
        'vsa-subject',
      ],
    ];
    for (const [file, id] of cases) {
      const { code, out } = await verify(file, '--jwks', jwks);
      expect(code, `${file}\n${out}`).toBe(1);
      expect(out).toContain(`NOT VERIFIED: the ${id} step failed`);
    }
    // the one key the hint names is pinned: the re-signed statement (the service's key) passes
    expect(
      (
        await verify(
          resigned(clean, (s) => s, 'same.json'),
          '--jwks',
          other,
        )
      ).code,
    ).toBe(0);
    const unreadable = await verify(
      write('cut.json', fs.readFileSync(clean.attestation, 'utf8').slice(0, 50)),
      '--jwks',
      jwks,
    );
    expect(unreadable.code).toBe(2);
  });

  it('every CI option matching: exit 0 on the bundle and the attestation', async () => {
    const ci = ['--repo', clean.repo, '--sha', clean.sha, '--profile', clean.profile];
    expect(
      (
        await verify(
          clean.bundle,
          '--jwks',
          jwks,
          ...ci,
          '--signer-workflow',
          WORKFLOW,
          '--deny-self-hosted-runners',
        )
      ).code,
    ).toBe(0);
    const { code, out } = await verify(clean.attestation, '--jwks', jwks, ...ci);
    expect(code, out).toBe(0);
    expect(out).toContain('PASS  ci-policy');
  });

  it('each CI option not matching: exit 3 with the named failure, on both', async () => {
    const wrong: [string[], string][] = [
      [['--repo', 'acme/gadgets'], `repository is ${clean.repo}, not acme/gadgets`],
      [['--sha', 'f'.repeat(40)], `commit is ${clean.sha}, not ${'f'.repeat(40)}`],
      [['--profile', 'ci-other-v9'], `policy profile is ${clean.profile}, not ci-other-v9`],
    ];
    for (const [args, failure] of wrong) {
      for (const file of [clean.bundle, clean.attestation]) {
        const { code, out } = await verify(file, '--jwks', jwks, ...args);
        expect(code, out).toBe(3);
        expect(out).toContain(`FAIL  ci-policy        ${failure}`);
      }
    }
    const other = await verify(
      clean.bundle,
      '--jwks',
      jwks,
      '--signer-workflow',
      '.github/workflows/other.yml',
    );
    expect(other.code).toBe(3);
    expect(other.out).toContain(`signer workflow is ${WORKFLOW}, not .github/workflows/other.yml`);
  });

  it('--signer-workflow and --deny-self-hosted-runners on an attestation: exit 3, not proven by it', async () => {
    for (const args of [['--signer-workflow', WORKFLOW], ['--deny-self-hosted-runners']]) {
      const { code, out } = await verify(clean.attestation, '--jwks', jwks, ...args);
      expect(code, out).toBe(3);
      expect(out).toContain('the attestation does not prove it: verify the receipt bundle or PDF');
    }
  });

  it('a FAILED summary (BLOCK receipt): authentic, exit 3', async () => {
    const blocked = await issueCi('pull_request_target');
    const { code, out } = await verify(blocked.attestation, '--jwks', jwks);
    expect(code, out).toBe(3);
    expect(out).toContain('AUTHENTIC, VERIFICATION FAILED');
  });

  it('--online: the receipt named by the attestation is checked for revocation', async () => {
    const issued = await issueCi();
    const active = await verify(issued.attestation, '--online', baseUrl);
    expect(active.code, active.out).toBe(0);
    expect(active.out).toContain('PASS  status ');
    expect((await revokeVia(ctx.app, key, issued.id, revoker)).statusCode).toBe(200);
    const revoked = await verify(issued.attestation, '--online', baseUrl);
    expect(revoked.code, revoked.out).toBe(3);
    expect(revoked.out).toContain('AUTHENTIC BUT REVOKED');
  });
});
