import { describe, expect, it } from 'vitest';
import { revokeVia } from '../helpers/revocation.js';
import { attestationSuite, verify, WORKFLOW } from './attestation-suite.js';

/**
 * `receipt-verify` on a receipt's attestation beside its bundle, the CI options: real CI
 * receipts issued with a run's OIDC token, checked with every CI option matching and not
 * matching, a FAILED summary, and revocation looked up online.
 */

const suite = attestationSuite();

describe('receipt-verify on an attestation: CI options', () => {
  it('every CI option matching: exit 0 on the bundle and the attestation', async () => {
    const ci = [
      '--repo',
      suite.clean.repo,
      '--sha',
      suite.clean.sha,
      '--profile',
      suite.clean.profile,
    ];
    expect(
      (
        await verify(
          suite.clean.bundle,
          '--jwks',
          suite.jwks,
          ...ci,
          '--signer-workflow',
          WORKFLOW,
          '--deny-self-hosted-runners',
          '--offline',
        )
      ).code,
    ).toBe(0);
    const { code, out } = await verify(
      suite.clean.attestation,
      '--jwks',
      suite.jwks,
      ...ci,
      '--offline',
    );
    expect(code, out).toBe(0);
    expect(out).toContain('PASS  ci-policy');
    expect(out).toMatch(
      /^VERIFIED OFFLINE: genuine attestation, PASSED: .*\n {2}authentic attestation, PASSED/m,
    );
    // its receipt's status unknown and not accepted: caution, exit 3
    const unknown = await verify(suite.clean.attestation, '--jwks', suite.jwks, ...ci);
    expect(unknown.code, unknown.out).toBe(3);
    expect(unknown.out).toMatch(
      /^CAUTION: the attestation is genuine .*\n {2}authentic attestation, PASSED .*not checked/m,
    );
  });

  it('each CI option not matching: exit 3 with the named failure, on both', async () => {
    const wrong: [string[], string][] = [
      [['--repo', 'acme/gadgets'], `repository is ${suite.clean.repo}, not acme/gadgets`],
      [['--sha', 'f'.repeat(40)], `commit is ${suite.clean.sha}, not ${'f'.repeat(40)}`],
      [['--profile', 'ci-other-v9'], `policy profile is ${suite.clean.profile}, not ci-other-v9`],
    ];
    for (const [args, failure] of wrong) {
      for (const file of [suite.clean.bundle, suite.clean.attestation]) {
        const { code, out } = await verify(file, '--jwks', suite.jwks, ...args);
        expect(code, out).toBe(3);
        expect(out).toContain(`FAIL  ci-policy        ${failure}`);
      }
    }
    const other = await verify(
      suite.clean.bundle,
      '--jwks',
      suite.jwks,
      '--signer-workflow',
      '.github/workflows/other.yml',
    );
    expect(other.code).toBe(3);
    expect(other.out).toContain(`signer workflow is ${WORKFLOW}, not .github/workflows/other.yml`);
  });

  it('--signer-workflow and --deny-self-hosted-runners on an attestation: exit 3, not proven by it', async () => {
    for (const args of [['--signer-workflow', WORKFLOW], ['--deny-self-hosted-runners']]) {
      const { code, out } = await verify(suite.clean.attestation, '--jwks', suite.jwks, ...args);
      expect(code, out).toBe(3);
      expect(out).toContain('the attestation does not prove it: verify the receipt bundle or PDF');
    }
  });

  it('a FAILED summary (BLOCK receipt): authentic, exit 3', async () => {
    const blocked = await suite.issueCi('pull_request_target');
    const { code, out } = await verify(blocked.attestation, '--jwks', suite.jwks);
    expect(code, out).toBe(3);
    expect(out).toContain('AUTHENTIC, VERIFICATION FAILED');
  });

  it('--online: the receipt named by the attestation is checked for revocation', async () => {
    const issued = await suite.issueCi();
    const active = await verify(issued.attestation, '--online', suite.baseUrl);
    expect(active.code, active.out).toBe(0);
    expect(active.out).toContain('PASS  status ');
    expect((await revokeVia(suite.ctx.app, suite.key, issued.id, suite.revoker)).statusCode).toBe(
      200,
    );
    const revoked = await verify(issued.attestation, '--online', suite.baseUrl);
    expect(revoked.code, revoked.out).toBe(3);
    expect(revoked.out).toContain('AUTHENTIC BUT REVOKED');
  });
});
