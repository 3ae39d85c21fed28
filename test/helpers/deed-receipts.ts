import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { expect } from 'vitest';
import type { VerificationRequest } from '../../src/contract/verification.js';
import type { NotaryRecord } from '../../src/receipts/types.js';
import { runCaptured } from './cli.js';
import type { TestContext } from './context.js';
import { test as base } from './fixtures.js';
import { NOTARY_ID, NOTARY_NAME, notarialFixtures } from './notarial-deeds.js';

/**
 * Receipts for the deeds of notarial-deeds.ts: the request that submits a deed under a profile,
 * the notary and the tenant's trust anchors registered with the CLI, and the receipt issued by
 * POST /api/v1/verify and read back. `it` adds to test/helpers/fixtures.ts's `ctx` the file's
 * `deeds` and `pades`, tenant-pades with its notary registered (certificate and seal key) and
 * the test CA's root as its notary trust anchor.
 */

export interface Check {
  checkId: string;
  status: string;
  details?: string;
}

export interface DeedReceipt {
  receipt: { checks: Check[]; decision: string; reasons: string[] };
  check(id: string): Check | undefined;
  /** The doc.signatures check, if the profile runs it. */
  signatures: Check | undefined;
}

export type Cli = (...args: string[]) => ReturnType<typeof runCaptured>;

/** The CLI of the test app, in process. */
export const cliOf =
  (ctx: TestContext): Cli =>
  (...args) =>
    runCaptured(args, {}, ctx.app.services);

/** A request submitting `pdf` (its hash as docHash) for notary NOTARY_ID, with an opaque seal. */
export function deedRequest(pdf: Buffer, profile = 'ron-pades-v1'): VerificationRequest {
  const docHash = `sha256:${createHash('sha256').update(pdf).digest('hex')}`;
  return {
    bundleId: 'deed-1',
    transactionType: 'deed-transfer',
    ron: {
      provider: 'ExampleRON',
      notaryId: NOTARY_ID,
      commissionState: 'TX',
      sealPayload: 'opaque-seal',
    },
    doc: { docHash, pdfBase64: pdf.toString('base64') },
    policy: { profile },
    property: { parcelId: 'R-1', county: 'Travis', state: 'TX' },
  };
}

/** Issues a receipt for `payload` with `apiKey` (expecting 200) and reads it back. */
export async function issueDeedReceipt(
  ctx: TestContext,
  apiKey: string,
  payload: VerificationRequest,
): Promise<DeedReceipt> {
  const headers = { 'x-api-key': apiKey };
  const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/verify', headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().receiptId as string;
  const read = await ctx.app.inject({ url: `/api/v1/receipt/${id}`, headers });
  const receipt = read.json().receipt as DeedReceipt['receipt'];
  const check = (checkId: string) => receipt.checks.find((c) => c.checkId === checkId);
  return { receipt, check, signatures: check('doc.signatures') };
}

/**
 * Registers notary NOTARY_ID of `tenant` with the CLI: its certificate (a PEM file) and, if
 * given, its seal's public key; then the tenant's notary trust anchors (a PEM file). Returns what
 * the CLI says of the policy.
 */
export async function registerDeedNotary(
  ctx: TestContext,
  tenant: string,
  files: { certificate: string; anchors: string; sealPublicKey?: string },
): Promise<string> {
  const cli = cliOf(ctx);
  const seal = files.sealPublicKey ? ['--public-key-file', files.sealPublicKey] : [];
  const add = await cli(
    ...['notaries', 'add', '--tenant', tenant, '--id', NOTARY_ID, '--name', NOTARY_NAME],
    ...['--state', 'TX', '--expires', '2099-12-31', ...seal, '--certificate', files.certificate],
  );
  expect(add.code, add.err).toBe(0);
  const trust = await cli(
    ...['tenants', 'policy', '--tenant', tenant, '--notary-trust-anchors', files.anchors],
  );
  expect(trust.code, trust.err).toBe(0);
  return trust.out;
}

/** The tenant whose notary signs the deeds of notarial-deeds.ts. */
export const TENANT = 'tenant-pades';

export interface PadesTenant {
  /** A verify and read key of TENANT. */
  key: string;
  /** The registered notary's SIM-ECDSA-v1 seal key (PKCS #8 PEM). */
  sealKeyPem: string;
  cli: Cli;
  /** issueDeedReceipt with the test app, by default with `key`. */
  issue(payload: VerificationRequest, apiKey?: string): Promise<DeedReceipt>;
  /**
   * Gives `tenant` TENANT's notary, with `changes`, and no trust anchors; returns a verify and
   * read key of `tenant`.
   */
  tenantWithNotary(tenant: string, changes?: Partial<NotaryRecord>): Promise<string>;
}

export const it = base
  .extend('deeds', { scope: 'file' }, () => notarialFixtures())
  .extend('pades', { scope: 'file' }, async ({ ctx, deeds }): Promise<PadesTenant> => {
    const key = await ctx.apiKey(['verify', 'read'], TENANT);
    const seal = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const sealPublicKey = `${deeds.dir}/seal-${randomBytes(4).toString('hex')}.pub.pem`;
    fs.writeFileSync(sealPublicKey, seal.publicKey.export({ format: 'pem', type: 'spki' }));
    const policy = await registerDeedNotary(ctx, TENANT, {
      certificate: deeds.notary.certFile,
      anchors: deeds.anchorsFile,
      sealPublicKey,
    });
    expect(policy).toContain('Test Notary Root CA');
    return {
      key,
      sealKeyPem: seal.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      cli: cliOf(ctx),
      issue: (payload, apiKey = key) => issueDeedReceipt(ctx, apiKey, payload),
      tenantWithNotary: async (tenant, changes = {}) => {
        const apiKey = await ctx.apiKey(['verify', 'read'], tenant);
        const notary = await ctx.repos.notaries.find(TENANT, NOTARY_ID);
        if (!notary) throw new Error('notary not registered');
        await ctx.repos.notaries.upsert({ ...notary, tenant, ...changes });
        return apiKey;
      },
    };
  });
