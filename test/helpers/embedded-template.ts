import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/storage/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's own folder in the OS tmpdir, where tempDir() makes folders; removed at the end. */
    tempRoot: string;
    /** A closed embedded data directory with every migration applied; test stores copy it. */
    embeddedTemplate: string;
    /** A closed, freshly initialised embedded data directory (no migration): for migration tests. */
    embeddedBlankTemplate: string;
  }
}

/**
 * Vitest global setup of the integration tier (and the fault suite):
 *
 * - the run's temp root, `receipts-test-run-*` in the OS tmpdir: every folder tempDir() makes
 *   (DATA_DIRs, CLI stores, the embedded copies) is inside it, and the teardown removes it, so a
 *   run leaves nothing in the tmpdir and removes nothing it did not make;
 * - on the embedded leg, the template stores: PGlite's initdb takes about 4 s on this kind of
 *   machine and the migrations about 2 s more, and every test file opens at least one store.
 *   Both run once here; each test store is then a copy of the migrated cluster in a DATA_DIR of
 *   its own (the on-disk layout the service uses), its migrations already applied: it opens in
 *   about 0.4 s of CPU once its test process has compiled PGlite's WebAssembly (the first store
 *   of a process, about 1.1 s; see src/storage/embedded/worker.mjs). Migration tests copy the
 *   blank cluster, made before any migration.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-test-run-'));
  const teardown = () =>
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  try {
    project.provide('tempRoot', root);
    if (!process.env.DATABASE_URL) {
      // without DATABASE_URL test stores are embedded copies; with it, PostgreSQL schemas
      const blank = path.join(root, 'template-blank');
      const blankDb = await openDatabase({ kind: 'embedded', dataDir: blank }, { migrate: false });
      await blankDb.close();
      const template = path.join(root, 'template');
      fs.cpSync(blank, template, { recursive: true });
      const db = await openDatabase({ kind: 'embedded', dataDir: template });
      await db.close();
      project.provide('embeddedBlankTemplate', blank);
      project.provide('embeddedTemplate', template);
    }
  } catch (err) {
    teardown();
    throw err;
  }
  return teardown;
}
