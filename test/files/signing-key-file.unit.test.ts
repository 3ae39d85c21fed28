import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadKeySource } from '../../src/files/signing-key-file.js';
import { createSigner } from '../../src/receipts/signer.js';

/** Where the signing key comes from: SIGNING_KEY, SIGNING_KEY_FILE, or DATA_DIR's own file. */
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signing-key-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('loadKeySource', () => {
  it('generates DATA_DIR/signing-key.pem on the first start, private, and reuses it after', () => {
    const config = loadConfig({ DATA_DIR: dir });
    const first = loadKeySource(config);
    const file = path.join(dir, 'signing-key.pem');
    expect(first).toMatchObject({ file, generated: true });
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = loadKeySource(config);
    expect(again).toEqual({ pem: first.pem, file, generated: false });
    expect(createSigner(again.pem).kid).toBe(createSigner(first.pem).kid);
  });

  it('prefers SIGNING_KEY, one-line env escapes undone, and touches no file', () => {
    const pem = loadKeySource(loadConfig({ DATA_DIR: dir })).pem;
    fs.rmSync(path.join(dir, 'signing-key.pem'));
    const oneLine = pem.replaceAll('\n', '\\n');
    const source = loadKeySource(loadConfig({ DATA_DIR: dir, SIGNING_KEY: oneLine }));
    expect(source).toEqual({ pem, file: undefined, generated: false });
    expect(fs.existsSync(path.join(dir, 'signing-key.pem'))).toBe(false);
  });

  it('refuses a SIGNING_KEY_FILE that does not exist rather than generating one there', () => {
    const file = path.join(dir, 'missing.pem');
    const config = loadConfig({ DATA_DIR: dir, SIGNING_KEY_FILE: file });
    expect(() => loadKeySource(config)).toThrow(`SIGNING_KEY_FILE ${file} does not exist`);
    expect(fs.existsSync(file)).toBe(false);
  });
});
