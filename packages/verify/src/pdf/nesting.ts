/**
 * How deep a PDF object may nest arrays and dictionaries. pdf-lib's object parser recurses once
 * per level, so a file of a few KiB of `[` would otherwise end in a stack overflow, at a depth
 * that differs between Node and each browser. A receipt's objects nest a few levels.
 */
export const MAX_OBJECT_DEPTH = 32;

const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const BACKSLASH = 0x5c;
const PERCENT = 0x25;
const LESS = 0x3c;
const GREATER = 0x3e;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether PDF object syntax (an object stream's decoded data, which holds no stream data) nests
 * arrays and dictionaries deeper than `max`. Strings and comments are skipped; an unbalanced
 * closing token only lowers the count, so the answer errs on the side of refusing.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b === OPEN_PAREN) i = afterLiteral(bytes, i + 1);
    else if (b === PERCENT) i = afterComment(bytes, i + 1);
    else if (b === LESS && bytes[i + 1] === LESS) {
      depth += 1;
      i += 2;
    } else if (b === LESS) i = bytes.indexOf(GREATER, i + 1) + 1 || bytes.length;
    else if (b === GREATER && bytes[i + 1] === GREATER) {
      depth -= 1;
      i += 2;
    } else {
      if (b === OPEN_BRACKET) depth += 1;
      if (b === CLOSE_BRACKET) depth -= 1;
      i += 1;
    }
    if (depth > max) return true;
  }
  return false;
}

/** The offset after a literal string's closing parenthesis (balanced pairs nest inside). */
function afterLiteral(bytes: Uint8Array, from: number): number {
  let open = 1;
  let i = from;
  while (i < bytes.length && open > 0) {
    const b = bytes[i] ?? 0;
    if (b === BACKSLASH) i += 1;
    else if (b === OPEN_PAREN) open += 1;
    else if (b === CLOSE_PAREN) open -= 1;
    i += 1;
  }
  return i;
}

function afterComment(bytes: Uint8Array, from: number): number {
  let i = from;
  while (i < bytes.length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i += 1;
  return i;
}
