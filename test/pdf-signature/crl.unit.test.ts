import fc from 'fast-check';
import { DerError, parseCertificate } from '@verification-receipts/verify/internals';
import { describe, expect, it } from 'vitest';
import { checkCrl, crlUrls, parseCrl } from '../../src/pdf/sign/crl.js';
import { collectCrls } from '../../src/pdf/sign/revocation.js';
import { certificate, crl, newKey } from './crl-fixtures.js';

/**
 * The CRL reader behind the DSS's revocation data, on CRLs built in process: a CRL is embedded
 * only when it is its certificate issuer's, signed by that issuer's key, current, and free of
 * critical extensions the reader does not process; a listed serial is reported revoked. The
 * fuzz target feeds mutated CRLs and certificates to every reader of those bytes.
 */

const caKey = newKey();
const tsaKey = newKey();
const now = new Date('2026-06-01T00:00:00Z');
const DAY = 86_400_000;
const URL = 'http://crl.example/ca.crl';
const caDer = certificate({
  issuer: 'Fixture CA',
  subject: 'Fixture CA',
  serial: 1,
  subjectKey: caKey,
  issuerKey: caKey,
  ca: true,
});
const tsaDer = certificate({
  issuer: 'Fixture CA',
  subject: 'Fixture TSA',
  serial: 4242,
  subjectKey: tsaKey,
  issuerKey: caKey,
  crlUrls: ['ldap://dir.example/cn=CA', URL, 'https://crl.example/ca.crl'],
});
const ca = parseCertificate(caDer);
const tsa = parseCertificate(tsaDer);
const current = { issuer: 'Fixture CA', key: caKey, thisUpdate: new Date(now.getTime() - DAY) };
const good = crl({ ...current, nextUpdate: new Date(now.getTime() + 7 * DAY) });

describe('CRL distribution points', () => {
  it('are the http URLs of the fullName, ldap and https skipped', () => {
    expect(crlUrls(tsa)).toEqual([URL]);
    expect(crlUrls(ca)).toEqual([]);
  });
});

describe('a fetched CRL', () => {
  it("is embedded when it is the issuer's, signed by it and current", () => {
    const check = checkCrl(good, tsa, ca, now);
    expect(check.ok && check.revokedAt).toBe(undefined);
    expect(check.ok).toBe(true);
  });

  it('reports the serial it lists as revoked, with the date', () => {
    const at = new Date('2026-05-01T00:00:00Z');
    const listed = crl({
      ...current,
      nextUpdate: new Date(now.getTime() + DAY),
      revoked: [
        { serial: 7, at },
        { serial: 4242, at },
      ],
    });
    const check = checkCrl(listed, tsa, ca, now);
    expect(check).toMatchObject({ ok: true, revokedAt: at });
  });

  it('signed by another key under the same name is refused', () => {
    const forged = crl({ ...current, key: newKey(), nextUpdate: new Date(now.getTime() + DAY) });
    expect(checkCrl(forged, tsa, ca, now)).toEqual({
      ok: false,
      reason: "the CRL's signature does not verify under its issuer's key",
    });
  });

  it('of another issuer is refused', () => {
    const other = crl({
      ...current,
      issuer: 'Other CA',
      nextUpdate: new Date(now.getTime() + DAY),
    });
    expect(checkCrl(other, tsa, ca, now)).toMatchObject({
      ok: false,
      reason: /not the certificate issuer's/,
    });
  });

  it('past its nextUpdate, without one, or not yet issued is refused', () => {
    const stale = crl({ ...current, nextUpdate: new Date(now.getTime() - 1000) });
    const open = crl(current);
    const early = crl({
      ...current,
      thisUpdate: new Date(now.getTime() + DAY),
      nextUpdate: new Date(now.getTime() + 2 * DAY),
    });
    expect(checkCrl(stale, tsa, ca, now)).toMatchObject({ ok: false, reason: /stale/ });
    expect(checkCrl(open, tsa, ca, now)).toMatchObject({ ok: false, reason: /stale/ });
    expect(checkCrl(early, tsa, ca, now)).toMatchObject({ ok: false, reason: /not yet valid/ });
  });

  it('with a critical extension the reader does not process (list or entry) is refused', () => {
    const next = new Date(now.getTime() + DAY);
    const idp = crl({ ...current, nextUpdate: next, critical: ['2.5.29.28'] });
    const indirect = crl({
      ...current,
      nextUpdate: next,
      revoked: [{ serial: 9, at: now, critical: '2.5.29.29' }],
    });
    expect(checkCrl(idp, tsa, ca, now)).toMatchObject({ ok: false, reason: /2\.5\.29\.28/ });
    expect(checkCrl(indirect, tsa, ca, now)).toMatchObject({ ok: false, reason: /2\.5\.29\.29/ });
  });

  it('that is not DER is refused with a reason', () => {
    expect(checkCrl(new TextEncoder().encode('<html>'), tsa, ca, now)).toMatchObject({
      ok: false,
      reason: /^not a CRL/,
    });
  });
});

describe('collectCrls', () => {
  it('fetches each distribution point once, skips trust anchors, and reports every outcome', async () => {
    const fetched: string[] = [];
    const data = await collectCrls(
      [caDer, tsaDer, tsaDer],
      async (url) => {
        fetched.push(url);
        return good;
      },
      now,
    );
    expect(fetched).toEqual([URL]);
    expect(data.crls.map((c) => Buffer.from(c))).toEqual([good]);
    expect(data.findings).toEqual([
      { certificate: 'Fixture TSA serial 1092', url: URL, outcome: 'embedded' },
    ]);
  });

  it("a re-keyed CA: the CRL's signature picks which certificate of that name issued it", async () => {
    const newCaKey = newKey();
    const rekeyed = certificate({
      issuer: 'Fixture CA',
      subject: 'Fixture CA',
      serial: 2,
      subjectKey: newCaKey,
      issuerKey: newCaKey,
      ca: true,
    });
    const signedByNew = crl({
      ...current,
      key: newCaKey,
      nextUpdate: new Date(now.getTime() + DAY),
    });
    const data = await collectCrls([caDer, rekeyed, tsaDer], async () => signedByNew, now);
    expect(data.crls.map((c) => Buffer.from(c))).toEqual([signedByNew]);
    expect(data.findings[0]?.outcome).toBe('embedded');
  });

  it('a failed fetch or an unusable CRL is a finding, not an embedded CRL', async () => {
    const down = await collectCrls(
      [caDer, tsaDer],
      () => Promise.reject(new Error('HTTP 503')),
      now,
    );
    expect(down.crls).toEqual([]);
    expect(down.findings).toEqual([
      {
        certificate: 'Fixture TSA serial 1092',
        url: URL,
        outcome: 'unavailable',
        reason: `${URL}: HTTP 503`,
      },
    ]);
    const orphan = await collectCrls([tsaDer], async () => good, now);
    expect(orphan.findings[0]).toMatchObject({
      outcome: 'unavailable',
      reason: /issuer's certificate/,
    });
  });
});

/** One byte changed, inserted or cut anywhere in `bytes`. */
const mutated = (bytes: Buffer) =>
  fc
    .tuple(
      fc.nat(bytes.length - 1),
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom('set', 'insert', 'cut'),
    )
    .map(([at, value, how]) => {
      if (how === 'set') {
        const out = Buffer.from(bytes);
        out[at] = value;
        return out;
      }
      if (how === 'insert')
        return Buffer.concat([bytes.subarray(0, at), Buffer.from([value]), bytes.subarray(at)]);
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
    });

describe('fuzz: the CRL reader on mutated and random bytes', () => {
  const input = fc.oneof(mutated(good), mutated(tsaDer), fc.uint8Array({ maxLength: 600 }));

  it('parseCrl answers or throws DerError; checkCrl always answers with a reason', () => {
    fc.assert(
      fc.property(input, (bytes) => {
        try {
          parseCrl(bytes);
        } catch (err) {
          if (!(err instanceof DerError)) throw err;
        }
        const check = checkCrl(bytes, tsa, ca, now);
        if (!check.ok) expect(typeof check.reason).toBe('string');
        // only the untouched CRL verifies: any change breaks its signature or its form
        if (check.ok) expect(Buffer.from(bytes).equals(good)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('crlUrls answers or throws DerError on a mutated certificate', () => {
    fc.assert(
      fc.property(mutated(tsaDer), (bytes) => {
        let cert;
        try {
          cert = parseCertificate(bytes);
        } catch (err) {
          if (err instanceof DerError) return;
          throw err;
        }
        try {
          for (const url of crlUrls(cert)) expect(url).toMatch(/^http:\/\/\S+$/i);
        } catch (err) {
          if (!(err instanceof DerError)) throw err;
        }
      }),
      { numRuns: 1500 },
    );
  });
});
