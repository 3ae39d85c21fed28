/**
 * The text a content stream shows (ISO 32000-1 §9.4), as lines: each text object (BT … ET) and
 * each move to a new line starts a line, and the strings of one TJ array are one piece of text.
 * Bytes map to characters by WinAnsiEncoding, the encoding of the standard fonts the service's
 * PDFs use. Everything else in the stream (paths, colours, images) is skipped.
 *
 * The content is the attacker's: a few KiB of Flate data decode to megabytes of `[`, each one an
 * array kept until its operator. So arrays nest at most MAX_ARRAY_DEPTH deep and an operator
 * holds at most MAX_HELD_OPERANDS operands, nested ones included; content past either bound is
 * refused, which also bounds the recursion of `shown`.
 */

/** Operators that start a new line of text. */
const NEW_LINE = new Set(['BT', 'ET', 'Td', 'TD', 'Tm', 'T*']);

/** WinAnsiEncoding of bytes 0x80–0x9f; the rest is Latin-1. */
const WIN_ANSI_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

type Operand = number | string | Uint8Array | Operand[];

export type ContentText = { ok: true; lines: string[] } | { ok: false; reason: string };

/** Arrays inside arrays (a TJ array is one level; a receipt has no deeper one). */
export const MAX_ARRAY_DEPTH = 8;
/** Operands held for one operator, array elements included (a kerned TJ line holds a few hundred). */
export const MAX_HELD_OPERANDS = 65_536;

/** Content refused by a bound; caught in contentText, never seen outside this module. */
class Refused extends Error {}

export function contentText(bytes: Uint8Array): ContentText {
  const lines: string[] = [];
  let line = '';
  const flush = (): void => {
    if (line !== '') lines.push(line);
    line = '';
  };
  try {
    new Tokenizer(bytes).run((operator, operands) => {
      if (NEW_LINE.has(operator) || operator === "'" || operator === '"') flush();
      if (operator === 'Tj' || operator === "'" || operator === '"' || operator === 'TJ') {
        line += shown(operands[operands.length - 1], 0);
      }
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
  flush();
  return { ok: true, lines };
}

/** The text of a string operand, or of the strings of an array operand (TJ), nested or not. */
function shown(operand: Operand | undefined, depth: number): string {
  if (operand instanceof Uint8Array) return winAnsi(operand);
  // the tokenizer nests no deeper than MAX_ARRAY_DEPTH; the check keeps this true on its own
  if (Array.isArray(operand) && depth < MAX_ARRAY_DEPTH) {
    return operand.map((part) => shown(part, depth + 1)).join('');
  }
  return '';
}

function winAnsi(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) {
    text +=
      byte >= 0x80 && byte < 0xa0 ? WIN_ANSI_HIGH.charAt(byte - 0x80) : String.fromCharCode(byte);
  }
  return text;
}

const isSpace = (b: number): boolean =>
  b === 32 || b === 10 || b === 13 || b === 9 || b === 12 || b === 0;
/** ( ) < > [ ] { } / % */
const isDelimiter = (b: number): boolean =>
  b === 40 ||
  b === 41 ||
  b === 60 ||
  b === 62 ||
  b === 91 ||
  b === 93 ||
  b === 123 ||
  b === 125 ||
  b === 47 ||
  b === 37;
const hexValue = (b: number): number =>
  b >= 48 && b <= 57 ? b - 48 : b >= 65 && b <= 70 ? b - 55 : b >= 97 && b <= 102 ? b - 87 : -1;

/** A number operand: digits with at most one point (ISO 32000-1 §7.3.3). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** Operands kept before an operator: more are dropped (a show operator takes one). */
const MAX_OPERANDS = 64;

/** A single pass over the content syntax: operands, then the operator that takes them. */
class Tokenizer {
  private pos = 0;
  private readonly stack: Operand[][] = [[]];
  /** Operands held in open arrays since the last operator. */
  private held = 0;

  constructor(private readonly bytes: Uint8Array) {}

  run(onOperator: (operator: string, operands: Operand[]) => void): void {
    const bytes = this.bytes;
    while (this.pos < bytes.length) {
      const b = bytes[this.pos] ?? 0;
      if (isSpace(b)) this.pos += 1;
      else if (b === 37) this.skipComment();
      else if (b === 40) this.push(this.literal());
      else if (b === 60 && bytes[this.pos + 1] === 60) this.pos += 2;
      else if (b === 60) this.push(this.hex());
      else if (b === 91) this.openArray();
      else if (b === 93) this.closeArray();
      else if (b === 47) this.push(this.word(this.pos + 1));
      else if (isDelimiter(b)) this.pos += 1;
      else this.operatorOrNumber(onOperator);
    }
  }

  private operatorOrNumber(onOperator: (operator: string, operands: Operand[]) => void): void {
    const token = this.word(this.pos);
    if (NUMBER.test(token)) {
      this.push(Number(token));
      return;
    }
    const operands = this.stack[0] ?? [];
    this.stack.length = 1;
    this.stack[0] = [];
    this.held = 0;
    if (token === 'ID') this.skipInlineImage();
    onOperator(token, operands);
  }

  private push(operand: Operand): void {
    const top = this.stack[this.stack.length - 1];
    if (!top || (this.stack.length === 1 && top.length >= MAX_OPERANDS)) return;
    if (this.stack.length > 1 && ++this.held > MAX_HELD_OPERANDS) {
      throw new Refused(
        `the PDF's page content has an array of more than ${MAX_HELD_OPERANDS} operands`,
      );
    }
    top.push(operand);
  }

  private openArray(): void {
    this.pos += 1;
    if (this.stack.length > MAX_ARRAY_DEPTH) {
      throw new Refused(`the PDF's page content nests arrays more than ${MAX_ARRAY_DEPTH} deep`);
    }
    this.stack.push([]);
  }

  private closeArray(): void {
    this.pos += 1;
    if (this.stack.length > 1) this.push(this.stack.pop() ?? []);
  }

  /** A run of regular characters from `start` (a name without its slash, a number, an operator). */
  private word(start: number): string {
    let end = start;
    while (end < this.bytes.length) {
      const b = this.bytes[end] ?? 0;
      if (isSpace(b) || isDelimiter(b)) break;
      end += 1;
    }
    // An operator or number is short; a long run is not one and is skipped in bounded pieces.
    let text = '';
    for (let i = start; i < Math.min(end, start + 128); i += 1) {
      text += String.fromCharCode(this.bytes[i] ?? 0);
    }
    this.pos = Math.max(end, start + 1);
    return text;
  }

  private skipComment(): void {
    while (
      this.pos < this.bytes.length &&
      this.bytes[this.pos] !== 10 &&
      this.bytes[this.pos] !== 13
    ) {
      this.pos += 1;
    }
  }

  /** Inline image data (BI … ID data EI) is binary: skip to the EI that follows whitespace. */
  private skipInlineImage(): void {
    const bytes = this.bytes;
    let i = this.pos + 1;
    while (i + 2 < bytes.length) {
      const ends = i + 3 >= bytes.length || isSpace(bytes[i + 3] ?? 0);
      if (isSpace(bytes[i] ?? 0) && bytes[i + 1] === 69 && bytes[i + 2] === 73 && ends) break;
      i += 1;
    }
    this.pos = i + 3;
  }

  private hex(): Uint8Array {
    const out: number[] = [];
    let high = -1;
    this.pos += 1;
    while (this.pos < this.bytes.length && this.bytes[this.pos] !== 62) {
      const value = hexValue(this.bytes[this.pos++] ?? 0);
      if (value < 0) continue;
      if (high < 0) high = value;
      else {
        out.push(high * 16 + value);
        high = -1;
      }
    }
    if (high >= 0) out.push(high * 16);
    this.pos += 1;
    return Uint8Array.from(out);
  }

  private literal(): Uint8Array {
    const out: number[] = [];
    let depth = 1;
    this.pos += 1;
    while (this.pos < this.bytes.length) {
      const b = this.bytes[this.pos++] ?? 0;
      if (b === 92) this.escape(out);
      else if (b === 40) depth += 1;
      else if (b === 41) depth -= 1;
      if (depth === 0) break;
      if (b !== 92) out.push(b);
    }
    return Uint8Array.from(out);
  }

  private escape(out: number[]): void {
    const b = this.bytes[this.pos++] ?? 0;
    const simple: Record<number, number> = { 110: 10, 114: 13, 116: 9, 98: 8, 102: 12 };
    if (b >= 48 && b <= 55) {
      let value = b - 48;
      for (let n = 0; n < 2; n += 1) {
        const next = this.bytes[this.pos] ?? 0;
        if (next < 48 || next > 55) break;
        value = value * 8 + next - 48;
        this.pos += 1;
      }
      out.push(value & 0xff);
    } else if (b === 13) {
      if (this.bytes[this.pos] === 10) this.pos += 1;
    } else if (b !== 10) out.push(simple[b] ?? b);
  }
}
