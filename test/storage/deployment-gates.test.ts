import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { NewDeploymentGate } from '../../src/receipts/ports.js';
import { it } from '../helpers/fixtures.js';

/**
 * Pending deployment gates in the store: one row per callback and environment, a lease taken by
 * one claimer at a time, and a decision recorded once.
 */
const later = (ms: number) => new Date(Date.now() + ms);

function gate(change: Partial<NewDeploymentGate> = {}): NewDeploymentGate {
  return {
    id: randomUUID(),
    tenant: 'tenant-gates',
    installationId: 42,
    repository: 'acme/app',
    environment: 'production',
    sha: 'a'.repeat(40),
    callbackUrl: `https://api.github.com/repos/acme/app/actions/runs/${Math.floor(Math.random() * 1e9)}/deployment_protection_rule`,
    deploymentId: 1,
    requestedAt: new Date(),
    policy: { wait: '60m' },
    policyHash: `sha256:${'b'.repeat(64)}`,
    ...change,
  };
}

describe('deployment_gates', () => {
  it('a redelivered request does not open a second gate', async ({ ctx }) => {
    const { deploymentGates } = ctx.repos;
    const first = gate();
    expect(await deploymentGates.open(first, later(60_000))).toBe(true);
    expect(await deploymentGates.open({ ...first, id: randomUUID() }, later(60_000))).toBe(false);
  });

  it('concurrent claimers lease a pending gate to exactly one, and it is decided once', async ({
    ctx,
  }) => {
    const { deploymentGates } = ctx.repos;
    const g = gate();
    await deploymentGates.open(g, later(60_000));
    // leased by the opener: nobody else may claim it yet
    expect(
      (await deploymentGates.claimDue(new Date(), later(60_000), 100)).map((x) => x.id),
    ).not.toContain(g.id);
    await deploymentGates.release(g.id, null, false);
    const claims = await Promise.all(
      Array.from({ length: 6 }, () => deploymentGates.claimDue(new Date(), later(60_000), 100)),
    );
    expect(claims.flat().filter((x) => x.id === g.id)).toHaveLength(1);
    const decision = {
      state: 'approved' as const,
      reason: 'ok',
      record: { signed: true },
      at: new Date(),
    };
    const finishes = await Promise.all([
      deploymentGates.finish(g.id, decision),
      deploymentGates.finish(g.id, { ...decision, state: 'rejected' }),
    ]);
    expect(finishes.filter(Boolean)).toHaveLength(1);
    await deploymentGates.release(g.id, null, false);
    expect(
      (await deploymentGates.claimDue(new Date(), later(60_000), 100)).map((x) => x.id),
    ).not.toContain(g.id);
  });

  it('a claim leases at most its limit, however many gates are due', async ({ ctx }) => {
    const { deploymentGates } = ctx.repos;
    for (let i = 0; i < 12; i += 1) {
      const g = gate();
      await deploymentGates.open(g, later(60_000));
      await deploymentGates.release(g.id, null, false);
    }
    const leaseUntil = later(60_000);
    expect(await deploymentGates.claimDue(new Date(), leaseUntil, 5)).toHaveLength(5);
    expect(await deploymentGates.claimDue(new Date(), leaseUntil, 5)).toHaveLength(5);
  });

  it('a refused answer waits for its retry time and is counted', async ({ ctx }) => {
    const { deploymentGates } = ctx.repos;
    const g = gate();
    await deploymentGates.open(g, later(60_000));
    await deploymentGates.release(g.id, later(30_000), true);
    expect(
      (await deploymentGates.claimDue(new Date(), later(60_000), 100)).map((x) => x.id),
    ).not.toContain(g.id);
    const [claimed] = (await deploymentGates.claimDue(later(31_000), later(90_000), 100)).filter(
      (x) => x.id === g.id,
    );
    expect(claimed).toMatchObject({ attempts: 1, policy: { wait: '60m' } });
  });

  it("lists a tenant's decided gates of a repository, newest first, paged", async ({ ctx }) => {
    const { deploymentGates } = ctx.repos;
    const tenant = `tenant-list-${randomUUID()}`;
    for (let i = 0; i < 3; i += 1) {
      const g = gate({ tenant, repository: 'Acme/List' });
      await deploymentGates.open(g, later(60_000));
      await deploymentGates.finish(g.id, {
        state: 'rejected',
        reason: `r${i}`,
        record: {},
        at: later(i * 1000),
      });
    }
    await deploymentGates.open(gate({ tenant, repository: 'acme/list' }), later(60_000)); // pending
    const first = await deploymentGates.listDecided(tenant, 'acme/list', 2, undefined);
    expect(first.items.map((g) => g.reason)).toEqual(['r2', 'r1']);
    const second = await deploymentGates.listDecided(tenant, 'acme/list', 2, first.nextCursor);
    expect(second.items.map((g) => g.reason)).toEqual(['r0']);
    expect(second.nextCursor).toBeUndefined();
    expect((await deploymentGates.listDecided('other', 'acme/list', 10, undefined)).items).toEqual(
      [],
    );
    // a cursor that is not exactly what the list wrote starts from the newest, never a SQL error
    const yearZero = Buffer.from(
      JSON.stringify(['0000-01-01T00:00:00.000Z', '1b4e28ba-2fa1-41d2-883f-0016d3cca427']),
    ).toString('base64url');
    for (const cursor of ['garbage', yearZero]) {
      expect(
        (await deploymentGates.listDecided(tenant, 'acme/list', 10, cursor)).items,
      ).toHaveLength(3);
    }
  });
});
