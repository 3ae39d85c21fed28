import { equalBytes, utf8 } from '../encoding.js';
import type { PinnedLog, PinnedWitness } from '../trust.js';
import { parseCosignerKey } from './cosignature.js';
import { parseVerifierKey, type VerifierKey } from './note.js';

/**
 * C2SP tlog-policy (https://c2sp.org/tlog-policy), read into the one shape this verifier
 * enforces: one log (an Ed25519 note key, its name the origin), and a quorum of k cosignatures
 * out of a set of witnesses (Ed25519 or ML-DSA-44 cosigner keys): `quorum none`, `quorum <witness>`, or `quorum <group>` of
 * witnesses only. Every line is checked as the spec says (names defined before use, no
 * duplicate keys or members, 1 <= k <= n); a quorum of nested groups is refused, not guessed.
 */

export type LogPolicyResult = { ok: true; log: PinnedLog } | { ok: false; reason: string };

export const MAX_POLICY_BYTES = 64 * 1024;
export const MAX_POLICY_WITNESSES = 100;
const MAX_POLICY_GROUPS = 100;

type Named =
  | { kind: 'witness'; witness: PinnedWitness }
  | { kind: 'group'; threshold: number; members: string[] };

interface State {
  logs: VerifierKey[];
  names: Map<string, Named>;
  witnesses: number;
  groups: number;
  quorum?: string;
}

/** Handles one line's items; returns why the line is refused, or undefined. */
type LineHandler = (items: string[], state: State) => string | undefined;

const THRESHOLD = /^[1-9][0-9]*$/;

const log: LineHandler = (items, state) => {
  if (items.length < 2 || items.length > 3) return 'expected "log <vkey> [<url>]"';
  const key = parseVerifierKey(items[1] ?? '');
  if (!key) return 'the log key is not an Ed25519 note verifier key (vkey of type 0x01)';
  if (state.logs.some((k) => equalBytes(k.publicKey, key.publicKey))) return 'duplicate log';
  if (state.logs.length > 0) return 'more than one log: this verifier checks one log';
  state.logs.push(key);
  return undefined;
};

/** Why `name` cannot be defined now, or undefined. */
const undefinable = (name: string, state: State): string | undefined =>
  name === 'none' || state.names.has(name) ? `the name ${name} is already defined` : undefined;

const witness: LineHandler = (items, state) => {
  if (items.length < 3 || items.length > 4) return 'expected "witness <name> <vkey> [<url>]"';
  const name = items[1] as string;
  const taken = undefinable(name, state);
  if (taken) return taken;
  const key = parseCosignerKey(items[2] ?? '');
  if (!key)
    return `the key of ${name} is not a cosigner vkey (type 0x04 Ed25519 or 0x06 ML-DSA-44)`;
  for (const named of state.names.values()) {
    if (named.kind === 'witness' && equalBytes(named.witness.publicKey, key.publicKey)) {
      return `duplicate witness key (${name})`;
    }
  }
  state.witnesses += 1;
  if (state.witnesses > MAX_POLICY_WITNESSES) return `more than ${MAX_POLICY_WITNESSES} witnesses`;
  state.names.set(name, { kind: 'witness', witness: key });
  return undefined;
};

const group: LineHandler = (items, state) => {
  const [, name = '', k = '', ...members] = items;
  if (members.length === 0) return 'expected "group <name> <all|any|k> <name>..."';
  const taken = undefinable(name, state);
  if (taken) return taken;
  for (const [i, member] of members.entries()) {
    if (member === 'none') return 'none cannot be a group member';
    if (!state.names.has(member)) return `${member} is not defined above`;
    if (members.indexOf(member) !== i) return `${member} is listed twice`;
  }
  const threshold = k === 'all' ? members.length : k === 'any' ? 1 : Number(k);
  if (!(k === 'all' || k === 'any' || THRESHOLD.test(k)) || threshold > members.length) {
    return `the threshold ${k} is not all, any or 1 to ${members.length}`;
  }
  state.groups += 1;
  if (state.groups > MAX_POLICY_GROUPS) return `more than ${MAX_POLICY_GROUPS} groups`;
  state.names.set(name, { kind: 'group', threshold, members });
  return undefined;
};

const quorum: LineHandler = (items, state) => {
  if (items.length !== 2) return 'expected "quorum <name>"';
  if (state.quorum !== undefined) return 'a second quorum line';
  const name = items[1] as string;
  if (name !== 'none' && !state.names.has(name)) return `${name} is not defined above`;
  state.quorum = name;
  return undefined;
};

const HANDLERS = new Map<string, LineHandler>([
  ['log', log],
  ['witness', witness],
  ['group', group],
  ['quorum', quorum],
]);

/** Why the file's octets are not a policy file (size, characters), or undefined. */
function shapeProblem(text: string): string | undefined {
  if (text.length > MAX_POLICY_BYTES || utf8(text).length > MAX_POLICY_BYTES) {
    return `larger than ${MAX_POLICY_BYTES} bytes`;
  }
  // tab and newline are the only control characters the spec allows (DEL is not 0x20-0x7E)
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f) {
      return 'a control character other than tab or newline';
    }
  }
  return undefined;
}

/** The witnesses and threshold the quorum line names, flattened to k of n witnesses. */
function quorumOf(state: State): { witnesses: PinnedWitness[]; quorum: number } | string {
  const name = state.quorum;
  if (name === undefined) return 'no quorum line';
  const named = state.names.get(name);
  if (name === 'none' || !named) return { witnesses: [], quorum: 0 };
  if (named.kind === 'witness') return { witnesses: [named.witness], quorum: 1 };
  const witnesses: PinnedWitness[] = [];
  for (const member of named.members) {
    const m = state.names.get(member);
    if (m?.kind !== 'witness') {
      return `the quorum group ${name} has the group ${member} as a member: nested groups are not supported`;
    }
    if (witnesses.some((w) => w.name === m.witness.name)) {
      return `two witnesses of ${name} share the key name ${m.witness.name}: their cosignatures cannot be told apart`;
    }
    witnesses.push(m.witness);
  }
  return { witnesses, quorum: named.threshold };
}

export function parseLogPolicy(text: string): LogPolicyResult {
  const shape = shapeProblem(text);
  if (shape) return { ok: false, reason: shape };
  const state: State = { logs: [], names: new Map(), witnesses: 0, groups: 0 };
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    const items = line.split(/[ \t]+/).filter((item) => item !== '');
    const keyword = items[0];
    if (keyword === undefined || keyword.startsWith('#')) continue;
    const handler = HANDLERS.get(keyword);
    const problem = handler ? handler(items, state) : `unknown line type ${keyword.slice(0, 40)}`;
    if (problem) return { ok: false, reason: `line ${i + 1}: ${problem}` };
  }
  const resolved = quorumOf(state);
  if (typeof resolved === 'string') return { ok: false, reason: resolved };
  const [key] = state.logs;
  if (!key) return { ok: false, reason: 'no log line: this verifier needs the log key' };
  return { ok: true, log: { origin: key.name, publicKey: key.publicKey, ...resolved } };
}
