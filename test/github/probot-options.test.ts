import fs from 'node:fs';
import path from 'node:path';
import { ProbotOctokit } from 'probot';
import { describe, expect, it } from 'vitest';
import type { GitHubAppConfig } from '../../src/config.js';
import { loadConfig } from '../../src/config.js';
import { githubBaseUrl, probotOptions, readPrivateKey } from '../../src/github/probot.js';
import { tempDir } from '../helpers/context.js';
import { appPrivateKey } from './helpers.js';

const log = { child: () => log } as never;

function github(overrides: Partial<GitHubAppConfig> = {}): GitHubAppConfig {
  return { appId: '12', webhookSecret: 's', privateKey: appPrivateKey(), ...overrides };
}

describe('Probot options from config.github', () => {
  it('github.com by default; GHE_HOST gives <protocol>://<host>/api/v3 (https unless set)', () => {
    expect(githubBaseUrl(github())).toBeUndefined();
    expect(githubBaseUrl(github({ gheHost: 'ghe.example.com' }))).toBe(
      'https://ghe.example.com/api/v3',
    );
    expect(githubBaseUrl(github({ gheHost: 'ghe.local:8080', gheProtocol: 'http' }))).toBe(
      'http://ghe.local:8080/api/v3',
    );
  });

  it('passes app id, key, secret, base URL, Octokit class and logger', () => {
    const config = github({ gheHost: 'ghe.example.com' });
    expect(probotOptions(config, log, ProbotOctokit)).toEqual({
      appId: '12',
      privateKey: config.privateKey,
      secret: 's',
      baseUrl: 'https://ghe.example.com/api/v3',
      Octokit: ProbotOctokit,
      log,
    });
  });

  it('reads PRIVATE_KEY_PATH when PRIVATE_KEY is absent', () => {
    const pem = appPrivateKey();
    const file = path.join(tempDir(), 'app.pem');
    fs.writeFileSync(file, pem);
    const config = loadConfig({ APP_ID: '12', WEBHOOK_SECRET: 's', PRIVATE_KEY_PATH: file });
    expect(config.github).toBeDefined();
    expect(readPrivateKey(config.github!)).toBe(pem);
  });

  it('undoes \\n escapes of a one-line PRIVATE_KEY', () => {
    const pem = appPrivateKey();
    expect(readPrivateKey(github({ privateKey: pem.replace(/\n/g, '\\n') }))).toBe(pem);
  });

  it('refuses a key that is not a PEM private key', () => {
    expect(() => readPrivateKey(github({ privateKey: 'not a key' }))).toThrow(/PEM/);
  });
});
