import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../helpers/cli.js';
import { createTestContext, type TestContext } from '../helpers/context.js';
import {
  NOTARY_ID,
  NOTARY_NAME,
  notarialFixtures,
  type NotarialFixtures,
} from '../helpers/notarial-deeds.js';

/**
 * Registering what `doc.signatures` judges deeds against, with the CLI: a notary's certificate
 * (PEM or DER, pinned by its SHA-256, listed by it) and a tenant's notary trust anchors (listed by
 * subject and fingerprint, removed with `none`). The certificates come from the openssl test PKI
 * of test/helpers/notarial-deeds.ts.
 */
let ctx: TestContext;
let deeds: NotarialFixtures;
const TENANT = 'tenant-registration';
const cli = (...args: string[]) => runCaptured(args, {}, ctx.app.services);

beforeAll(async () => {
  ctx = await createTestContext();
  deeds = notarialFixtures();
  const add = await cli(
    'notaries',
    'add',
    '--tenant',
    TENANT,
    '--id',
    NOTARY_ID,
    '--name',
    NOTARY_NAME,
    '--state',
    'TX',
    '--expires',
    '2099-12-31',
    '--certificate',
    deeds.notary.certFile,
  );
  expect(add.code, add.err).toBe(0);
  const trust = await cli(
    'tenants',
    'policy',
    '--tenant',
    TENANT,
    '--notary-trust-anchors',
    deeds.anchorsFile,
  );
  expect(trust.code, trust.err).toBe(0);
}, 120_000);
afterAll(async () => ctx?.close());

describe('notary certificates and trust anchors, registered with the CLI', () => {
  it("lists the tenant's notary trust anchors, and removes them with none", async () => {
    const shown = await cli('tenants', 'policy', '--tenant', TENANT);
    const root = `sha256:${createHash('sha256').update(deeds.root.der).digest('hex')}`;
    expect(shown.out).toContain(
      `tenant ${TENANT} notary trust anchors: "CN=Test Notary Root CA" (${root}); ` +
        "the signer must be the notary's registered certificate",
    );
    const tenant = 'tenant-pades-anchors';
    expect(
      (
        await cli(
          'tenants',
          'policy',
          '--tenant',
          tenant,
          '--notary-trust-anchors',
          deeds.anchorsFile,
        )
      ).code,
    ).toBe(0);
    const removed = await cli(
      'tenants',
      'policy',
      '--tenant',
      tenant,
      '--notary-trust-anchors',
      'none',
    );
    expect(removed.out).toContain(`tenant ${tenant} has no notary trust anchors`);
  });

  it('registers a certificate given as DER like one given as PEM, and lists it by fingerprint', async () => {
    const der = `${deeds.dir}/notary.der`;
    fs.writeFileSync(der, deeds.notary.der);
    const tenant = 'tenant-pades-der';
    const add = await cli(
      'notaries',
      'add',
      '--tenant',
      tenant,
      '--id',
      NOTARY_ID,
      '--name',
      NOTARY_NAME,
      '--state',
      'TX',
      '--expires',
      '2099-12-31',
      '--certificate',
      der,
    );
    expect(add.code, add.err).toBe(0);
    const fingerprint = `sha256:${createHash('sha256').update(deeds.notary.der).digest('hex')}`;
    expect(add.out).toContain(fingerprint);
    const list = await cli('notaries', 'list', '--tenant', tenant);
    expect(list.out).toContain(
      `${NOTARY_ID}  ${NOTARY_NAME}  TX  expires 2099-12-31  certificate ${fingerprint}`,
    );
    // the PEM registration of beforeAll recorded the same certificate
    expect((await cli('notaries', 'list', '--tenant', TENANT)).out).toContain(fingerprint);
    const garbage = `${deeds.dir}/not-a-certificate.der`;
    fs.writeFileSync(garbage, Buffer.from('30030201ff', 'hex'));
    const bad = await cli(
      'notaries',
      'add',
      '--tenant',
      tenant,
      '--id',
      'TX-2',
      '--name',
      'X',
      '--state',
      'TX',
      '--expires',
      '2099-12-31',
      '--certificate',
      garbage,
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('is not an X.509 certificate (PEM or DER)');
  });
});
