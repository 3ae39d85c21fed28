import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../helpers/cli.js';
import { ed25519Pem, tempDir } from '../helpers/context.js';

/**
 * Flags of the operator CLI: a base64url value may start with '-' (one key in 64) and is still
 * the flag's value; a flag followed by another flag is a forgotten value, not a value `--...`.
 * `sign-revocation` opens no store, so its headers show what the parser took.
 */
const keyFile = path.join(tempDir('receipts-flags-'), 'issuer.pem');
fs.writeFileSync(keyFile, ed25519Pem());
const receipt = '6f1c2d3e-0000-4000-8000-000000000001';
const sign = (...issuer: string[]) =>
  runCaptured([
    'sign-revocation',
    ...issuer,
    '--key-file',
    keyFile,
    '--receipt',
    receipt,
    '--json',
  ]);
const issuerOf = (out: string) => (JSON.parse(out) as Record<string, string>)['x-issuer-id'];

describe('CLI flags', () => {
  it('takes a value that starts with one dash as the value of a flag that takes one', async () => {
    const res = await sign('--issuer', '-Xy_z');
    expect(res.code, res.err).toBe(0);
    expect(issuerOf(res.out)).toBe('-Xy_z');
  });

  it('refuses a forgotten value (a flag followed by a flag); --flag=--value is the way to give one', async () => {
    const res = await runCaptured(['sign-revocation', '--issuer', '--key-file', keyFile]);
    expect(res.code).toBe(2);
    expect(res.out).toBe('');
    expect(res.err.split('\n')[0]).toBe(
      'error: --issuer needs a value (one starting with -- is written --issuer=--...)',
    );
    const written = await sign('--issuer=--odd');
    expect(written.code, written.err).toBe(0);
    expect(issuerOf(written.out)).toBe('--odd');
  });

  it('does not give a dash value to a switch: it is an unknown flag (exit 2)', async () => {
    const res = await runCaptured(['keys', 'list', '--json', '-Xy_z']);
    expect(res.code).toBe(2);
    expect(res.err.split('\n')[0]).toBe("error: unknown option '-Xy_z'");
  });
});
