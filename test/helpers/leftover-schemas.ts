import pg from 'pg';

/**
 * Vitest global setup for the PostgreSQL leg: every test store is a `t_…` schema that its test
 * drops. The teardown fails the run if this run left one behind (schemas that were already
 * there when it started, from a run that was killed, are not this run's).
 */
const LEFTOVER_SQL = String.raw`select nspname from pg_namespace where nspname like 't\_%' order by 1`;

async function testSchemas(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ nspname: string }>(LEFTOVER_SQL)).rows.map((r) => r.nspname);
  } finally {
    await client.end();
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const before = new Set(await testSchemas(url));
  return async () => {
    const left = (await testSchemas(url)).filter((s) => !before.has(s));
    if (left.length > 0) {
      // vitest only logs an error thrown here, so the exit code is set as well
      process.exitCode = 1;
      throw new Error(
        `test schemas left behind (a test opened a store it did not drop): ${left.join(', ')}`,
      );
    }
  };
}
