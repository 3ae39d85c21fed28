import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { preAuthEncoding } from '../../packages/verify/src/attestation/envelope.js';
import { attestationSuite, verify, type Attestation, type Issued } from './attestation-suite.js';

/**
 * `receipt-verify` on a receipt's attestation (GET /api/v1/receipt/{id}/attestation), its trust:
 * a real CI receipt's attestation checked against the pinned JWKS, without a trust root, and
 * with tampered envelopes, unknown hints, wrong types and statements, each named by step and
 * exit code.
 */

const suite = attestationSuite();

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
    a.dsseEnvelope.signatures[0]!.sig = Buffer.from(
      suite.ctx.app.services.signer!.sign(pae),
    ).toString('base64');
  });
}

function rewrite(issued: Issued, name: string, edit: (a: Attestation) => void): string {
  const copy = structuredClone(issued.envelope);
  edit(copy);
  return suite.write(name, JSON.stringify(copy));
}

/** An attestation changed one way, the step that refuses it, and the file that holds it. */
const REFUSED: [string, string, () => string][] = [
  [
    'a key the hint does not name',
    'key-trust',
    () =>
      rewrite(suite.clean, 'hint.json', (a) => {
        a.verificationMaterial.publicKey.hint = 'x'.repeat(43);
      }),
  ],
  [
    'an edited payload',
    'dsse-signature',
    () =>
      rewrite(suite.clean, 'payload.json', (a) => {
        const bytes = Buffer.from(a.dsseEnvelope.payload, 'base64');
        bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 1;
        a.dsseEnvelope.payload = bytes.toString('base64');
      }),
  ],
  [
    'an edited signature',
    'dsse-signature',
    () =>
      rewrite(suite.clean, 'sig.json', (a) => {
        const sig = Buffer.from(a.dsseEnvelope.signatures[0]!.sig, 'base64');
        sig[0] = sig[0]! ^ 1;
        a.dsseEnvelope.signatures[0]!.sig = sig.toString('base64');
      }),
  ],
  [
    'several signatures, none of them valid',
    'dsse-signature',
    () =>
      rewrite(suite.clean, 'several.json', (a) => {
        const sig = Buffer.from(a.dsseEnvelope.signatures[0]!.sig, 'base64');
        sig[5] = sig[5]! ^ 1;
        const bad = { sig: sig.toString('base64'), keyid: a.verificationMaterial.publicKey.hint };
        a.dsseEnvelope.signatures = [bad, { ...bad, sig: Buffer.alloc(64).toString('base64') }];
      }),
  ],
  [
    'another payload type',
    'dsse-payload-type',
    () =>
      rewrite(suite.clean, 'type.json', (a) => {
        a.dsseEnvelope.payloadType = 'application/json';
      }),
  ],
  [
    'an in-toto statement of another version',
    'statement',
    () =>
      resigned(
        suite.clean,
        (s) => ({ ...s, _type: 'https://in-toto.io/Statement/v0.1' }),
        'stmt.json',
      ),
  ],
  [
    'another predicate type',
    'statement',
    () =>
      resigned(
        suite.clean,
        (s) => ({ ...s, predicateType: 'https://slsa.dev/provenance/v1' }),
        'pred.json',
      ),
  ],
  [
    'a statement that is not JSON',
    'statement',
    () => resigned(suite.clean, () => '{"_type": ', 'json.json'),
  ],
  [
    "a subject other than the receipt's commit",
    'vsa-subject',
    () =>
      resigned(
        suite.clean,
        (s) => ({ ...s, subject: [{ name: 'x', digest: { gitCommit: '0'.repeat(40) } }] }),
        'subj.json',
      ),
  ],
];

describe('receipt-verify on an attestation: trust', () => {
  it('a real attestation verifies against the pinned JWKS and names each step', async () => {
    const { code, out } = await verify(suite.clean.attestation, '--jwks', suite.jwks, '--offline');
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
    const json = JSON.parse(
      (await verify(suite.clean.attestation, '--jwks', suite.jwks, '--offline', '--json')).out,
    );
    expect(json).toMatchObject({
      exitCode: 0,
      authentic: true,
      attestation: { repository: suite.clean.repo, sha: suite.clean.sha },
    });
  });

  it('no trust root, or only --insecure-ignore-trust: not verified, as for a receipt', async () => {
    const receipt = await verify(suite.clean.bundle);
    const attestation = await verify(suite.clean.attestation);
    expect(attestation.code).toBe(2);
    expect(attestation.code).toBe(receipt.code);
    const insecure = await verify(suite.clean.attestation, '--insecure-ignore-trust');
    expect(insecure.code).toBe(1);
    expect(insecure.out).toContain('FAIL  key-trust');
  });

  it.each(REFUSED)('%s: exit 1 at %s', async (_, id, make) => {
    const file = make();
    const { code, out } = await verify(file, '--jwks', suite.jwks);
    expect(code, `${file}\n${out}`).toBe(1);
    expect(out).toMatch(new RegExp(`^NOT VERIFIED: .*\\.\\n {2}${id}: `, 'm'));
  });

  it("with only the key the hint names pinned, a statement the service's key signs passes", async () => {
    const other = suite.write(
      'other-jwks.json',
      JSON.stringify({ keys: [JSON.parse(fs.readFileSync(suite.jwks, 'utf8')).keys[0]] }),
    );
    expect(
      (
        await verify(
          resigned(suite.clean, (s) => s, 'same.json'),
          '--jwks',
          other,
          '--offline',
        )
      ).code,
    ).toBe(0);
  });

  it('a cut attestation is unreadable: exit 2', async () => {
    const unreadable = await verify(
      suite.write('cut.json', fs.readFileSync(suite.clean.attestation, 'utf8').slice(0, 50)),
      '--jwks',
      suite.jwks,
    );
    expect(unreadable.code).toBe(2);
  });
});
