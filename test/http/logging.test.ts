import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { rawEd25519PublicKey, signRevocation } from '../../src/receipts/revocation.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createRepositories, type Repositories } from '../../src/storage/repositories.js';
import { closeStore, ed25519Pem, testConfig } from '../helpers/context.js';
import { samplePdf } from '../helpers/requests.js';
import { registerNotary, validRequest } from '../helpers/ron.js';

/**
 * What the service writes to its log, at `trace`, across a verification with a document, an
 * issuer-signed revocation, a 401 and a 500: JSON lines, each request's lines carrying its id,
 * and no secret (API key, issuer signature, receipt signature, document bytes) in any of them.
 */

const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

const config = testConfig();
let db: Database;
let repos: Repositories;
let app: FastifyInstance;
/** Lines written once the app was ready: everything the requests below caused. */
let firstRequestLine = 0;

const secrets: Record<string, string> = {};
const requestIds: string[] = [];
const issuerPem = ed25519Pem();

/** A serializer that would log every header, as a careless future change might. */
const headerLoggingSerializer = (req: FastifyRequest) => ({
  method: req.method,
  url: req.url,
  headers: req.headers,
});

beforeAll(async () => {
  db = await openDatabase(config.store);
  repos = createRepositories(db);
  app = await buildApp({
    config,
    db,
    logger: { level: 'trace', stream, serializers: { req: headerLoggingSerializer } },
  });
  app.get('/__test/boom', async () => {
    throw new Error('internal detail: connection string postgres://user:pw@db');
  });
  await app.ready();
  firstRequestLine = lines.length;

  const key = (
    await repos.apiKeys.create({ tenant: 't', name: 'log', scopes: ['verify', 'read', 'revoke'] })
  ).token;
  secrets.apiKey = key;
  secrets.apiKeySecret = key.slice('vrs_'.length + 32 + 1); // the secret may itself contain '_'
  const notary = await registerNotary(repos, 't');
  await repos.issuers.add({
    issuerId: 'escrow-co',
    tenant: 't',
    publicKey: rawEd25519PublicKey(issuerPem),
  });

  // 1. a verification with the document itself
  const pdf = samplePdf(`deed ${randomBytes(48).toString('hex')}`);
  secrets.document = pdf.toString('base64');
  const verified = await app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': key },
    payload: validRequest(notary, pdf),
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const receiptId: string = verified.json().receiptId;
  secrets.receiptSignature = verified.json().receiptSignature.signature;
  requestIds.push(String(verified.headers['x-request-id']));

  // 2. reading it back (the stored receipt and its signature go out in the body)
  const read = await app.inject({
    url: `/api/v1/receipt/${receiptId}`,
    headers: { 'x-api-key': key },
  });
  expect(read.statusCode).toBe(200);
  requestIds.push(String(read.headers['x-request-id']));

  // 3. an issuer-signed revocation
  const h = signRevocation(issuerPem, 'escrow-co', receiptId, new Date().toISOString());
  secrets.issuerSignature = h.signature;
  const revoked = await app.inject({
    method: 'POST',
    url: `/api/v1/receipt/${receiptId}/revoke`,
    headers: {
      'x-api-key': key,
      'x-issuer-id': h.issuerId,
      'x-signature-timestamp': h.timestamp,
      'x-issuer-signature': h.signature,
      authorization: 'Bearer should-not-be-logged',
      cookie: 'session=should-not-be-logged',
      'x-ci-oidc-token': 'eyJ.should-not-be-logged.token',
    },
  });
  expect(revoked.statusCode, revoked.body).toBe(200);
  requestIds.push(String(revoked.headers['x-request-id']));

  // 4. a 401: a well-formed key whose secret is wrong (its id is a real key's)
  const wrongKey = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
  secrets.wrongKey = wrongKey;
  const unauthorized = await app.inject({
    method: 'POST',
    url: '/api/v1/verify',
    headers: { 'x-api-key': wrongKey },
    payload: validRequest(notary, pdf),
  });
  expect(unauthorized.statusCode).toBe(401);
  requestIds.push(String(unauthorized.headers['x-request-id']));

  // 5. a 500, with the key sent along
  const boom = await app.inject({ url: '/__test/boom', headers: { 'x-api-key': key } });
  expect(boom.statusCode).toBe(500);
  expect(boom.json()).toEqual({ error: 'internal_error', message: 'internal error' });
  requestIds.push(String(boom.headers['x-request-id']));

  // 6. a key sent in the query string (never accepted there): the logged URL must not carry it
  const queryKey = (await repos.apiKeys.create({ tenant: 't', name: 'query', scopes: ['read'] }))
    .token;
  secrets.queryKey = queryKey;
  const inQuery = await app.inject({ url: `/api/v1/receipts?limit=2&x-api-key=${queryKey}` });
  expect(inQuery.statusCode).toBe(401);
  requestIds.push(String(inQuery.headers['x-request-id']));
  const missing = await app.inject({ url: `/api/v1/nothing-here?token=${queryKey}` });
  expect(missing.statusCode).toBe(404);
  requestIds.push(String(missing.headers['x-request-id']));
  expect(missing.body).not.toContain(queryKey);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await closeStore(db, config.store);
});

const requestLines = () => lines.slice(firstRequestLine);
const parsed = () => requestLines().map((line) => JSON.parse(line) as Record<string, unknown>);

describe('request logs', () => {
  it('are JSON lines, every one with the request id it belongs to', () => {
    expect(requestLines().length).toBeGreaterThanOrEqual(requestIds.length * 2);
    for (const line of requestLines()) {
      let entry: Record<string, unknown> | undefined;
      expect(() => (entry = JSON.parse(line)), line).not.toThrow();
      expect(entry?.reqId, line).toBeTypeOf('string');
      expect(requestIds, line).toContain(entry?.reqId);
    }
  });

  it('log every request coming in and completing, under the id sent back in x-request-id', () => {
    const entries = parsed();
    for (const id of requestIds) {
      const mine = entries.filter((e) => e.reqId === id);
      expect(mine.map((e) => e.msg)).toEqual(
        expect.arrayContaining(['incoming request', 'request completed']),
      );
    }
  });

  it('log the cause of a 500 (not the client) and the 4xx reasons', () => {
    const entries = parsed();
    const failure = entries.find((e) => e.msg === 'request failed');
    expect(failure?.reqId).toBe(requestIds[4]);
    expect(JSON.stringify(failure?.err)).toContain('internal detail');
    const denied = entries.find((e) => e.reqId === requestIds[3] && e.error === 'unauthorized');
    expect(denied).toBeDefined();
  });

  it('redact the credential headers even when a serializer would log every header', () => {
    const revoke = parsed().find((e) => e.reqId === requestIds[2] && e.msg === 'incoming request');
    const headers = (revoke?.req as { headers?: Record<string, unknown> } | undefined)?.headers;
    expect(headers?.['x-issuer-id']).toBe('escrow-co');
    expect(headers?.['x-api-key']).toBe('[redacted]');
    expect(headers?.['x-issuer-signature']).toBe('[redacted]');
    expect(headers?.authorization).toBe('[redacted]');
    expect(headers?.cookie).toBe('[redacted]');
    expect(headers?.['x-ci-oidc-token']).toBe('[redacted]');
  });

  it('never contain a key, a signature or the document', () => {
    const all = lines.join('\n');
    expect(all).not.toContain('should-not-be-logged');
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThanOrEqual(40);
      expect(all.includes(secret), name).toBe(false);
    }
    const doc = secrets.document as string;
    for (let i = 0; i + 40 <= doc.length; i++) {
      const slice = doc.slice(i, i + 40);
      if (all.includes(slice)) expect.fail(`the log holds document bytes at offset ${i}`);
    }
  });
});
