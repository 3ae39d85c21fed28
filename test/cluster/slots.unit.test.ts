import { describe, expect, it } from 'vitest';
import { slotEnv } from '../../src/cluster/primary.js';
import { loadConfig } from '../../src/config.js';

describe('what each worker slot runs', () => {
  const operator = {
    DATABASE_URL: 'postgres://db.example/receipts',
    WORKERS: '3',
    ANCHOR_INTERVAL_MS: '5000',
    WEBHOOK_PROXY_URL: 'https://smee.io/channel',
  };

  it('slot 0 keeps the operator settings: it runs the sealer and the webhook proxy', () => {
    const config = loadConfig({ ...operator, ...slotEnv(0) });
    expect(config.anchorIntervalMs).toBe(5000);
    expect(config.githubSetup.webhookProxyUrl).toBe('https://smee.io/channel');
  });

  it('every other slot runs neither, whatever the operator set', () => {
    for (const slot of [1, 2]) {
      const config = loadConfig({ ...operator, ...slotEnv(slot) });
      expect(config.anchorIntervalMs).toBe(0);
      expect(config.githubSetup.webhookProxyUrl).toBeUndefined();
      expect(config.workers).toBe(3);
    }
  });
});
