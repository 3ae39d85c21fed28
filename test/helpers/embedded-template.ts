import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/storage/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's own folder in the OS tmpdir, where tempDir() makes folders; removed at the end. */
    tempRoot: string;
    /** A closed, freshly initialised embedded data directory; test stores start as copies of it. */
    embeddedTemplate: string;
  }
}

/**
 * Vitest global setup of the integration tier (and the fault suite):
 *
 * - the run's temp root, `receipts-test-run-*` in the OS tmpdir: every folder tempDir() makes
 *   (DATA_DIRs, CLI stores, the embedded copies) is inside it, and the teardown removes it, so a
 *   run leaves nothing in the tmpdir and removes nothing it did not make;
 * - on the embedded leg, the template store: PGlite's initdb takes about 4 s on this kind of
 *   machine, and every test file opens at least one store. It runs once here; each test store is
 *   then a copy of that empty cluster in a DATA_DIR of its own (the on-disk layout the service
 *   uses), which opens in about a second. Migrations still run on every store as it opens.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-test-run-'));
  const teardown = () =>
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
  try {
    project.provide('tempRoot', root);
    if (!process.env.DATABASE_URL) {
      // without DATABASE_URL test stores are embedded copies; with it, PostgreSQL schemas
      const template = path.join(root, 'template');
      const db = await openDatabase({ kind: 'embedded', dataDir: template }, { migrate: false });
      await db.close();
      project.provide('embeddedTemplate', template);
    }
  } catch (err) {
    teardown();
    throw err;
  }
  return teardown;
}
