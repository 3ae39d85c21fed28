import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('./witness-server.mjs', import.meta.url));
const ML_DSA_SERVER = fileURLToPath(new URL('./mldsa-witness.py', import.meta.url));

export interface TestWitness {
  name: string;
  url: string;
  /** `<name>+<key id>+<base64(0x04 || key)>` (tlog-cosignature Ed25519 vkey). */
  vkey: string;
  publicKey: Buffer;
  stop(): Promise<void>;
}

/** The cosigner vkey of `name` and a raw public key: type 0x04 (Ed25519) or 0x06 (ML-DSA-44). */
export function cosignerVkey(name: string, publicKey: Buffer, type = 4): string {
  const id = createHash('sha256')
    .update(`${name}\n`)
    .update(Buffer.of(type))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
  return `${name}+${id.toString('hex')}+${Buffer.concat([Buffer.of(type), publicKey]).toString('base64')}`;
}

/** A free loopback port (for a witness that starts later at a configured URL). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts test/helpers/witness-server.mjs in its own process. */
export async function startWitness(options: {
  name: string;
  seed: string;
  logVkey: string;
  mode?: 'normal' | 'refuse' | 'garbage' | 'slow' | 'wrong-key' | 'corrupt';
  port?: number;
  /** An ML-DSA-44 witness (test/helpers/mldsa-witness.py, OpenSSL's ML-DSA) instead of Ed25519. */
  mlDsa?: boolean;
}): Promise<TestWitness> {
  const [command, args] = options.mlDsa
    ? ['python3', [ML_DSA_SERVER]]
    : [process.execPath, [SERVER]];
  const child = spawn(command, args, {
    env: {
      PATH: process.env.PATH,
      // python3 may be a pyenv shim, which finds its interpreter from HOME
      ...(options.mlDsa && process.env.HOME ? { HOME: process.env.HOME } : {}),
      WITNESS_NAME: options.name,
      WITNESS_SEED: options.seed,
      LOG_VKEY: options.logVkey,
      WITNESS_MODE: options.mode ?? 'normal',
      ...(options.port ? { WITNESS_PORT: String(options.port) } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`witness exited with ${code}`)));
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')));
  });
  const [, port, x] = line.trim().split(' ');
  const publicKey = Buffer.from(x as string, 'base64url');
  return {
    name: options.name,
    url: `http://127.0.0.1:${port}`,
    vkey: cosignerVkey(options.name, publicKey, options.mlDsa ? 6 : 4),
    publicKey,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
