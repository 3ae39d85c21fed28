import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '@verification-receipts/verify/internals';
import { exercise, fuzz } from '../../packages/verify/test/fuzz/fuzz.js';
import type { FuzzTarget } from '../../packages/verify/test/fuzz/targets.js';
import { CHECK_REASONS } from '../../src/receipts/checks/catalogue.js';
import { checkDocumentSignatures } from '../../src/receipts/checks/document-signatures.js';
import { checkOcrConsistency } from '../../src/receipts/checks/ocr-consistency.js';
import { checkSeal } from '../../src/receipts/checks/ron-seal.js';
import { documentOf } from '../../src/receipts/commitment.js';
import type { CheckOutcome } from '../../src/receipts/types.js';
import { documentEvidence, type EvidenceInput } from '../../src/receipts/notarial/evidence.js';
import { NOTARY_ID, NOTARY_NAME, notarialFixtures } from '../helpers/notarial-deeds.js';
import { context, profile, request, sha256 } from './checks/helpers.js';

/**
 * The document path of issuance under `ron-pades-v1`, fuzzed: signed deeds (pdfsig, openssl cms,
 * edited, DSS-only, tampered, other signers) mutated by the verifier's fuzz harness, then read
 * and judged as issuance does (`documentEvidence`) and run through the three checks that read
 * it. Each answer must come within the harness's time bound as a catalogued outcome, and an
 * unreadable document must be one the reader refused, not an unexpected throw turned into one.
 */
const deeds = notarialFixtures();
const pades = profile('ron-pades-v1');
const labels: readonly string[] = CHECK_REASONS['doc.signatures'];

function input(bytes: Uint8Array): EvidenceInput {
  return {
    bytes,
    trust: { anchors: [deeds.root.der.toString('base64')], signer: 'certificate' },
    notary: {
      tenant: 'tenant-a',
      notaryId: NOTARY_ID,
      displayName: NOTARY_NAME,
      commissionState: 'TX',
      commissionExpires: '2099-12-31',
      publicKeyPem: String(
        new X509Certificate(deeds.notary.der).publicKey.export({ format: 'pem', type: 'spki' }),
      ),
      certificateDer: deeds.notary.der.toString('base64'),
    },
    now: new Date(),
  };
}

/** Issuance's reading and its three checks on one document; throws on a broken contract. */
async function issuanceOf(bytes: Uint8Array): Promise<CheckOutcome> {
  const evidence = await documentEvidence(input(bytes));
  if (evidence.kind === 'unreadable' && /could not be read to the end/.test(evidence.reason)) {
    throw new Error(`the reader threw: ${evidence.reason}`);
  }
  const buffer = Buffer.from(bytes);
  const ctx = await context({
    request: request((r) => {
      r.ron.notaryId = NOTARY_ID;
      r.ron.sealPayload = 'opaque';
      delete (r.ron as { sealScheme?: string }).sealScheme;
      delete r.ocrData;
      r.doc = { docHash: sha256(buffer), pdfBase64: buffer.toString('base64') };
    }),
    docHash: sha256(buffer),
    document: documentOf(buffer),
    notary: input(bytes).notary,
    profile: pades,
    documentEvidence: evidence,
  });
  const outcome = checkDocumentSignatures(ctx);
  if (outcome.status !== 'PASS' && !labels.includes(outcome.reason ?? '')) {
    throw new Error(`doc.signatures answered ${outcome.status} ${outcome.reason ?? ''}`);
  }
  if (evidence.kind === 'unreadable' && outcome.reason !== 'document_unreadable') {
    throw new Error(`an unreadable document gave ${outcome.reason ?? outcome.status}`);
  }
  for (const other of [checkSeal(ctx), checkOcrConsistency(ctx)]) {
    if (!['PASS', 'WARN', 'FAIL'].includes(other.status)) throw new Error(`${other.checkId}?`);
  }
  return outcome;
}

const target: FuzzTarget = {
  name: 'issuance-document',
  parser:
    'the document path of issuance: documentEvidence and doc.signatures, ron.seal, ocr.consistency',
  seeds: async () =>
    [
      deeds.signed,
      deeds.cmsSigned,
      deeds.twoSignatures,
      deeds.editedAfterSigning,
      deeds.dssAfterSigning,
      deeds.tampered,
      deeds.signedByOther,
      deeds.unsigned,
    ].map((b) => new Uint8Array(b)),
  run: issuanceOf,
  ciRuns: 60,
};

describe('the document path of issuance under ron-pades-v1', () => {
  it('answers the seeds as the checks expect', async () => {
    for (const seed of await target.seeds()) await exercise(target, seed);
    const reason = async (b: Buffer) => (await issuanceOf(new Uint8Array(b))).reason ?? 'PASS';
    expect(await reason(deeds.signed)).toBe('PASS');
    expect(await reason(deeds.editedAfterSigning)).toBe('document_modified_after_signing');
    expect(await reason(deeds.tampered)).toBe('document_signature_invalid');
  });

  it('answers every mutated deed within the bound, with a catalogued outcome', async () => {
    const report = await fuzz(target, { numRuns: target.ciRuns });
    expect(report.failure?.error, `seed ${report.seed}`).toBeUndefined();
    expect(report.runs).toBe(target.ciRuns);
  }, 120_000);

  it('refuses a document larger than the verifier reads, naming the bound', async () => {
    const big = new Uint8Array(MAX_DOCUMENT_BYTES + 1);
    big.set(deeds.signed);
    const evidence = await documentEvidence(input(big));
    expect(evidence).toEqual({
      kind: 'unreadable',
      reason: `the document is larger than ${MAX_DOCUMENT_BYTES} bytes, the verifier's bound`,
    });
  });
});
