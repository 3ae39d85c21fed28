import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/storage/database.js';
import { closeStore, testConfig } from '../helpers/context.js';

async function startupLines(env: Record<string, string>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const config = testConfig(env);
  const db = await openDatabase(config.store);
  const app = await buildApp({ config, db, logger: { level: 'info', stream } });
  await app.ready();
  await app.close();
  await closeStore(db, config.store);
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('start-up log', () => {
  it('says which key signs, where the data is, and warns loudly when PUBLIC_URL is unset', async () => {
    const lines = await startupLines({});
    const warning = lines.find((l) => String(l.msg).startsWith('PUBLIC_URL is not set'));
    expect(warning?.level).toBe(40);
    const info = lines.find((l) => String(l.msg).startsWith('receipts signed with this key'));
    expect(info?.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(String(info?.noteVerifierKey)).toMatch(/^[^+\s]+\+[0-9a-f]{8}\+/);
  });

  it('does not warn once PUBLIC_URL is set', async () => {
    const lines = await startupLines({ PUBLIC_URL: 'https://receipts.example.com' });
    expect(lines.some((l) => String(l.msg).startsWith('PUBLIC_URL is not set'))).toBe(false);
  });

  it('says when the signing key was generated now, where, and why the GitHub App is off', async () => {
    const first = await startupLines({ SIGNING_KEY: '' });
    const info = first.find((l) => String(l.msg).startsWith('receipts signed with this key'));
    expect(info).toMatchObject({ keyGenerated: true });
    expect(String(info?.keyFile)).toMatch(/signing-key\.pem$/);
    expect(String(info?.githubApp)).toMatch(/^disabled: APP_ID, WEBHOOK_SECRET and PRIVATE_KEY/);
    const given = await startupLines({});
    const again = given.find((l) => String(l.msg).startsWith('receipts signed with this key'));
    expect(again).toMatchObject({ keyGenerated: false });
  });
});
