import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { absolutePaths, adminSocketPath } from '../../src/cli/admin-channel.js';
import { cliFixture } from '../helpers/cli.js';
import { ed25519Pem, isPostgres, testConfig } from '../helpers/context.js';

const { store, env, cleanup } = cliFixture({ SIGNING_KEY: ed25519Pem() });
afterAll(cleanup);

describe('the admin channel (embedded store)', () => {
  it('resolves path flags against the CLI working directory, nothing else', () => {
    expect(
      absolutePaths(
        ['notaries', 'add', '--public-key-file', 'n.pem', '--name', 'x.pem', '--out=k.pem'],
        '/home/op',
      ),
    ).toEqual([
      'notaries',
      'add',
      '--public-key-file',
      '/home/op/n.pem',
      '--name',
      'x.pem',
      '--out=/home/op/k.pem',
    ]);
  });

  it.runIf(!isPostgres())(
    'is a 0600 socket in DATA_DIR that answers malformed input with exit 2',
    async () => {
      const app = await buildApp({ config: testConfig(env, store), logger: false });
      const socket = adminSocketPath(env.DATA_DIR ?? '');
      try {
        expect(fs.statSync(socket).mode & 0o777).toBe(0o600);
        expect(path.dirname(socket)).toBe(env.DATA_DIR);
        const answer = await new Promise<string>((resolve) => {
          let text = '';
          const client = net.createConnection(socket, () => client.write('not json\n'));
          client.setEncoding('utf8');
          client.on('data', (c: string) => (text += c));
          client.on('close', () => resolve(text));
        });
        expect(
          answer
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l)),
        ).toEqual([{ err: 'error: malformed admin request' }, { code: 2 }]);
      } finally {
        await app.close();
      }
      expect(fs.existsSync(socket)).toBe(false);
    },
  );
});
