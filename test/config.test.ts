import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('passes DATABASE_QUERY_TIMEOUT_MS and the pool size to the PostgreSQL store', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://db.example/receipts',
      DATABASE_POOL_MAX: '7',
      DATABASE_QUERY_TIMEOUT_MS: '2500',
    });
    expect(config.store).toMatchObject({ kind: 'postgres', poolMax: 7, queryTimeoutMs: 2500 });
  });

  it('refuses a query timeout below 100 ms with the variable named', () => {
    expect(() => loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '5' })).toThrow(
      /DATABASE_QUERY_TIMEOUT_MS/,
    );
  });
});
