import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig, loadEnvFile, MAX_WORKERS } from '../src/config.js';

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

describe('WORKERS', () => {
  const pg = { DATABASE_URL: 'postgres://db.example/receipts' };

  it('is one process unless asked, on either store', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig(pg).workers).toBe(1);
    expect(loadConfig({ ...pg, WORKERS: '3' }).workers).toBe(3);
  });

  it('auto is one per CPU on PostgreSQL, and one on the single-process embedded store', () => {
    expect(loadConfig({ ...pg, WORKERS: 'auto' }).workers).toBe(
      Math.min(os.availableParallelism(), MAX_WORKERS),
    );
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(1);
  });

  it('more than one on the embedded store stops start-up, saying what to set', () => {
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(
      /WORKERS is 2 but the embedded store is single-process: set DATABASE_URL, or WORKERS=1/,
    );
  });

  it('refuses zero, a fraction, too many and words other than auto, naming the variable', () => {
    for (const value of ['0', '1.5', String(MAX_WORKERS + 1), 'two', '-1']) {
      expect(() => loadConfig({ ...pg, WORKERS: value }), value).toThrow(/WORKERS/);
    }
  });
});

describe('GitHub App configuration', () => {
  it('a partial configuration stops start-up, naming what is missing', () => {
    expect(() => loadConfig({ APP_ID: '12', WEBHOOK_SECRET: 's' })).toThrow(
      /partly configured: set PRIVATE_KEY or PRIVATE_KEY_PATH too/,
    );
    expect(() => loadConfig({ PRIVATE_KEY: 'k' })).toThrow(/set APP_ID, WEBHOOK_SECRET too/);
    expect(loadConfig({}).github).toBeUndefined();
  });
});

describe('ENV_FILE / .env', () => {
  it('loads the file when it exists; variables already set win', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'env-file-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'app.env');
    fs.writeFileSync(
      file,
      'PORT=4321\nLOG_LEVEL=debug\n# a comment\nPUBLIC_URL="https://r.example"\n',
    );
    const env: NodeJS.ProcessEnv = { ENV_FILE: file, LOG_LEVEL: 'warn' };
    expect(loadEnvFile(env)).toBe(file);
    expect(env).toMatchObject({ PORT: '4321', LOG_LEVEL: 'warn', PUBLIC_URL: 'https://r.example' });
    expect(loadConfig(env)).toMatchObject({ port: 4321, publicUrl: 'https://r.example' });
    expect(loadEnvFile({ ENV_FILE: path.join(dir, 'absent.env') })).toBeUndefined();
  });
});

describe('CI_OIDC_ISSUERS', () => {
  it('takes https issuers, and http ones only on a loopback host', () => {
    expect(
      loadConfig({ CI_OIDC_ISSUERS: 'https://a.example, http://127.0.0.1:8080' }).ciOidc.issuers,
    ).toEqual(['https://a.example', 'http://127.0.0.1:8080']);
    expect(() => loadConfig({ CI_OIDC_ISSUERS: 'http://issuer.example' })).toThrow(
      /must be https \(http only on loopback\)/,
    );
    expect(() => loadConfig({ CI_OIDC_ISSUERS: 'not a url' })).toThrow(/is not a URL/);
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value?: string) =>
    loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy;
  it('is off unless set', () => {
    expect(trust()).toBe(false);
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
  });
  it('takes a hop count or a comma list of addresses and CIDRs', () => {
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.0.2.7,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
    ]);
  });
  it.each(['true', '10.0.0.0/33', 'proxy.internal', '10.0.0.0/8/1', 'fd00::/129'])(
    'refuses %s with the variable named',
    (value) => {
      expect(() => trust(value)).toThrow(/TRUST_PROXY/);
    },
  );
});

describe('connection limits', () => {
  it('default to 900 in all and 128 per address, 5 s of keep-alive', () => {
    expect(loadConfig({}).connections).toEqual({
      max: 900,
      perAddress: 128,
      keepAliveTimeoutMs: 5_000,
    });
  });

  it('behind TRUST_PROXY every connection is the proxy: no cap per address unless set', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).connections.perAddress).toBe(900);
    const set = { TRUST_PROXY: '1', MAX_CONNECTIONS_PER_ADDRESS: '300' };
    expect(loadConfig(set).connections.perAddress).toBe(300);
  });

  it('the cap per address is never above MAX_CONNECTIONS; zero is refused, naming the variable', () => {
    const small = { MAX_CONNECTIONS: '50', MAX_CONNECTIONS_PER_ADDRESS: '80' };
    expect(loadConfig(small).connections).toMatchObject({ max: 50, perAddress: 50 });
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).toThrow(/MAX_CONNECTIONS/);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(
      /MAX_CONNECTIONS_PER_ADDRESS/,
    );
  });
});

describe('how PDF receipts present themselves', () => {
  it('ISSUER_NAME is printed as given (bounded); PDF_TIME_ZONE must be an IANA zone', () => {
    expect(loadConfig({ ISSUER_NAME: 'Lone Star Title & Escrow' }).issuerName).toBe(
      'Lone Star Title & Escrow',
    );
    expect(loadConfig({}).issuerName).toBeUndefined();
    expect(() => loadConfig({ ISSUER_NAME: 'x'.repeat(121) })).toThrow(/ISSUER_NAME/);
    expect(loadConfig({ PDF_TIME_ZONE: 'America/Chicago' }).pdfTimeZone).toBe('America/Chicago');
    expect(() => loadConfig({ PDF_TIME_ZONE: 'Mars/Olympus' })).toThrow(/PDF_TIME_ZONE/);
  });
});

describe('webhooks', () => {
  it('WEBHOOK_TIMEOUT_MS is 100 ms to 120 s: a longer attempt would outlive its lease', () => {
    expect(loadConfig({}).webhooks.timeoutMs).toBe(15_000);
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '120000' }).webhooks.timeoutMs).toBe(120_000);
    for (const value of ['99', '120001', '3000000000'])
      expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: value }), value).toThrow(/WEBHOOK_TIMEOUT_MS/);
  });

  it('WEBHOOK_ALLOWED_NETWORKS takes CIDRs only', () => {
    expect(
      loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.20.0.0/16, fd00::/8' }).webhooks,
    ).toMatchObject({ allowedNetworks: ['10.20.0.0/16', 'fd00::/8'] });
    expect(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: 'intranet' })).toThrow(
      /WEBHOOK_ALLOWED_NETWORKS/,
    );
  });
});
