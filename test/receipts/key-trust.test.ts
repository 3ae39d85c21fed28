import { describe, expect, it } from 'vitest';
import { endorse, trustedKeys } from '../../src/receipts/key-trust.js';
import { createSigner } from '../../src/receipts/signer.js';
import { ed25519Pem } from '../helpers/context.js';

/** The chain of trust: only an anchor or a key a trusted key endorsed is trusted. */
const signer = () => createSigner(ed25519Pem());
const record = (s: ReturnType<typeof signer>) => ({
  jwk: s.publicJwk,
  createdAt: new Date(0),
  retiredAt: null,
});

describe('trustedKeys', () => {
  it('a stored key never endorses itself', () => {
    const anchor = signer();
    const rogue = signer();
    const trust = trustedKeys(
      [record(anchor), record(rogue)],
      [endorse(rogue, rogue.publicJwk)],
      [anchor.publicJwk],
    );
    expect(trust.trusted.map((k) => k.kid)).toEqual([anchor.kid]);
    expect(trust.untrusted).toEqual([rogue.kid]);
  });

  it('an untrusted stored key endorses nothing, even with a valid signature', () => {
    const anchor = signer();
    const rogue = signer();
    const victim = signer();
    const trust = trustedKeys(
      [record(anchor), record(rogue), record(victim)],
      [endorse(rogue, victim.publicJwk), endorse(rogue, rogue.publicJwk)],
      [anchor.publicJwk],
    );
    expect(trust.trusted.map((k) => k.kid)).toEqual([anchor.kid]);
  });

  it('a key endorsed by a trusted key is trusted, and endorses in turn', () => {
    const anchor = signer();
    const next = signer();
    const third = signer();
    const trust = trustedKeys(
      [record(anchor), record(next), record(third)],
      [endorse(next, third.publicJwk), endorse(anchor, next.publicJwk)],
      [anchor.publicJwk],
    );
    expect(trust.trusted.map((k) => k.kid).sort()).toEqual(
      [anchor.kid, next.kid, third.kid].sort(),
    );
  });
});
