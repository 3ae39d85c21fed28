/**
 * Sealing 100,000 pending receipts into one checkpoint through the real database path
 * (AnchorService + LogRepository), then inclusion-proof generation per leaf against log_nodes.
 *   npm run bench:seal      (PostgreSQL at BENCH_DATABASE_URL, default 127.0.0.1:5432/test,
 *                            and the embedded store)
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { noteSignerOf } from '../src/services.js';
import { AnchorService } from '../src/anchoring/anchor-service.js';
import { leafHash } from '../src/anchoring/merkle.js';
import type { StoreConfig } from '../src/config.js';
import { createSigner } from '../src/receipts/signer.js';
import { openDatabase, type Database } from '../src/storage/database.js';
import { createRepositories } from '../src/storage/repositories.js';
import { closeStore, ed25519Pem } from '../test/helpers/context.js';

const PENDING = Number(process.env.BENCH_PENDING ?? 100_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Pending receipts made in bulk by SQL: the sealer only reads log_entries. */
async function seedPending(db: Database, n: number): Promise<void> {
  await db.knex.raw(
    `insert into receipts (id, tenant, body, receipt_hash, created_at, has_proof_artifact)
     select gen_random_uuid(), 'bench', '{}'::jsonb, 'sha256:' || md5(g::text) || md5(g::text), now(), true
       from generate_series(1, ?) g`,
    [n],
  );
  const ids = (await db.knex('receipts').select('id').orderBy('id')) as { id: string }[];
  for (let i = 0; i < ids.length; i += 5_000) {
    await db.knex('log_entries').insert(
      ids.slice(i, i + 5_000).map((r) => {
        const entry = randomBytes(32);
        return { receipt_id: r.id, entry, leaf_hash: Buffer.from(leafHash(entry)) };
      }),
    );
  }
}

async function run(name: string, store: StoreConfig): Promise<string> {
  const db = await openDatabase(store);
  try {
    const repos = createRepositories(db);
    const signer = createSigner(ed25519Pem());
    const service = new AnchorService(
      repos.log,
      noteSignerOf(signer, 'bench/log'),
      'bench/log',
      async () => [new Uint8Array(Buffer.from(signer.publicJwk.x, 'base64url'))],
    );
    await seedPending(db, PENDING);
    const stalls = monitorEventLoopDelay({ resolution: 1 });
    stalls.enable();
    let t = performance.now();
    const sealed = await service.sealOnce(PENDING);
    const sealMs = performance.now() - t;
    stalls.disable();
    const stallMs = stalls.max / 1e6;
    const records = await db
      .knex('log_entries')
      .select('receipt_id')
      .orderByRaw('random()')
      .limit(200);
    t = performance.now();
    for (const r of records) {
      const record = await repos.receipts.find('bench', r.receipt_id as string);
      if (!record || !(await service.inclusion(record.anchor))) throw new Error('no proof');
    }
    const proofMs = (performance.now() - t) / records.length;
    return `| ${name} | ${sealed.sealed} | ${(sealMs / 1000).toFixed(2)} | ${Math.round(sealed.sealed / (sealMs / 1000))} | ${stallMs.toFixed(0)} | ${proofMs.toFixed(2)} |`;
  } finally {
    await closeStore(db, store);
  }
}

const rows = [await run('embedded (PGlite, in memory)', { kind: 'embedded', dataDir: null })];
try {
  rows.push(
    await run('PostgreSQL', {
      kind: 'postgres',
      url: PG_URL,
      schema: `bench_${randomBytes(4).toString('hex')}`,
      poolMax: 4,
    }),
  );
} catch (err) {
  console.error(`PostgreSQL run skipped: ${(err as Error).message}`);
}
console.log(
  `\nSealing ${PENDING} pending receipts in one checkpoint; proof = fetch receipt + inclusion proof (one node query)`,
);
console.log(
  '| store | sealed | seal s | leaves/s | longest event-loop stall ms | ms per receipt+proof |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
