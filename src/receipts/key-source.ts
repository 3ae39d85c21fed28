import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

/**
 * Where the active private signing key comes from, in order: SIGNING_KEY (PKCS#8 PEM text),
 * SIGNING_KEY_FILE, else `<DATA_DIR>/signing-key.pem`, generated on first run with mode 0600.
 */
export interface KeySource {
  pem: string;
  /** The file the key lives in, if any (where `signing-keys rotate` writes the next key). */
  file: string | undefined;
}

export function defaultKeyFile(config: Config): string {
  return config.signing.keyFile ?? path.join(config.dataDir, 'signing-key.pem');
}

export function generateSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

export function writeKeyFile(file: string, pem: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, pem, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

export function loadKeySource(config: Config): KeySource {
  if (config.signing.key)
    return { pem: config.signing.key.replaceAll('\\n', '\n'), file: undefined };
  const file = defaultKeyFile(config);
  if (!fs.existsSync(file)) {
    if (config.signing.keyFile) throw new Error(`SIGNING_KEY_FILE ${file} does not exist`);
    writeKeyFile(file, generateSigningKeyPem());
  }
  return { pem: fs.readFileSync(file, 'utf8'), file };
}
