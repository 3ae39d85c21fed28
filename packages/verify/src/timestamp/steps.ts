import { parseBundle } from '../bundle.js';
import { fromBase64 } from '../encoding.js';
import { step, type Step } from '../steps.js';
import { keyAlgorithm } from './signature.js';
import { verifyTimestampToken } from './token.js';

/**
 * The `timestamps` step: the bundle's RFC 3161 tokens over its checkpoint, checked against the
 * TSA certificates the relying party pins (`--tsa-cert`). Each token must stamp the checkpoint as
 * the log signed it (the note up to the log's own signature line, without witness cosignatures)
 * and verify under a pinned certificate; one that does not is a FAIL. When all do, the earliest
 * stamped time is when the receipt provably existed (it is in that checkpoint).
 */

export interface IndependentTime {
  step: Step;
  /** The earliest time a pinned authority stamped, ISO 8601, with that authority. */
  earliest?: { time: string; tsa: string };
  /** The certificate of each authority whose token verified (for the evidence horizon). */
  authorities?: { name: string; notAfter: Date; algorithm: string }[];
}

export async function checkTimestamps(
  bundle: unknown,
  pinned: readonly Uint8Array[],
): Promise<IndependentTime> {
  const read = parseBundle(bundle);
  const entry = read.ok ? read.bundle.logEntry : undefined;
  const tokens = entry?.timestamps ?? [];
  if (!entry || tokens.length === 0) {
    return { step: step('timestamps', 'SKIP', 'no RFC 3161 time-stamp over the checkpoint') };
  }
  if (pinned.length === 0) {
    const detail = `${tokens.length} time-stamp token(s) not checked: pin the authority's certificate (--tsa-cert)`;
    return { step: step('timestamps', 'SKIP', detail) };
  }
  const data = new TextEncoder().encode(logSignedNote(entry.checkpoint, entry.origin));
  let earliest: IndependentTime['earliest'];
  const authorities: NonNullable<IndependentTime['authorities']> = [];
  for (const [i, text] of tokens.entries()) {
    const der = fromBase64(text);
    const check = der
      ? await verifyTimestampToken(der, { data, trusted: pinned })
      : { ok: false as const, reason: 'not base64' };
    if (!check.ok) {
      const detail = `time-stamp token ${i + 1} does not match its checkpoint: ${check.reason}`;
      return { step: step('timestamps', 'FAIL', detail) };
    }
    const { signer } = check;
    authorities.push({
      name: check.tsa,
      notAfter: signer.notAfter,
      algorithm: keyAlgorithm(signer.spki),
    });
    const time = check.genTime.toISOString();
    if (!earliest || time < earliest.time) earliest = { time, tsa: check.tsa };
  }
  const detail = `the receipt existed by ${earliest?.time} (${earliest?.tsa}; ${tokens.length} token(s) from pinned authorities)`;
  return {
    step: step('timestamps', 'PASS', detail),
    ...(earliest ? { earliest } : {}),
    authorities,
  };
}

/**
 * The note's text and the log's own signature lines (C2SP signed-note: `— <name> <sig>`, name
 * being the origin), without other signers' (witnesses') lines, which arrive after the stamp.
 */
export function logSignedNote(note: string, origin: string): string {
  const split = note.indexOf('\n\n');
  if (split < 0) return note;
  const body = note.slice(0, split + 2);
  const lines = note
    .slice(split + 2)
    .split('\n')
    .filter((line) => line.startsWith(`— ${origin} `));
  return `${body}${lines.map((l) => `${l}\n`).join('')}`;
}
