import { LogError } from './errors.js';
import { isHash } from './merkle.js';

/**
 * C2SP tlog-proof (https://c2sp.org/tlog-proof): a text file proving that an entry is in a log,
 * verifiable offline. The header line, an optional `extra` line, `index <n>`, one base64 hash per
 * line from the leaf's sibling up to the root's child (RFC 6962 §2.1.1 order), an empty line,
 * then the checkpoint verbatim (a signed note, witness cosignatures included).
 */

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';

export interface TlogProofInput {
  index: number;
  proof: readonly Uint8Array[];
  /** The signed checkpoint note, ending in a newline. */
  checkpoint: string;
  /** Opaque, unauthenticated data; left out when absent (the spec omits the line then). */
  extra?: Uint8Array;
}

const base64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export function formatTlogProof(input: TlogProofInput): string {
  const { index, proof, checkpoint, extra } = input;
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new LogError('invalid_argument', 'the index must be a non-negative safe integer');
  }
  if (!proof.every(isHash)) throw new LogError('malformed_hash', 'proof hashes must be 32 bytes');
  if (!checkpoint.endsWith('\n') || !checkpoint.includes('\n\n')) {
    throw new LogError('invalid_argument', 'the checkpoint must be a signed note');
  }
  if (extra?.length === 0) throw new LogError('invalid_argument', 'extra data must not be empty');
  const lines = [
    TLOG_PROOF_HEADER,
    ...(extra ? [`extra ${base64(extra)}`] : []),
    `index ${index}`,
    ...proof.map(base64),
  ];
  return `${lines.join('\n')}\n\n${checkpoint}`;
}
