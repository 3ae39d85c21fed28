import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { bundleJsonSchema } from '../../src/contract/bundle.js';
import { verifyBundle } from '@verification-receipts/verify';
import { fromBase64url } from '@verification-receipts/verify/log';
import { it } from '../helpers/fixtures.js';
import { anchoredBundle } from './helpers.js';
import { workedExample } from './worked-example.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

describe('docs/verification.md worked example', () => {
  it('is the bundle the service code builds from the fixed inputs', async () => {
    const { bundle } = await workedExample();
    expect(JSON.parse(read('docs/examples/receipt-bundle.json'))).toEqual(
      JSON.parse(JSON.stringify(bundle)),
    );
  });

  it('verifies, every step PASS, with its key pinned', async () => {
    const { values } = await workedExample();
    const bundle = JSON.parse(read('docs/examples/receipt-bundle.json'));
    const verdict = verifyBundle(bundle, {
      trust: { keys: [fromBase64url(values.publicKeyX) as Uint8Array] },
    });
    expect(verdict.steps.filter((s) => s.status !== 'PASS' && s.id !== 'witnesses')).toEqual([]);
  });

  it('verifies with the command the document gives', async () => {
    const out: string[] = [];
    const file = path.join(root, 'docs/examples/receipt-bundle.json');
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const jwks = path.join(root, 'docs/examples/jwks.json');
    const command = ['verify', file, '--jwks', jwks, '--offline'];
    expect(await runCli(command, io, {}), out.join('\n')).toBe(0);
    expect(out.join('\n')).toMatch(/^PASS {2}key-trust /m);
    // the example's status is unknown (no service to ask): without --offline it is exit 3
    expect(await runCli(command.slice(0, -1), io, {})).toBe(3);
    // and without the key pinned nothing is verified: a usage error naming what to pass
    out.length = 0;
    expect(await runCli(['verify', file], io, {})).toBe(2);
    expect(out.join('\n')).toMatch(/^error: no trust root: pin .*--jwks/m);
  });

  it('quotes the values the code computes (and the RFC 8037 thumbprint of the key)', async () => {
    const { values } = await workedExample();
    const doc = read('docs/verification.md');
    const block = doc.slice(doc.indexOf('<!-- worked-example-values -->'));
    expect(values.kid).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
    for (const name of [
      'publicKeyX',
      'kid',
      'receiptHash',
      'signature',
      'leafHash',
      'rootHash',
      'noteVerifierKey',
    ] as const) {
      expect(block, name).toContain(values[name]);
    }
  });
});

describe('the bundle JSON Schema', () => {
  it('is committed in docs/ and served, and a served bundle validates against it', async ({
    ctx,
    key,
  }) => {
    const schema = bundleJsonSchema();
    expect(JSON.parse(read('docs/receipt-bundle.schema.json'))).toEqual(schema);
    const served = await ctx.app.inject({ url: '/schemas/receipt-bundle.v1.json' });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual(schema);
    const validate = new Ajv2020.default({ strict: false }).compile(schema);
    const bundle = await anchoredBundle(ctx, key);
    expect(validate(bundle), JSON.stringify(validate.errors)).toBe(true);
    // with the signed status the service serves kept in it (its optional `status` member)
    const hash = String((bundle as { receipt: { receiptHash: string } }).receipt.receiptHash);
    const status = (await ctx.app.inject({ url: `/status/${hash}` })).json();
    expect(validate({ ...bundle, status }), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...bundle, status: { ...status, extra: 1 } })).toBe(false);
    expect(validate(JSON.parse(read('docs/examples/receipt-bundle.json')))).toBe(true);
    expect(validate({ ...bundle, mediaType: 'application/json' })).toBe(false);
  });
});
