import { afterAll, describe, expect, it } from 'vitest';
import { createSigner } from '../../src/receipts/signer.js';
import { openDatabase } from '../../src/storage/database.js';
import { cliFixture } from '../helpers/cli.js';
import { ed25519Pem } from '../helpers/context.js';

/** A key of a ring from before endorsements is untrusted until the active key vouches for it. */
const { store, cli, cleanup } = cliFixture({ SIGNING_KEY: ed25519Pem() });
afterAll(cleanup);

describe('receipts signing-keys endorse', () => {
  it('makes a stored key without an endorsement trusted; an unknown kid is exit 1', async () => {
    // a kid is base64url: one in 64 starts with '-', which a flag parser takes for an option
    const legacy = keyWhoseKidStartsWith('-');
    const db = await openDatabase(store);
    await db.knex('signing_keys').insert({ kid: legacy.kid, public_jwk: legacy });
    await db.close();

    const line = (out: string) => out.split('\n').find((l) => l.startsWith(legacy.kid)) ?? '';
    expect(line((await cli('signing-keys', 'list')).out)).toContain('UNTRUSTED');
    const endorsed = await cli('signing-keys', 'endorse', legacy.kid);
    expect(endorsed.code, endorsed.err).toBe(0);
    expect(line((await cli('signing-keys', 'list')).out)).toMatch(/ trusted$/);

    const unknown = await cli('signing-keys', 'endorse', 'no-such-kid');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('no-such-kid');
    const twoKids = await cli('signing-keys', 'endorse', legacy.kid, 'another');
    expect(twoKids.code).toBe(2);
    expect(twoKids.err).toContain('usage: receipts signing-keys endorse KID');
  });
});

function keyWhoseKidStartsWith(prefix: string) {
  for (;;) {
    const jwk = createSigner(ed25519Pem()).publicJwk;
    if (jwk.kid.startsWith(prefix)) return jwk;
  }
}
