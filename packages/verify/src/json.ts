/**
 * JSON from untrusted bytes, with its nesting bounded. `JSON.parse` itself reads any depth, but
 * what walks the result recursively (RFC 8785 canonicalisation, `JSON.stringify` of a report)
 * overflows the stack on a few MiB of `[`. A receipt, a status statement or a JWK Set nests a
 * few levels; deeper input is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 64;

export type JsonRead = { ok: true; value: unknown } | { ok: false; reason: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text opens more than `max` arrays or objects at once (strings skipped). */
export function jsonNestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/** JSON.parse, refusing text that nests deeper than MAX_JSON_DEPTH. */
export function parseJsonBounded(text: string): JsonRead {
  if (jsonNestsDeeperThan(text)) {
    return { ok: false, reason: `nests deeper than ${MAX_JSON_DEPTH} levels` };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
}

/** Whether a value (parsed JSON or built from it) nests deeper than `max`, walked without recursion. */
export function valueNestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const todo: Array<[unknown, number]> = [[value, 0]];
  while (todo.length > 0) {
    const [item, depth] = todo.pop() as [unknown, number];
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) todo.push([child, depth + 1]);
  }
  return false;
}
