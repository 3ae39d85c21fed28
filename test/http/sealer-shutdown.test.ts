import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/storage/database.js';
import { createRepositories } from '../../src/storage/repositories.js';
import { closeStore, ed25519Pem, testConfig } from '../helpers/context.js';
import { minimalRequest, samplePdf } from '../helpers/requests.js';
import { spawnServer, type ServerProcess } from '../helpers/server-process.js';
import { cosignerVkey, freePort } from '../helpers/witness.js';

/**
 * A witness that accepts connections and never answers must not hold the server: ticks do not
 * queue behind it, and SIGTERM ends the process within 10 s (the witness timeout is 5 s, a tick
 * every 500 ms), so the store's lock is free for the next start.
 */
const sockets: net.Socket[] = [];
const blackHole = net.createServer((socket) => void sockets.push(socket));
let server: ServerProcess | undefined;
const config = testConfig();
const pem = ed25519Pem();

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => blackHole.close(resolve));
  const db = await openDatabase(config.store);
  await closeStore(db, config.store);
});

/** One receipt with a document, so the log has an entry to seal and a checkpoint to cosign. */
async function issuePending(): Promise<void> {
  const db = await openDatabase(config.store);
  const app = await buildApp({
    config: { ...config, signing: { ...config.signing, key: pem } },
    db,
    logger: false,
  });
  try {
    await app.ready();
    const { token } = await createRepositories(db).apiKeys.create({
      tenant: 't',
      name: 'sealer',
      scopes: ['verify'],
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/verify',
      headers: { 'x-api-key': token },
      payload: minimalRequest({
        doc: { docHash: minimalRequest().doc.docHash, pdfBase64: samplePdf().toString('base64') },
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
  } finally {
    await app.close();
    await db.close();
  }
}

function storeEnv(): Record<string, string> {
  const { store } = config;
  if (store.kind === 'postgres')
    return { DATABASE_URL: store.url, DATABASE_SCHEMA: store.schema ?? '' };
  return { DATA_DIR: store.dataDir ?? '' };
}

const until = async (what: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!what() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return what();
};

describe('the sealer with a witness that never answers', () => {
  it('skips ticks while one runs, and SIGTERM ends the process within 10 s', async () => {
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port: witnessPort } = blackHole.address() as net.AddressInfo;
    await issuePending();
    const vkey = cosignerVkey('witness.test/silent', randomBytes(32));
    server = spawnServer(await freePort(), {
      ...storeEnv(),
      SIGNING_KEY: pem,
      ANCHOR_INTERVAL_MS: '500',
      WITNESSES: `${vkey}@http://127.0.0.1:${witnessPort}`,
      WITNESS_TIMEOUT_MS: '5000',
      LOG_LEVEL: 'info',
    });
    expect(await until(() => sockets.length > 0, 60_000), server.output()).toBe(true);
    // ten ticks fall due while the first waits for the witness: none of them may queue
    await new Promise((r) => setTimeout(r, 3_000));
    expect(sockets.length).toBe(1);
    const sent = Date.now();
    server.child.kill('SIGTERM');
    const exit = await Promise.race([
      server.exited,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 12_000)),
    ]);
    expect(exit, server.output().slice(-2000)).toBeDefined();
    expect((exit?.at ?? Infinity) - sent).toBeLessThan(10_000);
    expect(exit?.code).toBe(0);
  }, 120_000);
});
