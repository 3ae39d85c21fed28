/**
 * The worked example of docs/verification.md (docs/examples/receipt-bundle.json, built by the
 * service code from fixed inputs and checked byte for byte by test/verifier/worked-example.test.ts),
 * shown in the OpenAPI document as the example of ReceiptBundle. A complete, anchored bundle that
 * verifies offline.
 */
export const RECEIPT_BUNDLE_EXAMPLE = {
  mediaType: 'application/vnd.verification-receipt.bundle+json;version=1',
  receipt: {
    receiptVersion: '1.0',
    receiptId: '2f1c7e4a-9b3d-4c58-8e21-6a0f5d9b7c13',
    createdAt: '2026-01-15T10:30:00.000Z',
    policyProfile: 'ron-standard-v1',
    inputsCommitment: 'sha256:1111111111111111111111111111111111111111111111111111111111111111',
    checks: [
      {
        checkId: 'doc.hash',
        status: 'PASS',
        details: 'document bytes match docHash',
      },
      {
        checkId: 'ron.seal',
        status: 'PASS',
        details: 'SIM-ECDSA-v1 seal verifies',
      },
    ],
    decision: 'ALLOW',
    reasons: [],
    subject: {
      kind: 'ron-document',
      bundleId: 'BND-EXAMPLE-1',
      docHash: 'sha256:2222222222222222222222222222222222222222222222222222222222222222',
    },
    receiptHash: 'sha256:0257db9ae04ccd47c7f1a4d98e19d73d708fdf8de80044861f0786758d389f9c',
    receiptSignature: {
      alg: 'EdDSA',
      kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
      signature:
        'ONZYs-ZX9m3oxb_vKA1VFmZvaCfaYWYHLTpDBejdcUoFf0Af7yXfOqaYteHygS1Ek9FPIyM89IDnO-EfIrm2Bg',
    },
  },
  canonicalReceipt:
    '{"checks":[{"checkId":"doc.hash","details":"document bytes match docHash","status":"PASS"},{"checkId":"ron.seal","details":"SIM-ECDSA-v1 seal verifies","status":"PASS"}],"createdAt":"2026-01-15T10:30:00.000Z","decision":"ALLOW","inputsCommitment":"sha256:1111111111111111111111111111111111111111111111111111111111111111","policyProfile":"ron-standard-v1","reasons":[],"receiptId":"2f1c7e4a-9b3d-4c58-8e21-6a0f5d9b7c13","receiptVersion":"1.0","subject":{"bundleId":"BND-EXAMPLE-1","docHash":"sha256:2222222222222222222222222222222222222222222222222222222222222222","kind":"ron-document"}}',
  verificationMaterial: {
    publicKey: {
      kty: 'OKP',
      crv: 'Ed25519',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
      kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
      alg: 'EdDSA',
    },
  },
  logEntry: {
    origin: 'receipts.example.com/receipts-log',
    noteVerifierKey:
      'receipts.example.com/receipts-log+6bd1822d+AddamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea',
    leafVersion: 'rfc9162-sha256-v1',
    logIndex: 1,
    treeSize: 3,
    rootHash: 'sha256:87df2740c9fbcdf09a35b0caa343094a87aa370b0620d1d7ec7427bf0d7cc7e8',
    inclusionProof: [
      'sha256:305df59f9590c3c9ac63d2b2743c388e3792449078cebf7fb3dbe6471643b2b7',
      'sha256:fca89f57c9f8c8eb4047a7ff9d333acf9e0f3384b20b255bceab0f216dcca267',
    ],
    checkpoint:
      'receipts.example.com/receipts-log\n3\nh98nQMn7zfCaNbDKo0MJSoeqNwsGINHX7HQnvw18x+g=\n\n— receipts.example.com/receipts-log a9GCLSZ60fF2MhYPh6Bzlm+7CLkBAmtB/kN2mG1z3MMLGHBSXtDJuiO84E1qiGFBlkdoXITfOMLtGxZoE7OC6naf2A8=\n',
  },
} as const;
