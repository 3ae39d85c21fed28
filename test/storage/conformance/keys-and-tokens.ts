import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Ed25519PublicJwk } from '../../../src/receipts/signer.js';
import type { Contract } from './harness.js';
import { unique } from './harness.js';

/** A public key as the ring stores it; the store keeps it, it does not check it. */
const jwk = (): Ed25519PublicJwk => ({
  kty: 'OKP',
  crv: 'Ed25519',
  x: randomBytes(32).toString('base64url'),
  kid: unique('kid'),
  alg: 'EdDSA',
  use: 'sig',
});

/**
 * SigningKeyStore (src/receipts/ports.ts): the key ring of the JWKS and of every signature
 * check. The ring is global, so this contract assumes nothing about keys it did not add.
 */
export const signingKeyStoreContract: Contract = (stores) => {
  it('registers a key once, active, and reads it back exactly', async () => {
    const key = jwk();
    expect(await stores().signingKeys.ensureRegistered(key)).toEqual({ retired: false });
    expect(await stores().signingKeys.ensureRegistered(key)).toEqual({ retired: false });
    const mine = (await stores().signingKeys.list()).filter((r) => r.jwk.kid === key.kid);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.jwk).toEqual(key);
    expect(mine[0]?.retiredAt).toBeNull();
    expect(mine[0]?.createdAt).toBeInstanceOf(Date);
  });

  it('rotates to a new key: every other one retired, its endorsements stored with it', async () => {
    const [old, next] = [jwk(), jwk()];
    await stores().signingKeys.ensureRegistered(old);
    const endorsement = { subjectKid: next.kid, endorserKid: old.kid, signature: 'c2ln' };
    await stores().signingKeys.rotateTo(next, [endorsement]);
    const ring = await stores().signingKeys.list();
    expect(ring.find((r) => r.jwk.kid === old.kid)?.retiredAt).toBeInstanceOf(Date);
    expect(ring.find((r) => r.jwk.kid === next.kid)?.retiredAt).toBeNull();
    expect(ring.filter((r) => r.retiredAt === null).map((r) => r.jwk.kid)).toEqual([next.kid]);
    expect(await stores().signingKeys.ensureRegistered(old)).toEqual({ retired: true });
    expect(await stores().signingKeys.endorsements()).toContainEqual(endorsement);
    // rotating back to a retired key makes it the active one again
    await stores().signingKeys.rotateTo(old, []);
    expect(await stores().signingKeys.ensureRegistered(old)).toEqual({ retired: false });
    expect(await stores().signingKeys.ensureRegistered(next)).toEqual({ retired: true });
  });

  it('lists keys oldest first', async () => {
    const [a, b] = [jwk(), jwk()];
    await stores().signingKeys.ensureRegistered(a);
    await stores().signingKeys.ensureRegistered(b);
    const kids = (await stores().signingKeys.list()).map((r) => r.jwk.kid);
    expect(kids.indexOf(a.kid)).toBeLessThan(kids.indexOf(b.kid));
  });

  it('keeps one endorsement per (subject, endorser), the latest signature winning', async () => {
    const [subject, endorser] = [unique('kid'), unique('kid')];
    await stores().signingKeys.addEndorsements([
      { subjectKid: subject, endorserKid: endorser, signature: 'first' },
    ]);
    await stores().signingKeys.addEndorsements([
      { subjectKid: subject, endorserKid: endorser, signature: 'second' },
    ]);
    await stores().signingKeys.addEndorsements([]);
    const mine = (await stores().signingKeys.endorsements()).filter(
      (e) => e.subjectKid === subject,
    );
    expect(mine).toEqual([{ subjectKid: subject, endorserKid: endorser, signature: 'second' }]);
  });
};

/** TokenUseStore (src/receipts/ports.ts): single use of CI OIDC tokens across replicas. */
export const tokenUseStoreContract: Contract = (stores) => {
  const use = (jti: string, change: { tenant?: string; externalId?: string } = {}) => ({
    issuer: 'https://issuer.test',
    jti,
    tenant: change.tenant ?? 'tenant-a',
    externalId: change.externalId ?? 'acme/widgets/1/1',
    expiresAt: new Date(Date.now() + 300_000),
  });

  it('first use, then repeat for the same request, replayed for any other', async () => {
    const jti = unique('jti');
    expect(await stores().tokenUses.claim(use(jti))).toBe('first');
    expect(await stores().tokenUses.claim(use(jti))).toBe('repeat');
    expect(await stores().tokenUses.claim(use(jti, { externalId: 'other' }))).toBe('replayed');
    expect(await stores().tokenUses.claim(use(jti, { tenant: 'tenant-b' }))).toBe('replayed');
    expect(await stores().tokenUses.claim({ ...use(jti), issuer: 'https://other.test' })).toBe(
      'first',
    );
  });

  it('lets exactly one of concurrent first uses win', async () => {
    const jti = unique('jti');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => stores().tokenUses.claim(use(jti, { tenant: `t-${i}` }))),
    );
    expect(results.filter((r) => r === 'first')).toHaveLength(1);
    expect(results.filter((r) => r === 'replayed')).toHaveLength(7);
  });
};
