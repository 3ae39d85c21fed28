/**
 * Examples for the OpenAPI document (Swagger UI shows them for every operation): real answers
 * of the service, captured from one run, so they have the shapes and formats clients will see.
 */

export const VERIFICATION_REQUEST_EXAMPLE = {
  bundleId: 'bundle-42',
  transactionType: 'deed-transfer',
  ron: {
    provider: 'ExampleRON',
    notaryId: 'N-1001',
    commissionState: 'TX',
    sealPayload:
      'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJub3RhcnlJZCI6Ik4tMTAwMSIsImNvbW1pc3Npb25TdGF0ZSI6IlRYIiwiZG9jSGFzaCI6InNoYTI1NjozNjE2NDQ3MDdlYjc5YTY2OTU5MTZhNGQxMmZmNzdiZTY2ZGNlYTM1MThmZjc2ZmJlNjhmMzliNzg2NzRiZTkwIiwiaWF0IjoxNzk1NTQ5NjM3fQ.MnOHQY0A1GLYdAMUKamlCXjqVUcyMWxPcmBszCLEsKXamZx2fjcdBbDtpa0sww9hKhimC4s4b0vVUEiqu2v4iw',
    sealScheme: 'SIM-ECDSA-v1',
  },
  doc: {
    docHash: 'sha256:361644707eb79a6695916a4d12ff77be66dcea3518ff76fbe68f39b78674be90',
  },
  policy: {
    profile: 'ron-standard-v1',
  },
  property: {
    parcelId: 'R-100-200',
    county: 'Travis',
    state: 'TX',
  },
  ocrData: {
    notaryName: 'Jane Q. Notary',
    notaryCommissionId: 'N-1001',
  },
  registryScreening: {
    subjectName: 'Alice Ordinary Buyer',
    sourceIds: ['sample-synthetic'],
  },
  timestamp: '2026-11-24T19:47:17.065Z',
} as const;

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

export const ANCHOR_STATE_EXAMPLE = {
  status: 'ANCHORED',
  anchoredAt: '2026-11-24T19:47:16.997Z',
  subjectDigest: 'sha256:93f7270fdb1d79ff62908df91168b4825dcb43362fbff8361ce9dc09fc9d094d',
  subjectVersion: 'rfc9162-sha256-v1',
  logIndex: 0,
  treeSize: 1,
  rootHash: 'sha256:93f7270fdb1d79ff62908df91168b4825dcb43362fbff8361ce9dc09fc9d094d',
  inclusionProof: [],
  checkpoint:
    'receipts.example.com/log\n1\nk/cnD9sdef9ikI35EWi0gl3LQzYvv/g2HOncCfydCU0=\n\n\u2014 receipts.example.com/log yFwuxBINoMvRgMKbpkK/s6IPcHoaUOdlbzC02GhLjhtn6+CHfC1tp1kcQsn6OKzHdTl3q41PmrIrKA+jSS5dwLOr0AU=\n',
} as const;

export const LOG_CHECKPOINT_EXAMPLE = {
  origin: 'receipts.example.com/log',
  treeSize: 1,
  rootHash: 'sha256:93f7270fdb1d79ff62908df91168b4825dcb43362fbff8361ce9dc09fc9d094d',
  checkpoint:
    'receipts.example.com/log\n1\nk/cnD9sdef9ikI35EWi0gl3LQzYvv/g2HOncCfydCU0=\n\n\u2014 receipts.example.com/log yFwuxBINoMvRgMKbpkK/s6IPcHoaUOdlbzC02GhLjhtn6+CHfC1tp1kcQsn6OKzHdTl3q41PmrIrKA+jSS5dwLOr0AU=\n',
  createdAt: '2026-11-24T19:47:16.997Z',
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
