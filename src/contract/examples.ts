/**
 * Examples for the OpenAPI document (Swagger UI shows them for every operation): real answers
 * of the service, captured from one run, so they have the shapes and formats clients will see.
 */
import { SAMPLE_VERIFICATION_REQUEST } from './sample-request.js';

/** The sample deed's request (src/contract/sample-request.ts): "Try it out" starts from it. */

export const VERIFICATION_REQUEST_EXAMPLE = SAMPLE_VERIFICATION_REQUEST;

export const VERIFICATION_RESPONSE_EXAMPLE = {
  receiptVersion: '1.0',
  status: 'clean',
  decision: 'ALLOW',
  reasons: [],
  receiptId: '29fc1090-9886-4336-bef5-c970e38e644c',
  receiptHash: 'sha256:f043f3bbdc11be2bebdc1c161b827f42d328fbe887617debf4a0200d53bd038a',
  receiptSignature: {
    alg: 'EdDSA',
    kid: 'fUAJ-ckuUWaxLL0F1mTIQCsz0rGHBm8ZH03L1WrGQTM',
    signature:
      'Yp2YrCEjy-xUQ3FNxUfaCThmIucemI22m4_DCiTwGB8cYk3RJesBQ8lmackiVpPGw0fpMo2zV40zCG4qQ9t9Cw',
  },
  anchor: {
    status: 'PENDING',
  },
  revocation: {
    status: 'ACTIVE',
  },
} as const;

export const VERIFICATION_STATUS_EXAMPLE = {
  verified: true,
  integrityVerified: true,
  signatureVerified: true,
  signatureStatus: 'verified',
  proofVerified: false,
  recomputedHash: 'sha256:f043f3bbdc11be2bebdc1c161b827f42d328fbe887617debf4a0200d53bd038a',
  storedHash: 'sha256:f043f3bbdc11be2bebdc1c161b827f42d328fbe887617debf4a0200d53bd038a',
  inputsCommitment: 'sha256:20a85b383be71aefaf5d1da81cfdf86144c1a7cfa4e00cfe5c759cf8ed450e75',
  receiptSignature: {
    alg: 'EdDSA',
    kid: 'fUAJ-ckuUWaxLL0F1mTIQCsz0rGHBm8ZH03L1WrGQTM',
  },
  revoked: false,
} as const;

export const RECEIPT_LIST_ITEM_EXAMPLE = {
  receiptId: '29fc1090-9886-4336-bef5-c970e38e644c',
  status: 'clean',
  decision: 'ALLOW',
  createdAt: '2026-11-24T19:47:16.951Z',
  anchorStatus: 'ANCHORED',
  revoked: false,
} as const;

export const REVOCATION_RESPONSE_EXAMPLE = {
  receiptStatus: 'revoked',
  result: 'REVOKED',
  issuerId: 'escrow-co',
} as const;

export const CI_REQUEST_EXAMPLE = {
  externalId: 'octo-org/widgets/8100123/1',
  headSha: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  subject: {
    kind: 'workflow_run',
    summary: 'CI run 8100123',
  },
  repository: {
    fullName: 'octo-org/widgets',
    htmlUrl: 'https://github.com/octo-org/widgets',
  },
  provenance: {
    eventName: 'push',
  },
} as const;

export const CI_RESPONSE_EXAMPLE = {
  receiptId: '75856d5c-a523-4c4a-a183-ef8b573db892',
  checkRunStatus: 'completed',
  receiptStatus: 'compliance_gap',
  conclusion: 'neutral',
  title: 'Provenance needs review (FLAG)',
  summary:
    'Decision: FLAG (status compliance_gap)\nReasons: identity_unverified\nReceipt: 75856d5c-a523-4c4a-a183-ef8b573db892\nReceipt hash: sha256:2441c7d5363a51a016b3b43e4d20b6e6c408c15e209c5e1335a7c2fa90cc3d70\nReceipt JSON: https://receipts.example.com/api/v1/receipt/75856d5c-a523-4c4a-a183-ef8b573db892\nReceipt PDF: https://receipts.example.com/api/v1/receipt/75856d5c-a523-4c4a-a183-ef8b573db892/pdf',
  verificationTimestamp: '2026-11-24T19:47:17.056Z',
  provenanceNote: 'anchor PENDING; signed receipt kid fUAJ-ckuUWaxLL0F1mTIQCsz0rGHBm8ZH03L1WrGQTM',
  detailsUrl: 'https://receipts.example.com/api/v1/receipt/75856d5c-a523-4c4a-a183-ef8b573db892',
} as const;

export const ERROR_RESPONSE_EXAMPLE = {
  error: 'validation_failed',
  message: 'request validation failed',
  details: [
    {
      in: 'body',
      path: 'bundleId',
      message: 'Too big: expected string to have <=256 characters',
    },
  ],
} as const;

export const VERIFICATION_RECEIPT_EXAMPLE = {
  receiptVersion: '1.0',
  status: 'compliance_gap',
  decision: 'FLAG',
  reasons: ['document_not_provided'],
  receiptId: '94f0cb87-1186-473b-9495-6257bd0398e3',
  receiptHash: 'sha256:cf16fa66b513cb40e011195a08b24b4dcb82b42b50c8cefa76b6b984f6c3b519',
  receiptSignature: {
    alg: 'EdDSA',
    kid: '4X-_1cWrd0DZn0IYmGMPTWaFWYxrp1uN4HiKF9D4aaM',
    signature:
      'cverLALF_c8BjYBQ5vS7cvwhuCk9E4aK1VY0hpD55bq1NzCcVmfJ_7RRDn0SZkvroU9f10asKrjK_wNL61aTCg',
  },
  anchor: {
    status: 'PENDING',
    note: 'no proof artifact: resubmit with doc.pdfBase64 for this document to be anchored',
  },
  revocation: {
    status: 'ACTIVE',
  },
  receipt: {
    receiptVersion: '1.0',
    receiptId: '94f0cb87-1186-473b-9495-6257bd0398e3',
    createdAt: '2026-11-24T19:52:18.307Z',
    policyProfile: 'ron-standard-v1',
    inputsCommitment: 'sha256:765ce64ddf2b83d7b788eed106026249cc514676db698468fed8c96423b6da3a',
    checks: [
      {
        checkId: 'doc.hash',
        status: 'WARN',
        details:
          'no document bytes (doc.pdfBase64) supplied; declared sha256:361644707eb79a6695916a4d12ff77be66dcea3518ff76fbe68f39b78674be90 could not be recomputed',
      },
      {
        checkId: 'ron.seal',
        status: 'PASS',
        details:
          'SIM-ECDSA-v1 seal of notary "N-1001": ES256 signature valid with the registered key; notaryId, commissionState and docHash claims match the request; issued 2026-11-24T19:52:18.000Z',
      },
      {
        checkId: 'ron.commission',
        status: 'PASS',
        details:
          'registered commission TX valid through 2099-12-31 matches the request and is current on 2026-11-24 (UTC)',
      },
      {
        checkId: 'property.jurisdiction',
        status: 'PASS',
        details:
          'property in Texas (TX), county "Travis"; notary commissioned in the same jurisdiction',
      },
      {
        checkId: 'ocr.consistency',
        status: 'PASS',
        details:
          'OCR commission id "N-1001" matches ron.notaryId "N-1001"; OCR notary name "Jane Q. Notary" matches registered name "Jane Q. Notary" (similarity 1.000, threshold 0.92)',
      },
      {
        checkId: 'registry.screening',
        status: 'PASS',
        details:
          'subject "Alice Ordinary Buyer" screened against sample-synthetic (10 entries, sha256:20bfbe72cc5b7c5c8a53163ba1a914f649361c8b28c9a236c449894d525bd3b0): no match (strong >= 0.92, weak >= 0.8)',
      },
      {
        checkId: 'request.timestamp',
        status: 'PASS',
        details:
          'caller timestamp "2026-11-24T19:52:18.274Z", service time 2026-11-24T19:52:18.307Z: within bounds',
      },
    ],
    decision: 'FLAG',
    reasons: ['document_not_provided'],
    receiptHash: 'sha256:cf16fa66b513cb40e011195a08b24b4dcb82b42b50c8cefa76b6b984f6c3b519',
    receiptSignature: {
      alg: 'EdDSA',
      kid: '4X-_1cWrd0DZn0IYmGMPTWaFWYxrp1uN4HiKF9D4aaM',
      signature:
        'cverLALF_c8BjYBQ5vS7cvwhuCk9E4aK1VY0hpD55bq1NzCcVmfJ_7RRDn0SZkvroU9f10asKrjK_wNL61aTCg',
    },
    subject: {
      kind: 'ron-document',
      docHash: 'sha256:361644707eb79a6695916a4d12ff77be66dcea3518ff76fbe68f39b78674be90',
      bundleId: 'bundle-42',
      notaryId: 'N-1001',
      property: {
        state: 'TX',
        county: 'Travis',
        parcelId: 'R-100-200',
      },
      transactionType: 'deed-transfer',
    },
  },
  canonicalReceipt:
    '{"checks":[{"checkId":"doc.hash","details":"no document bytes (doc.pdfBase64) supplied; declared sha256:361644707eb79a6695916a4d12ff77be66dcea3518ff76fbe68f39b78674be90 could not be recomputed","status":"WARN"},{"checkId":"ron.seal","details":"SIM-ECDSA-v1 seal of notary \\"N-1001\\": ES256 signature valid with the registered key; notaryId, commissionState and docHash claims match the request; issued 2026-11-24T19:52:18.000Z","status":"PASS"},{"checkId":"ron.commission","details":"registered commission TX valid through 2099-12-31 matches the request and is current on 2026-11-24 (UTC)","status":"PASS"},{"checkId":"property.jurisdiction","details":"property in Texas (TX), county \\"Travis\\"; notary commissioned in the same jurisdiction","status":"PASS"},{"checkId":"ocr.consistency","details":"OCR commission id \\"N-1001\\" matches ron.notaryId \\"N-1001\\"; OCR notary name \\"Jane Q. Notary\\" matches registered name \\"Jane Q. Notary\\" (similarity 1.000, threshold 0.92)","status":"PASS"},{"checkId":"registry.screening","details":"subject \\"Alice Ordinary Buyer\\" screened against sample-synthetic (10 entries, sha256:20bfbe72cc5b7c5c8a53163ba1a914f649361c8b28c9a236c449894d525bd3b0): no match (strong >= 0.92, weak >= 0.8)","status":"PASS"},{"checkId":"request.timestamp","details":"caller timestamp \\"2026-11-24T19:52:18.274Z\\", service time 2026-11-24T19:52:18.307Z: within bounds","status":"PASS"}],"createdAt":"2026-11-24T19:52:18.307Z","decision":"FLAG","inputsCommitment":"sha256:765ce64ddf2b83d7b788eed106026249cc514676db698468fed8c96423b6da3a","policyProfile":"ron-standard-v1","reasons":["document_not_provided"],"receiptId":"94f0cb87-1186-473b-9495-6257bd0398e3","receiptVersion":"1.0","subject":{"bundleId":"bundle-42","docHash":"sha256:361644707eb79a6695916a4d12ff77be66dcea3518ff76fbe68f39b78674be90","kind":"ron-document","notaryId":"N-1001","property":{"county":"Travis","parcelId":"R-100-200","state":"TX"},"transactionType":"deed-transfer"}}',
  pdfUrl: '/api/v1/receipt/94f0cb87-1186-473b-9495-6257bd0398e3/pdf',
} as const;

export const PUBLIC_STATUS_EXAMPLE = {
  mediaType: 'application/vnd.verification-receipt.status+json;version=1',
  statement: {
    type: 'verification-receipt-status/v1',
    receiptHash: 'sha256:cf16fa66b513cb40e011195a08b24b4dcb82b42b50c8cefa76b6b984f6c3b519',
    status: 'active',
    anchor: {
      status: 'PENDING',
    },
    producedAt: '2026-11-24T19:52:18.376Z',
  },
  canonicalStatement:
    '{"anchor":{"status":"PENDING"},"producedAt":"2026-11-24T19:52:18.376Z","receiptHash":"sha256:cf16fa66b513cb40e011195a08b24b4dcb82b42b50c8cefa76b6b984f6c3b519","status":"active","type":"verification-receipt-status/v1"}',
  signature: {
    alg: 'EdDSA',
    kid: '4X-_1cWrd0DZn0IYmGMPTWaFWYxrp1uN4HiKF9D4aaM',
    signature:
      'FDPod-QTn22CyK8v8EdkQwwBKOefzpE3XOl467VmBscLCKQpPx5HI4G5X_fDiRVHNBz_5RLj6RMDyzpggYa7DA',
  },
} as const;

export const SIGSTORE_BUNDLE_EXAMPLE = {
  mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
  verificationMaterial: {
    publicKey: {
      hint: '4X-_1cWrd0DZn0IYmGMPTWaFWYxrp1uN4HiKF9D4aaM',
    },
    tlogEntries: [],
  },
  dsseEnvelope: {
    payload:
      'eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEiLCJzdWJqZWN0IjpbeyJuYW1lIjoiYnVuZGxlLTQyIiwiZGlnZXN0Ijp7InNoYTI1NiI6IjM2MTY0NDcwN2ViNzlhNjY5NTkxNmE0ZDEyZmY3N2JlNjZkY2VhMzUxOGZmNzZmYmU2OGYzOWI3ODY3NGJlOTAifX1dLCJwcmVkaWNhdGVUeXBlIjoiaHR0cHM6Ly9zbHNhLmRldi92ZXJpZmljYXRpb25fc3VtbWFyeS92MSIsInByZWRpY2F0ZSI6eyJ2ZXJpZmllciI6eyJpZCI6Imh0dHBzOi8vcmVjZWlwdHMuZXhhbXBsZS5jb20ifSwidGltZVZlcmlmaWVkIjoiMjAyNi0xMS0yNFQxOTo1MjoxOC4zMDdaIiwicmVzb3VyY2VVcmkiOiJ1cm46dmVyaWZpY2F0aW9uLXJlY2VpcHQ6ZG9jdW1lbnQ6c2hhMjU2OjM2MTY0NDcwN2ViNzlhNjY5NTkxNmE0ZDEyZmY3N2JlNjZkY2VhMzUxOGZmNzZmYmU2OGYzOWI3ODY3NGJlOTAiLCJwb2xpY3kiOnsidXJpIjoiaHR0cHM6Ly9yZWNlaXB0cy5leGFtcGxlLmNvbS9wb2xpY2llcy9yb24tc3RhbmRhcmQtdjEifSwiaW5wdXRBdHRlc3RhdGlvbnMiOlt7InVyaSI6Imh0dHBzOi8vcmVjZWlwdHMuZXhhbXBsZS5jb20vYXBpL3YxL3JlY2VpcHQvOTRmMGNiODctMTE4Ni00NzNiLTk0OTUtNjI1N2JkMDM5OGUzIiwiZGlnZXN0Ijp7InNoYTI1NiI6ImNmMTZmYTY2YjUxM2NiNDBlMDExMTk1YTA4YjI0YjRkY2I4MmI0MmI1MGM4Y2VmYTc2YjZiOTg0ZjZjM2I1MTkifX1dLCJ2ZXJpZmljYXRpb25SZXN1bHQiOiJGQUlMRUQiLCJ2ZXJpZmllZExldmVscyI6WyJGQUlMRUQiXSwic2xzYVZlcnNpb24iOiIxLjAifX0=',
    payloadType: 'application/vnd.in-toto+json',
    signatures: [
      {
        sig: 'ooaoihQKBbpCuH5f6esh3Q/Uq+6xzsgE7b6/iT3YrfMnosUS8CfJGzL8fgqfgphSRmUIkv/lIlgL5191rElzBg==',
        keyid: '4X-_1cWrd0DZn0IYmGMPTWaFWYxrp1uN4HiKF9D4aaM',
      },
    ],
  },
} as const;

/** A consistency proof, checkpoint and key of one log (three receipts), as served. */

/** The log's C2SP verifier key (GET /log/vkey). */
export const LOG_VKEY_EXAMPLE =
  'receipts.example.com/log+c8e21560+AT85pzhuxm99i7hBJ5nV0p44DBl7ki9J0cisCls3SrUK\n';

/** GET /.well-known/pdf-signing-cert.pem: a self-issued default certificate (PEM). */

export const PDF_SIGNING_CERT_EXAMPLE =
  '-----BEGIN CERTIFICATE-----\nMIIBxTCCAWugAwIBAgIQS27UxEVvVfZctDnMX2UdCzAKBggqhkjOPQQDAjBDMRkw\nFwYDVQQKDBBFeGFtcGxlIFRpdGxlIENvMSYwJAYDVQQDDB1FeGFtcGxlIFRpdGxl\nIENvIFBERiByZWNlaXB0czAgFw0yNjAxMTUwOTU5MDBaGA85OTk5MTIzMTIzNTk1\nOVowQzEZMBcGA1UECgwQRXhhbXBsZSBUaXRsZSBDbzEmMCQGA1UEAwwdRXhhbXBs\nZSBUaXRsZSBDbyBQREYgcmVjZWlwdHMwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC\nAAQrmlbQCCbItH1zfUwgNisajj9rMJMNmVNh24tGguNT8nlqKsX/eUrEQvPXq5Rn\nolZSBiaNx6PozUeQbFX+XwAooz8wPTAMBgNVHRMBAf8EAjAAMA4GA1UdDwEB/wQE\nAwIGwDAdBgNVHQ4EFgQUXDgsh+GcTJfntl5SHuo96NveSb8wCgYIKoZIzj0EAwID\nSAAwRQIgQL9Uk+p30gj3zRY5weMqlc9Y30xxCpCk1nWSi7U04RgCIQCu/xevpsPP\nJ9KDrMOG0x7HCifsqHFUwtqEKihoKje6Hg==\n-----END CERTIFICATE-----\n';

/** GET /log/timestamps/{treeSize}: one token (made by a test authority) over checkpoint 3. */

export const JWKS_EXAMPLE = {
  keys: [
    {
      kty: 'OKP',
      crv: 'Ed25519',
      x: 'PzmnOG7Gb32LuEEnmdXSnjgMGXuSL0nRyKwKWzdKtQo',
      kid: 'bQ4DtCnaOQw2YCK8eKBW-xV6Aa7A777NM4XMSCJlSMk',
      alg: 'EdDSA',
      use: 'sig',
    },
  ],
} as const;
