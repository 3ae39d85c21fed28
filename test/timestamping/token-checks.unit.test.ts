import { checkTimestamps } from '@verification-receipts/verify';
import { verifyTimestampToken } from '@verification-receipts/verify/internals';
import { logSignedNote } from '../../packages/verify/src/timestamp/steps.js';
import { describe, expect, it } from 'vitest';
import { SERVER_AUTH, testAuthority, TIME_STAMPING } from './forged-tokens.js';

/**
 * Each check of an RFC 3161 token, on tokens made with exactly one thing wrong: the reader must
 * refuse the token for that reason (and accept the same token made right).
 */

const authority = testAuthority();
const data = new TextEncoder().encode('example.com/log\n3\nabc=\n\n— example.com/log sig\n');
const nonce = Uint8Array.from([0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0]);
const expected = { data, nonce, trusted: [authority.ca] };
const DAY = 24 * 3600 * 1000;

async function reasonOf(token: Buffer, expectation = expected): Promise<string> {
  const check = await verifyTimestampToken(token, expectation);
  return check.ok ? 'accepted' : check.reason;
}

describe('RFC 3161 token checks', () => {
  it('accepts a token made right, with the nonce of the request', async () => {
    const check = await verifyTimestampToken(authority.stamp(data, { nonce }), expected);
    expect(check.ok).toBe(true);
    expect(check.ok && check.tsa).toBe('Forged Test TSA');
  });

  it('refuses a token whose nonce is not the request’s, or that has none', async () => {
    const other = Uint8Array.from([0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf1]);
    expect(await reasonOf(authority.stamp(data, { nonce: other }))).toContain('nonce');
    expect(await reasonOf(authority.stamp(data))).toContain('nonce');
  });

  it('refuses a TSA certificate that is not for time-stamping alone (RFC 3161 2.3)', async () => {
    const none = authority.stamp(data, { nonce, extKeyUsage: null });
    expect(await reasonOf(none)).toContain('has no extended key usage');
    const server = authority.stamp(data, { nonce, extKeyUsage: [SERVER_AUTH] });
    expect(await reasonOf(server)).toContain('not for time-stamping alone');
    const both = authority.stamp(data, { nonce, extKeyUsage: [SERVER_AUTH, TIME_STAMPING] });
    expect(await reasonOf(both)).toContain('not for time-stamping alone');
    const only = authority.stamp(data, { nonce, extKeyUsage: [TIME_STAMPING] });
    expect(await reasonOf(only)).toBe('accepted');
  });

  it('says so when a pinned certificate, not the token, is malformed', async () => {
    const token = authority.stamp(data, { nonce });
    const pinned = { ...expected, trusted: [authority.ca.subarray(0, 40)] };
    expect(await reasonOf(token, pinned)).toMatch(/^a pinned certificate is malformed/);
  });

  it('refuses a token without an ESS signing-certificate attribute, or naming another certificate', async () => {
    const none = authority.stamp(data, { nonce, signingCertificate: 'none' });
    expect(await reasonOf(none)).toContain('ESS signing-certificate');
    const other = authority.stamp(data, { nonce, signingCertificate: 'other' });
    expect(await reasonOf(other)).toContain('names another certificate');
  });

  it('refuses a time stamped outside the TSA certificate’s validity', async () => {
    const early = authority.stamp(data, { nonce, validFrom: DAY, validUntil: 2 * DAY });
    const notValid = /^the TSA certificate "Forged Test TSA" is not valid at the stamped time/;
    expect(await reasonOf(early)).toMatch(notValid);
    const late = authority.stamp(data, { nonce, validFrom: -2 * DAY, validUntil: -DAY });
    expect(await reasonOf(late)).toMatch(notValid);
  });
});

describe('what a checkpoint token stamps', () => {
  const logNote =
    'example.com/log\n3\nq6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s=\n\n— example.com/log AAAAAbcd\n';
  // what /log/checkpoint serves once a witness has cosigned: one more signature line
  const cosigned = `${logNote}— witness.example.org BBBBBxyz\n`;
  const bundleWith = (token: Buffer) => ({
    mediaType: 'application/vnd.verification-receipt.bundle+json;version=1',
    receipt: {},
    canonicalReceipt: '{}',
    verificationMaterial: { publicKey: null },
    logEntry: {
      origin: 'example.com/log',
      noteVerifierKey: 'example.com/log+00000000+AA',
      leafVersion: 'rfc9162-sha256-v1',
      logIndex: 0,
      treeSize: 3,
      rootHash: `sha256:${'ab'.repeat(32)}`,
      inclusionProof: [],
      checkpoint: cosigned,
      timestamps: [token.toString('base64')],
    },
  });
  const encode = (text: string) => new TextEncoder().encode(text);

  it('is the note as the log signed it: witnesses’ cosignature lines, added later, are left out', async () => {
    expect(logSignedNote(cosigned, 'example.com/log')).toBe(logNote);
    const stamped = await checkTimestamps(bundleWith(authority.stamp(encode(logNote))), [
      authority.ca,
    ]);
    expect(stamped.step.status, stamped.step.detail).toBe('PASS');
    expect(stamped.earliest?.tsa).toBe('Forged Test TSA');
  });

  it('a token over the served note with its cosignature lines does not match', async () => {
    const withCosignatures = authority.stamp(encode(cosigned));
    const failed = await checkTimestamps(bundleWith(withCosignatures), [authority.ca]);
    expect(failed.step.status).toBe('FAIL');
    expect(failed.step.detail).toContain('message imprint mismatch');
  });
});
