import { z } from 'zod';
import { LEAF_VERSION } from '@verification-receipts/verify/internals';

/**
 * A bundle's `logEntry` (docs/verification.md): where the receipt sits in the log and the
 * evidence, under a signed checkpoint. Also in an issuing answer given `Prefer: wait=N`.
 */
const Sha256Wire = z.string().regex(/^sha256:[0-9a-f]{64}$/);

export const BundleLogEntry = z.strictObject({
  origin: z.string().describe("The log's origin line (its identity)"),
  noteVerifierKey: z.string().describe('C2SP signed-note verifier key of the checkpoints'),
  leafVersion: z.literal(LEAF_VERSION),
  logIndex: z.number().int().min(0),
  treeSize: z.number().int().min(1),
  rootHash: Sha256Wire,
  inclusionProof: z.array(Sha256Wire).max(64).describe('RFC 9162 inclusion proof, leaf to root'),
  checkpoint: z.string().describe('C2SP tlog-checkpoint signed note of treeSize and rootHash'),
  timestamps: z
    .array(z.string())
    .max(8)
    .optional()
    .describe(
      'RFC 3161 time-stamp tokens (base64 DER) over the checkpoint as the log signed it (without cosignature lines)',
    ),
});

/**
 * What a `Prefer: wait=N, witnessed` answer found (only where the log's policy, `GET /log/policy`,
 * has a witness quorum): whether the answer's `logEntry.checkpoint` carries the cosignatures of
 * the quorum, and, when the wait ran out first, which part is missing.
 */
export const WitnessingState = z
  .strictObject({
    witnessed: z
      .boolean()
      .describe(
        "`logEntry.checkpoint` carries cosignatures of at least `quorum` of the policy's witnesses",
      ),
    quorum: z.number().int().min(1).describe('Cosignatures the log policy requires'),
    cosignedBy: z
      .array(z.string())
      .describe(
        "The policy's witnesses (key names) whose cosignature lines the checkpoint carries",
      ),
    missing: z
      .enum(['checkpoint', 'cosignatures'])
      .optional()
      .describe(
        'Absent when witnessed. `checkpoint`: the receipt is in no signed checkpoint yet (no `logEntry`); `cosignatures`: `logEntry` is under a checkpoint signed by the log with fewer than `quorum` witness cosignatures',
      ),
    missingWitnesses: z
      .array(z.string())
      .optional()
      .describe("With `missing`: the policy's witnesses that have not cosigned it"),
  })
  .meta({ id: 'WitnessingState' });
export type WitnessingState = z.infer<typeof WitnessingState>;
