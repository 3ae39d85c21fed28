import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/storage/database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A closed, freshly initialised embedded data directory that test stores start as copies of. */
    embeddedTemplate: string;
  }
}

/**
 * Vitest global setup for the embedded leg: PGlite's initdb takes about 4 s on this kind of
 * machine, and every test file opens at least one store. It runs once here; each test store is
 * then a copy of that empty cluster in a DATA_DIR of its own (the on-disk layout the service
 * uses), which opens in about a second. Migrations still run on every store as it opens.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) return undefined; // test stores are PostgreSQL schemas then
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-test-stores-'));
  const template = path.join(root, 'template');
  const db = await openDatabase({ kind: 'embedded', dataDir: template }, { migrate: false });
  await db.close();
  project.provide('embeddedTemplate', template);
  return () => fs.rmSync(root, { recursive: true, force: true });
}
