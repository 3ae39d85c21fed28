import { fromBase64, utf8 } from '../encoding.js';

/**
 * C2SP tlog-proof (https://c2sp.org/tlog-proof), parsed strictly: `c2sp.org/tlog-proof@v1`, an
 * optional `extra <base64>` line, `index <n>` (no leading zeroes), zero or more base64 SHA-256
 * hashes one per line (the RFC 6962 inclusion proof, leaf sibling first), an empty line, then the
 * checkpoint verbatim. Parsing checks the form only: the checkpoint's signatures, its origin and
 * the proof are verified afterwards, against what the relying party pins.
 */

export interface TlogProof {
  index: number;
  hashes: Uint8Array[];
  /** The signed checkpoint note, cosignatures included, exactly as the file carries it. */
  checkpoint: string;
  /** Opaque, unauthenticated data: never trusted by itself. */
  extra?: Uint8Array;
}

export type TlogProofResult = { ok: true; proof: TlogProof } | { ok: false; reason: string };

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
export const MAX_TLOG_PROOF_BYTES = 64 * 1024;
export const MAX_TLOG_PROOF_HASHES = 64;

const INDEX = /^index (0|[1-9][0-9]*)$/;
/** A signature line of a signed note: em dash, space, key name, space, base64. */
const SIGNATURE_LINE = /^\u2014 [^\s+]+ [A-Za-z0-9+/]+={0,2}$/u;

const fail = (reason: string): TlogProofResult => ({ ok: false, reason });

/** Why `text` cannot be a proof file as a whole (size, characters), or undefined. */
function shapeProblem(text: string): string | undefined {
  if (text.length > MAX_TLOG_PROOF_BYTES || utf8(text).length > MAX_TLOG_PROOF_BYTES) {
    return `larger than ${MAX_TLOG_PROOF_BYTES} bytes`;
  }
  if (text.includes('\r')) return 'carriage return in the file (lines end in LF only)';
  // signed notes allow no control character (below U+0020) but newline
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x0a) return 'control character in the file';
  }
  if (/[\ud800-\udfff]/u.test(text)) return 'not valid Unicode (a lone surrogate)';
  return undefined;
}

/** The checkpoint part: a signed note (text, a blank line, signature lines, final newline). */
function checkpointProblem(note: string): string | undefined {
  const blank = note.lastIndexOf('\n\n');
  if (note.length === 0 || note.startsWith('\n') || blank < 0 || !note.endsWith('\n')) {
    return 'the checkpoint is not a signed note';
  }
  const signatures = note.slice(blank + 2, -1).split('\n');
  if (!signatures.every((line) => SIGNATURE_LINE.test(line))) {
    return 'the checkpoint has a malformed signature line';
  }
  return undefined;
}

/** The proof hashes, each exactly one base64 SHA-256 hash. */
function parseHashes(lines: readonly string[], firstLine: number): Uint8Array[] | string {
  if (lines.length > MAX_TLOG_PROOF_HASHES) {
    return `${lines.length} proof hashes, more than ${MAX_TLOG_PROOF_HASHES}`;
  }
  const hashes: Uint8Array[] = [];
  for (const [i, line] of lines.entries()) {
    const hash = fromBase64(line);
    if (hash?.length !== 32) return `line ${firstLine + i}: not a base64 SHA-256 hash`;
    hashes.push(hash);
  }
  return hashes;
}

export function parseTlogProof(text: string): TlogProofResult {
  const shape = shapeProblem(text);
  if (shape) return fail(shape);
  const end = text.indexOf('\n\n');
  if (end < 0) return fail('no empty line before the checkpoint');
  const head = text.slice(0, end).split('\n');
  if (head[0] !== TLOG_PROOF_HEADER) return fail(`the first line is not ${TLOG_PROOF_HEADER}`);
  let at = 1;
  let extra: Uint8Array | undefined;
  if (head[at]?.startsWith('extra ')) {
    extra = fromBase64((head[at] as string).slice('extra '.length));
    if (!extra || extra.length === 0) return fail('line 2: extra is not non-empty base64');
    at += 1;
  }
  const index = INDEX.exec(head[at] ?? '')?.[1];
  if (index === undefined || !Number.isSafeInteger(Number(index))) {
    return fail(`line ${at + 1}: expected "index <decimal>"`);
  }
  const hashes = parseHashes(head.slice(at + 1), at + 2);
  if (typeof hashes === 'string') return fail(hashes);
  const checkpoint = text.slice(end + 2);
  const problem = checkpointProblem(checkpoint);
  if (problem) return fail(problem);
  const proof: TlogProof = { index: Number(index), hashes, checkpoint };
  return { ok: true, proof: extra ? { ...proof, extra } : proof };
}
