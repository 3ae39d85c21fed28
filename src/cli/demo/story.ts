import fs from 'node:fs';
import path from 'node:path';
import { main as verifyReceipt } from '@verification-receipts/verify/cli';
import { signRevocation } from '../../receipts/revocation.js';
import type { CliIo } from '../context.js';
import { DEMO_ISSUER, demoRequests, writeRequest, type DemoMaterial } from './material.js';

/** The walk through the service: each step printed with its curl equivalent and its answer. */

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface Story {
  io: CliIo;
  url: string;
  material: DemoMaterial;
  screening: boolean;
  /** Seals pending receipts into a checkpoint now (`receipts anchor run`). */
  seal(): Promise<void>;
}

async function call(
  story: Story,
  method: string,
  route: string,
  init: RequestInit = {},
): Promise<Answer & { bytes?: ArrayBuffer }> {
  const res = await fetch(`${story.url}${route}`, {
    ...init,
    method,
    headers: { 'x-api-key': story.material.apiKey, ...(init.headers as Record<string, string>) },
  });
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('json'))
    return { status: res.status, body: {}, bytes: await res.arrayBuffer() };
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function step(story: Story, title: string, curl: string): void {
  story.io.out('');
  story.io.out(`== ${title}`);
  story.io.out(`   $ ${curl}`);
}

function expectOk(answer: Answer, what: string): void {
  if (answer.status !== 200) {
    throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

async function issue(story: Story, name: 'allow' | 'flag' | 'block', title: string) {
  const request = demoRequests(story.material, story.screening)[name];
  const file = writeRequest(story.material.dir, `${name}-request.json`, request);
  step(
    story,
    title,
    `curl -s -X POST $URL/api/v1/verify -H "x-api-key: $KEY" -H 'content-type: application/json' -d @${file}`,
  );
  const answer = await call(story, 'POST', '/api/v1/verify', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  expectOk(answer, 'POST /api/v1/verify');
  const { decision, status, reasons, receiptId } = answer.body;
  story.io.out(
    `   -> ${String(decision)} (${String(status)}), reasons: ${JSON.stringify(reasons)}`,
  );
  story.io.out(`      receiptId ${String(receiptId)}`);
  return String(receiptId);
}

async function reverify(story: Story, id: string, title: string): Promise<void> {
  step(story, title, `curl -s -X POST $URL/api/v1/receipt/${id}/verify -H "x-api-key: $KEY"`);
  const answer = await call(story, 'POST', `/api/v1/receipt/${id}/verify`);
  expectOk(answer, 'POST /receipt/{id}/verify');
  const { verified, signatureStatus, proofVerified, revoked } = answer.body;
  story.io.out(
    `   -> verified ${String(verified)}, signature ${String(signatureStatus)}, proof ${String(proofVerified)}, revoked ${String(revoked)}`,
  );
}

async function pdf(story: Story, id: string): Promise<string> {
  const file = path.join(story.material.dir, `receipt-${id}.pdf`);
  step(
    story,
    'The receipt as a PDF',
    `curl -s $URL/api/v1/receipt/${id}/pdf -H "x-api-key: $KEY" -o ${file}`,
  );
  const answer = await call(story, 'GET', `/api/v1/receipt/${id}/pdf`);
  if (answer.status !== 200 || !('bytes' in answer))
    throw new Error(`PDF answered ${answer.status}`);
  fs.writeFileSync(file, Buffer.from(answer.bytes as ArrayBuffer), { mode: 0o644 });
  story.io.out(`   -> ${file}`);
  return file;
}

/**
 * The relying party's check of the ALLOW receipt's PDF, offline: the verifier package (what
 * `npx @verification-receipts/verify` runs) with the service's public keys saved to a file, and
 * the deed itself. `--offline` accepts the status it cannot see (without it, exit 3): the PDF is
 * the one a user would email, still active, so the check ends VERIFIED OFFLINE, exit 0.
 */
async function verifyOffline(story: Story, file: string): Promise<void> {
  const jwks = path.join(story.material.dir, 'jwks.json');
  const deed = path.join(story.material.dir, 'sample-deed.pdf');
  step(
    story,
    'Verify the ALLOW PDF offline, as whoever relies on it would (no key, no service)',
    `curl -s $URL/.well-known/jwks.json -o ${jwks} && npx @verification-receipts/verify ${file} --jwks ${jwks} --offline --artifact ${deed}`,
  );
  const keys = await fetch(`${story.url}/.well-known/jwks.json`);
  if (!keys.ok) throw new Error(`GET /.well-known/jwks.json answered ${keys.status}`);
  fs.writeFileSync(jwks, await keys.text(), { mode: 0o644 });
  const lines: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
  const code = await verifyReceipt([file, '--jwks', jwks, '--offline', '--artifact', deed], io);
  if (code !== 0) throw new Error(`the offline check of ${file} failed:\n${lines.join('\n')}`);
  // the verdict in plain words: the last line a label starts (its technical detail follows)
  const verdict = lines.findLast((l) => /^[A-Z]/.test(l)) ?? '';
  story.io.out(`   -> ${verdict.replace(/\.$/, '')}, exit 0`);
  story.io.out('      (offline it cannot see a revocation: --online $URL asks the service)');
}

async function anchor(story: Story, id: string): Promise<void> {
  step(story, 'Anchor: seal the log, then ask for the inclusion proof', 'npx receipts anchor run');
  await story.seal();
  story.io.out(`   $ curl -s -X POST $URL/api/v1/anchor/${id} -H "x-api-key: $KEY"`);
  const answer = await call(story, 'POST', `/api/v1/anchor/${id}`);
  expectOk(answer, 'POST /anchor/{id}');
  const { status, logIndex, treeSize } = answer.body;
  story.io.out(`   -> ${String(status)} at log index ${String(logIndex)} of ${String(treeSize)}`);
}

async function revoke(story: Story, id: string): Promise<void> {
  const key = path.join(story.material.dir, 'issuer.pem');
  step(
    story,
    `Revoke the FLAG receipt, signed by the issuer ${DEMO_ISSUER}`,
    `npx receipts sign-revocation --issuer ${DEMO_ISSUER} --key-file ${key} --receipt ${id}   # then curl with the three headers (docs/cli.md, "Revoking with curl")`,
  );
  const h = signRevocation(story.material.issuerPem, DEMO_ISSUER, id, new Date().toISOString());
  const answer = await call(story, 'POST', `/api/v1/receipt/${id}/revoke`, {
    headers: {
      'x-issuer-id': h.issuerId,
      'x-signature-timestamp': h.timestamp,
      'x-issuer-signature': h.signature,
    },
  });
  expectOk(answer, 'POST /receipt/{id}/revoke');
  story.io.out(`   -> ${String(answer.body.result)} by ${String(answer.body.issuerId)}`);
}

/** The whole story, in order; throws (naming the step) if the service answers otherwise. */
export async function tellStory(story: Story): Promise<void> {
  const { io, material } = story;
  io.out(`URL=${story.url}`);
  io.out(`KEY=${material.apiKey}   # also in ${path.join(material.dir, 'api-key.txt')}`);
  const allow = await issue(
    story,
    'allow',
    'ALLOW: a real ES256 seal by a registered notary, the PDF itself',
  );
  const flag = await issue(
    story,
    'flag',
    'FLAG: the same deed with an opaque seal (no sealScheme: cannot be verified)',
  );
  await issue(story, 'block', 'BLOCK: a genuine seal, but over another document');
  step(
    story,
    'Fetch the stored receipt',
    `curl -s $URL/api/v1/receipt/${allow} -H "x-api-key: $KEY"`,
  );
  expectOk(await call(story, 'GET', `/api/v1/receipt/${allow}`), 'GET /receipt/{id}');
  story.io.out('   -> the signed receipt and its canonical form');
  const file = await pdf(story, allow);
  // re-verified once sealed: before, its proof would depend on whether the log's own timer
  // had sealed it yet
  await anchor(story, allow);
  await reverify(story, allow, 'Re-verify it later (hash, signature, revocation, anchor)');
  // the FLAG receipt is the one revoked: the ALLOW receipt and its PDF stay good to send
  await revoke(story, flag);
  await reverify(story, flag, 'Re-verify the FLAG receipt after revocation');
  await verifyOffline(story, file);
  io.out('');
  io.out(
    `Files: ${material.dir} (api-key.txt, notary.pem, notary.pub.pem, issuer.pem, sample-deed.pdf, *-request.json, jwks.json, the receipt PDF)`,
  );
}
