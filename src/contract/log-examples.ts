/**
 * Examples of the log's answers for the OpenAPI document: an anchor state, checkpoints, a
 * consistency proof, the log's verifier key and a checkpoint's timestamps, captured from the
 * service like those of `examples.ts`.
 */

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

export const LOG_CONSISTENCY_EXAMPLE = {
  from: 1,
  to: 3,
  fromRoot: 'sha256:c6b00d4868ac17543106391823b09565716e87a383a88f0d451f729b02a1284b',
  toRoot: 'sha256:10076fb3bb55739e80c689ea2d0cfb6b280b50bee83a41d22fcf647f5b5ce80d',
  proof: [
    'sha256:802758e99bf40f2b6475a5970839b56fd439e358b2d0e8f069e643d3ee3cb07b',
    'sha256:d74052b8f904617353ad5e5030f780710c536317b291314d591ee636d4fbfe2b',
  ],
} as const;

export const LOG_CHECKPOINT_NOTE_EXAMPLE =
  'receipts.example.com/log\n3\nEAdvs7tVc56AxonqLQz7aygLUL7oOkHSL89kf1tc6A0=\n\n\u2014 receipts.example.com/log yOIVYG4iLOBoaFHm7RHUXhl00RVn2PtXt2CHoDfEAjHQ2no/c1pkvbmGyPRZMddMTA84pJnjl2t66QdfoRgrNf/Gwgw=\n';

export const CHECKPOINT_TIMESTAMPS_EXAMPLE = {
  treeSize: 3,
  timestamps: [
    {
      tsa: 'Example TSA',
      genTime: '2026-01-15T10:00:05.000Z',
      token:
        'MIIC5gYJKoZIhvcNAQcCoIIC1zCCAtMCAQMxDTALBglghkgBZQMEAgEwcgYLKoZIhvcNAQkQAQSgYwRhMF8CAQEGCSsGAQQBho0fATAvMAsGCWCGSAFlAwQCAQQgUYQGz+lUg7FQugikAdSSCWPvROUwIUweou0p9vrCpeECAwJoFhgPMjAyNjAxMTUxMDAwMDVaAggBAgMEBQYHCKCCATcwggEzMIHaoAMCAQICAWUwCgYIKoZIzj0EAwIwFTETMBEGA1UEAwwKRXhhbXBsZSBDQTAeFw0yNjAxMTQxMDAwMDVaFw0yNzAxMTUxMDAwMDVaMBYxFDASBgNVBAMMC0V4YW1wbGUgVFNBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEwxMOzeuwuXb9zcUHjOgpfTUjIUDKDG0BGz/Un7eZQB+NrIBakc/CkzrvWS21Ae5sT3gdgKdPVqyrxBeCHV8NkKMaMBgwFgYDVR0lAQH/BAwwCgYIKwYBBQUHAwgwCgYIKoZIzj0EAwIDSAAwRQIgW1mN/UFKgbDmfCWUovPAS4lJErXonmd5Q4BHje6frCMCIQCtYenvlOpqH1qp4N3GOqm+JnTllcfG0rSEe/gnStSv1zGCAQ4wggEKAgEBMBowFTETMBEGA1UEAwwKRXhhbXBsZSBDQQIBZTALBglghkgBZQMEAgGggYYwGgYJKoZIhvcNAQkDMQ0GCyqGSIb3DQEJEAEEMC8GCSqGSIb3DQEJBDEiBCA35RdVnnFlZ1BHFhZUuzB7aLPGPRkPjwVUqYgc6WrurjA3BgsqhkiG9w0BCRACLzEoMCYwJDAiBCD3+P+1nGAwsy1vUsEjk1dPl//lCE31Q4T7RZTjdKkMPjAKBggqhkjOPQQDAgRHMEUCIHjbA4SsNnZswaE6aArdepdaOJBIBJOObiMJFiu2VGPgAiEAgA9SGP4DQennaUskMqoWFAk+8DU6qaNGNYx9joojFfQ=',
    },
  ],
};
