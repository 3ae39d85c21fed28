import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedLeg } from '../../helpers/context.js';
import { ThreadedPGlite } from '../../../src/storage/embedded/threaded-pglite.js';
import { isStoreUnavailable } from '../../../src/storage/unavailable.js';

/** PGlite on its own thread answers as PGlite does: values, errors, notifications, shutdown. */
interface Rows<T> {
  rows: T[];
  affectedRows?: number;
}

let db: ThreadedPGlite;

describe.runIf(embeddedLeg())('ThreadedPGlite', () => {
  beforeAll(async () => {
    db = new ThreadedPGlite(undefined);
    await db.waitReady;
    await db.query('create table t (id int primary key, at timestamptz, data bytea, doc jsonb)');
  });
  afterAll(async () => db.close());

  it('returns rows with their parsed values, and the rows a statement affected', async () => {
    const at = new Date('2026-11-25T01:02:03.004Z');
    const inserted = (await db.query('insert into t values ($1, $2, $3, $4)', [
      1,
      at,
      Buffer.from([0, 255, 7]),
      JSON.stringify({ a: [1, 'x'] }),
    ])) as Rows<never>;
    expect(inserted.affectedRows).toBe(1);
    const { rows } = (await db.query('select * from t where id = $1', [1])) as Rows<{
      id: number;
      at: Date;
      data: Uint8Array;
      doc: unknown;
    }>;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(1);
    expect(rows[0]!.at).toEqual(at);
    expect([...rows[0]!.data]).toEqual([0, 255, 7]);
    expect(rows[0]!.doc).toEqual({ a: [1, 'x'] });
  });

  it('rejects with the PostgreSQL error fields (SQLSTATE, constraint)', async () => {
    await db.query('insert into t (id) values (2)');
    const err = (await db.query('insert into t (id) values (2)').catch((e: unknown) => e)) as {
      code?: string;
      constraint?: string;
      message: string;
    };
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('t_pkey');
    expect(err.message).toMatch(/duplicate key/);
    // the thread goes on answering
    expect(
      ((await db.query('select count(*)::int as n from t')) as Rows<{ n: number }>).rows,
    ).toEqual([{ n: 2 }]);
  });

  it('delivers a NOTIFY to every listener of its channel before the next answer', async () => {
    const heard: string[] = [];
    const stop = await db.listen('changes', (payload) => heard.push(`a:${payload}`));
    await db.listen('changes', (payload) => heard.push(`b:${payload}`));
    await db.listen('other', (payload) => heard.push(`other:${payload}`));
    await db.query("select pg_notify('changes', 'one')");
    await db.query('select 1');
    expect(heard).toEqual(['a:one', 'b:one']);
    await stop();
    await db.query("select pg_notify('changes', 'two')");
    await db.query('select 1');
    expect(heard).toEqual(['a:one', 'b:one', 'b:two']);
  });

  it('fails every call, as the store being unavailable, once its thread has stopped', async () => {
    const lost = new ThreadedPGlite(undefined);
    await lost.waitReady;
    const pending = lost.query('select pg_sleep(2)');
    await (Reflect.get(lost, 'worker') as { terminate(): Promise<number> }).terminate();
    const errors = await Promise.all(
      [pending, lost.query('select 1')].map((p) => p.catch((e: unknown) => e)),
    );
    for (const err of errors) {
      expect(err).toBeInstanceOf(Error);
      expect(isStoreUnavailable(err)).toBe(true);
    }
    await lost.close(); // nothing left to close: resolves
  });

  it('keeps the process alive while a call is pending, not while idle (as PGlite in process)', () => {
    const module = pathToFileURL('src/storage/embedded/threaded-pglite.ts').href;
    const script = `import { ThreadedPGlite } from ${JSON.stringify(module)};
      const db = new ThreadedPGlite(undefined);
      await db.listen('changes', () => undefined);
      const { rows } = await db.query("select pg_sleep(0.2), 'answered' as said");
      console.log(rows[0].said);`; // never closed: the process must still end
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('answered');
  });
});
