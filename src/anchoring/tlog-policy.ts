import { CheckpointError } from './errors.js';

/**
 * C2SP tlog-policy (https://c2sp.org/tlog-policy) of this log: one `log <vkey>` line, one
 * `witness <name> <vkey>` line per configured witness (named after its key name), and the
 * quorum. A single witness that must cosign is the quorum itself; k of several is a group of
 * them with threshold k. Witness URLs are left out: a policy is for offline verification, and
 * submission prefixes may be internal addresses.
 */

export interface PolicyWitness {
  /** The witness's key name, which names it in the policy too. */
  name: string;
  /** Its cosigner vkey (c2sp.org/tlog-cosignature, type 0x04 Ed25519 or 0x06 ML-DSA-44). */
  vkey: string;
}

export interface PolicyInput {
  /** The log's note verifier key; its key name is the log's origin. */
  logVkey: string;
  witnesses: readonly PolicyWitness[];
  /** Cosignatures required (WITNESS_QUORUM); 0 when no witness is configured. */
  quorum: number;
}

/** A group name no witness uses: witnesses and groups share one namespace. */
function groupName(witnesses: readonly PolicyWitness[]): string {
  let name = 'witnesses';
  while (witnesses.some((w) => w.name === name)) name = `${name}-group`;
  return name;
}

function quorumLines(witnesses: readonly PolicyWitness[], quorum: number): string[] {
  if (witnesses.length === 0 || quorum === 0) return ['quorum none'];
  if (witnesses.length === 1) return [`quorum ${witnesses[0]?.name ?? ''}`];
  const group = groupName(witnesses);
  const members = witnesses.map((w) => w.name).join(' ');
  return [`group ${group} ${quorum} ${members}`, `quorum ${group}`];
}

export function formatLogPolicy(input: PolicyInput): string {
  const { logVkey, witnesses, quorum } = input;
  if (!Number.isSafeInteger(quorum) || quorum < 0 || quorum > witnesses.length) {
    throw new CheckpointError('invalid_input', `quorum ${quorum} of ${witnesses.length} witnesses`);
  }
  // `none` is predefined in a policy: a witness with that key name gets another local name
  const named = witnesses.map((w, i) =>
    w.name === 'none' ? { ...w, name: `witness-${i + 1}` } : w,
  );
  const lines = [
    `log ${logVkey}`,
    ...named.map((w) => `witness ${w.name} ${w.vkey}`),
    ...quorumLines(named, quorum),
  ];
  return `${lines.join('\n')}\n`;
}
