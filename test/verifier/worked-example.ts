import { receiptLeaf } from '../../src/anchoring/anchor-service.js';
import { signCheckpoint } from '../../src/anchoring/checkpoint.js';
import { verifierKey } from '../../src/anchoring/signed-note.js';
import { hashToWire, proofToWire } from '../../src/anchoring/wire.js';
import { buildBundle } from '../../src/receipts/bundle.js';
import { canonicalReceipt, sha256Digest } from '../../src/receipts/canonical.js';
import type { ReceiptRecord } from '../../src/receipts/ports.js';
import { createSigner } from '../../src/receipts/signer.js';
import type { StoredReceipt } from '../../src/receipts/types.js';
import { noteSignerOf } from '../../src/services.js';
import { referencePath, referenceRoot, sampleLeaves } from '../anchoring/reference.js';
import { rfc8032Test1Pem } from '../helpers/keys.js';

/**
 * The worked example of docs/verification.md, built with the service's own code from fixed
 * inputs: the RFC 8032 §7.1 TEST 1 key, a fixed receipt, and a log of three entries whose middle
 * one is the receipt. Ed25519 is deterministic, so the bundle is the same bytes every time.
 */
export const EXAMPLE_ORIGIN = 'receipts.example.com/receipts-log';

export async function workedExample() {
  const signer = createSigner(rfc8032Test1Pem());
  const unsigned = {
    receiptVersion: '1.0',
    receiptId: '2f1c7e4a-9b3d-4c58-8e21-6a0f5d9b7c13',
    createdAt: '2026-01-15T10:30:00.000Z',
    policyProfile: 'ron-standard-v1',
    inputsCommitment: `sha256:${'1'.repeat(64)}`,
    checks: [
      { checkId: 'doc.hash', status: 'PASS' as const, details: 'document bytes match docHash' },
      { checkId: 'ron.seal', status: 'PASS' as const, details: 'SIM-ECDSA-v1 seal verifies' },
    ],
    decision: 'ALLOW' as const,
    reasons: [],
    subject: {
      kind: 'ron-document',
      bundleId: 'BND-EXAMPLE-1',
      docHash: `sha256:${'2'.repeat(64)}`,
    },
  };
  const canonical = canonicalReceipt(unsigned as unknown as StoredReceipt);
  const receiptHash = sha256Digest(canonical);
  const signature = Buffer.from(signer.sign(Buffer.from(canonical, 'utf8'))).toString('base64url');
  const receipt = {
    ...unsigned,
    receiptHash,
    receiptSignature: { alg: 'EdDSA', kid: signer.kid, signature },
  } as unknown as StoredReceipt;

  const [first, , third] = sampleLeaves(3);
  const leaves = [first as Uint8Array, receiptLeaf(receiptHash), third as Uint8Array];
  const root = referenceRoot(leaves);
  const noteSigner = noteSignerOf(signer, EXAMPLE_ORIGIN);
  const checkpoint = await signCheckpoint(
    { origin: EXAMPLE_ORIGIN, treeSize: 3, rootHash: root },
    noteSigner,
  );
  const record = { receipt, anchor: { leafIndex: 1 } } as unknown as ReceiptRecord;
  const bundle = buildBundle(record, signer.publicJwk, {
    origin: EXAMPLE_ORIGIN,
    noteVerifierKey: verifierKey(noteSigner),
    inclusion: {
      logIndex: 1,
      treeSize: 3,
      rootHash: hashToWire(root),
      inclusionProof: proofToWire(referencePath(1, leaves)),
      checkpoint,
    },
  });
  return {
    bundle,
    values: {
      canonicalReceipt: canonical,
      receiptHash,
      kid: signer.kid,
      publicKeyX: signer.publicJwk.x,
      signature,
      leafHash: hashToWire(receiptLeaf(receiptHash)),
      rootHash: hashToWire(root),
      noteVerifierKey: verifierKey(noteSigner),
    },
  };
}
