import { bounded, LIMITS } from '../contract/limits.js';

/**
 * RFC 7240 `Prefer`: the `wait` preference of the issuing endpoints. A client sending
 * `Prefer: wait=N` asks the answer to wait, at most N seconds (capped at MAX_PREFER_WAIT_SECONDS),
 * until the receipt is in a signed checkpoint, so that it carries the receipt's `logEntry`.
 * `Prefer: wait=N, witnessed` asks for more: a checkpoint that also carries the cosignatures of
 * the log policy's witness quorum (ignored where the log has no witnesses).
 */

/** The longest wait honoured: a request never holds its connection longer than this for a seal. */
export const MAX_PREFER_WAIT_SECONDS = 10;

/** One preference of the header: its name (lower case, tokens are case-insensitive) and value. */
interface Preference {
  name: string;
  value: string | undefined;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Splits on `sep` outside quoted strings (a quoted value may hold commas and semicolons). */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === sep) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `token [ BWS "=" BWS word ]`, or undefined when it is not that. */
function preferenceOf(text: string): Preference | undefined {
  const [head = ''] = splitOutsideQuotes(text, ';');
  const eq = head.indexOf('=');
  const name = (eq < 0 ? head : head.slice(0, eq)).trim();
  if (!TOKEN.test(name)) return undefined;
  if (eq < 0) return { name: name.toLowerCase(), value: undefined };
  const raw = head.slice(eq + 1).trim();
  const value = /^"(.*)"$/s.exec(raw)?.[1]?.replace(/\\(.)/gs, '$1') ?? raw;
  return { name: name.toLowerCase(), value };
}

/**
 * The `wait` preference of a request's `Prefer` header(s), in seconds and capped; undefined when
 * absent, malformed or 0. As RFC 7240 §2 says, only the first `wait` counts, and a preference the
 * server does not understand (or cannot read) is ignored, never an error.
 */
export function preferredWait(header: string | string[] | undefined): number | undefined {
  return preferencesOf(header).wait;
}

/** What the issuing endpoints read of a `Prefer` header. */
export interface LogPreferences {
  /** `wait=N` in seconds, capped; undefined when absent, malformed or 0. */
  wait: number | undefined;
  /**
   * The `witnessed` preference (a token without a value; `witnessed=true` too, not `=false`):
   * the wait is for a checkpoint cosigned by the witness quorum. Meaningless without `wait`.
   */
  witnessed: boolean;
}

/**
 * The `wait` and `witnessed` preferences of a request's `Prefer` header(s). As RFC 7240 §2 says,
 * only the first of each counts, and a preference the server does not understand (or cannot
 * read) is ignored, never an error.
 */
export function preferencesOf(header: string | string[] | undefined): LogPreferences {
  if (header === undefined) return { wait: undefined, witnessed: false };
  const text = Array.isArray(header) ? header.join(',') : header;
  // a header is bounded by Node's header size limit; a wait value longer than this is no number
  const preferences = splitOutsideQuotes(text, ',').map(preferenceOf);
  const wait = preferences.find((p) => p?.name === 'wait');
  const witnessed = preferences.find((p) => p?.name === 'witnessed');
  return {
    wait: waitSeconds(wait?.value),
    witnessed:
      witnessed !== undefined &&
      (witnessed.value === undefined || witnessed.value.toLowerCase() === 'true'),
  };
}

function waitSeconds(value: string | undefined): number | undefined {
  if (!value || !/^[0-9]{1,9}$/.test(value)) return undefined;
  const seconds = Math.min(Number(value), MAX_PREFER_WAIT_SECONDS);
  return seconds > 0 ? seconds : undefined;
}

/** The `Prefer` request header as the OpenAPI document describes it. */
export const PreferHeader = () =>
  bounded(LIMITS.prefer).optional().describe(PREFER_HEADER_DESCRIPTION);

const PREFER_HEADER_DESCRIPTION =
  'RFC 7240. `wait=N` (seconds, capped at 10): answer once the receipt is in a signed checkpoint, ' +
  'with its `logEntry` (inclusion proof and checkpoint), and say `Preference-Applied: wait=N`; ' +
  'when N seconds pass first, the answer is as without the header. `wait=N, witnessed`: answer ' +
  'once that checkpoint also carries the cosignatures of the witness quorum of `GET /log/policy` ' +
  '(they are lines of `logEntry.checkpoint`), say `Preference-Applied: wait=N, witnessed`, and ' +
  'describe what was found in `witnessing`; when N seconds pass first, the answer carries what ' +
  'exists (the proof under the signed checkpoint, or none) and `witnessing.missing` names what ' +
  'is missing (`checkpoint` or `cosignatures`). A log whose policy has no witness quorum ' +
  'ignores `witnessed`. Other preferences are ignored.';
