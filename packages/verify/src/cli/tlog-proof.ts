import type { TrustRoot } from '../trust.js';
import { TlogProofError, withTlogProof as merge } from '../log/tlog-entry.js';
import { Usage } from './options.js';

/** The bundle with the log entry of a .tlog-proof file; a malformed proof is a usage error. */
export function withTlogProof(bundle: unknown, text: string, trust: TrustRoot): unknown {
  try {
    return merge(bundle, text, trust);
  } catch (err) {
    if (err instanceof TlogProofError) throw new Usage(`the tlog-proof: ${err.message}`);
    throw err;
  }
}
