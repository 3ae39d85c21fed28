import { z } from 'zod';
import { LEAF_VERSION } from '@verification-receipts/verify';

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
