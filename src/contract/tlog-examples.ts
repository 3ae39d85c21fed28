import { LOG_VKEY_EXAMPLE } from './examples.js';
import { LOG_CHECKPOINT_NOTE_EXAMPLE } from './log-examples.js';

/**
 * Examples of the C2SP text files the log serves, consistent with the other log examples: the
 * tlog-proof is entry 0 of the tree of size 3 whose signed checkpoint is
 * LOG_CHECKPOINT_NOTE_EXAMPLE (its two hashes are the consistency proof from size 1, which for
 * entry 0 is also its inclusion proof), and the policy pins LOG_VKEY_EXAMPLE.
 */

export const TLOG_PROOF_EXAMPLE = `c2sp.org/tlog-proof@v1
index 0
gCdY6Zv0DytkdaWXCDm1b9Q541iy0OjwaeZD0+48sHs=
10BSuPkEYXNTrV5QMPeAcQxTYxeykTFNWR7mNtT7/is=

${LOG_CHECKPOINT_NOTE_EXAMPLE}`;

export const LOG_POLICY_EXAMPLE = `log ${LOG_VKEY_EXAMPLE.trim()}
witness witness.example.org witness.example.org+41f16e5f+BD5dajf+AaAvjuOF+JiI1DbhpJ/YyI/1+yvhjaegHOEz
witness witness.example.net witness.example.net+3c977a3f+BLb6xnZ1rFuMb+FbnvfSFY9XAC9krUsVWjjqgjwjZxtD
group witnesses 1 witness.example.org witness.example.net
quorum witnesses
`;
