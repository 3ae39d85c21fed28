import { generateKeyPairSync } from 'node:crypto';
import { DerError, parseCertificate } from '@verification-receipts/verify/internals';
import { KEY_USAGE } from '../../packages/verify/src/timestamp/x509.js';
import { describe, expect, it } from 'vitest';
import {
  algorithm,
  bits,
  bool,
  explicit,
  integer,
  octets,
  oid,
  seq,
  setOf,
  time,
  tlv,
  utf8,
} from '../../src/asn1/der.js';

/**
 * The X.509v3 extensions the TSA path rule reads, on certificates written byte by byte with the
 * service's DER encoder: typed values for basicConstraints, keyUsage and extKeyUsage, the
 * critical extensions not processed listed, and a DerError (never another throw) for a repeated,
 * malformed or unbounded extension list.
 */

const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
const spki = key.export({ format: 'der', type: 'spki' });
const name = seq(setOf(seq(oid('2.5.4.3'), utf8('Extensions Test'))));

/** A certificate (its signature is not checked here) with these extensions. */
function certificate(extensions: Buffer[] | undefined): Buffer {
  const tbs = seq(
    explicit(0, integer(2)),
    integer(7),
    algorithm('1.2.840.10045.4.3.2'),
    name,
    seq(time(new Date('2025-01-01T00:00:00Z')), time(new Date('2035-01-01T00:00:00Z'))),
    name,
    spki,
    ...(extensions ? [explicit(3, seq(...extensions))] : []),
  );
  return seq(tbs, algorithm('1.2.840.10045.4.3.2'), bits(Buffer.alloc(8)));
}

const ext = (id: string, value: Buffer, critical = false): Buffer =>
  critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
const BC = '2.5.29.19';
const KU = '2.5.29.15';
const EKU = '2.5.29.37';

describe('X.509 extensions', () => {
  it('reads basicConstraints with its pathLenConstraint, keyUsage bits and extKeyUsage', () => {
    const cert = parseCertificate(
      certificate([
        ext(BC, seq(bool(true), integer(2)), true),
        // keyCertSign (bit 5) and digitalSignature (bit 0): 0b1000_0100, two bits unused
        ext(KU, tlv(0x03, Buffer.from([0x02, 0x84])), true),
        ext(EKU, seq(oid('1.3.6.1.5.5.7.3.8'))),
      ]),
    );
    expect(cert.extensions.basicConstraints).toEqual({ ca: true, pathLen: 2 });
    expect(cert.extensions.keyUsage).toBe(KEY_USAGE.keyCertSign | KEY_USAGE.digitalSignature);
    expect(cert.extensions.extKeyUsage).toEqual({
      purposes: ['1.3.6.1.5.5.7.3.8'],
      critical: false,
    });
    expect(cert.extensions.unhandledCritical).toEqual([]);
  });

  it('reads an empty basicConstraints as an end entity, and no extensions as none', () => {
    const endEntity = parseCertificate(certificate([ext(BC, seq())]));
    expect(endEntity.extensions.basicConstraints).toEqual({ ca: false, pathLen: undefined });
    const none = parseCertificate(certificate(undefined)).extensions;
    expect(none).toEqual({
      basicConstraints: undefined,
      keyUsage: undefined,
      extKeyUsage: undefined,
      unhandledCritical: [],
    });
  });

  it('lists a critical extension it does not process, and not a non-critical one', () => {
    const cert = parseCertificate(
      certificate([
        ext('1.3.6.1.4.1.99999.7', Buffer.from([0x05, 0x00]), true),
        ext('1.3.6.1.4.1.99999.8', Buffer.from([0x05, 0x00])),
        ext('2.5.29.30', seq(), true), // nameConstraints: not processed, so refused when critical
        ext('2.5.29.14', octets(Buffer.alloc(20)), true), // subjectKeyIdentifier: understood
      ]),
    );
    expect(cert.extensions.unhandledCritical).toEqual(['1.3.6.1.4.1.99999.7', '2.5.29.30']);
  });

  it.each([
    ['an extension twice', [ext(BC, seq(bool(true))), ext(BC, seq(bool(true)))], /appears twice/],
    ['33 extensions', Array.from({ length: 33 }, (_, i) => ext(`1.2.3.${i}`, seq())), /too many/],
    [
      'a basicConstraints with three fields',
      [ext(BC, seq(bool(true), integer(1), integer(1)))],
      /basicConstraints/,
    ],
    ['a pathLenConstraint before cA', [ext(BC, seq(integer(1), bool(true)))], /basicConstraints/],
    ['a keyUsage of four octets', [ext(KU, tlv(0x03, Buffer.from([0, 1, 2, 3])))], /keyUsage/],
    ['a keyUsage with 9 unused bits', [ext(KU, tlv(0x03, Buffer.from([9, 0x80])))], /keyUsage/],
    ['an empty extKeyUsage', [ext(EKU, seq())], /extKeyUsage: empty/],
    [
      '17 key purposes',
      [ext(EKU, seq(...Array.from({ length: 17 }, () => oid('1.2.3'))))],
      /too many/,
    ],
    ['a critical flag that is not a BOOLEAN', [seq(oid(BC), integer(1), octets(seq()))], /boolean/],
    ['a value that is not DER', [ext(BC, Buffer.from([0x30, 0x05, 0x01]))], /DER/],
  ] as const)('refuses %s with a DerError', (_, extensions, message) => {
    let thrown: unknown;
    try {
      parseCertificate(certificate([...extensions]));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DerError);
    expect((thrown as Error).message).toMatch(message);
  });
});
