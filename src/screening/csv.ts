import { ServiceError } from '../errors.js';
/**
 * RFC 4180 CSV parser: comma-separated fields, optional double-quoted fields that may contain
 * commas, CR/LF line breaks and doubled quotes (`""` = one `"`). Records end at CRLF, LF or CR.
 *
 * Tolerances for real list files, each deliberate:
 * - a leading UTF-8 byte order mark and a trailing DOS end-of-file byte (0x1A, present at the
 *   end of OFAC's sdn.csv) are ignored;
 * - a final line break does not start an empty record, and blank lines are skipped;
 * - a `"` inside an unquoted field is kept literally.
 * Anything else that breaks the grammar (text after a closing quote, an unterminated quote)
 * throws {@link CsvParseError} with the 1-based line number.
 */

export class CsvParseError extends ServiceError<'screening_list_unreadable'> {
  override name = 'CsvParseError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super('screening_list_unreadable', `${message} (line ${line})`);
  }
}

interface Cursor {
  text: string;
  pos: number;
  line: number;
}

/** Parse CSV text into records of raw field strings (no trimming, no type conversion). */
export function parseCsv(input: string): string[][] {
  const cursor: Cursor = { text: stripEnvelope(input), pos: 0, line: 1 };
  const records: string[][] = [];
  while (cursor.pos < cursor.text.length) {
    const record = readRecord(cursor);
    if (!(record.length === 1 && record[0] === '')) records.push(record);
  }
  return records;
}

const BOM = '\uFEFF';
const DOS_EOF = '\u001A';

function stripEnvelope(input: string): string {
  let end = input.length;
  while (end > 0 && input[end - 1] === DOS_EOF) end -= 1;
  return input.slice(input.startsWith(BOM) ? 1 : 0, end);
}

/** Read fields until the end of the record; consumes the record's line break. */
function readRecord(cursor: Cursor): string[] {
  const fields: string[] = [];
  for (;;) {
    fields.push(cursor.text[cursor.pos] === '"' ? readQuoted(cursor) : readUnquoted(cursor));
    const ch = cursor.text[cursor.pos];
    if (ch === ',') {
      cursor.pos += 1;
      continue;
    }
    consumeLineBreak(cursor);
    return fields;
  }
}

function readUnquoted(cursor: Cursor): string {
  const { text } = cursor;
  const start = cursor.pos;
  while (cursor.pos < text.length && !isDelimiter(text[cursor.pos])) cursor.pos += 1;
  return text.slice(start, cursor.pos);
}

function readQuoted(cursor: Cursor): string {
  const { text } = cursor;
  const startLine = cursor.line;
  let value = '';
  cursor.pos += 1;
  for (;;) {
    const next = text.indexOf('"', cursor.pos);
    if (next < 0) throw new CsvParseError('unterminated quoted field', startLine);
    value += text.slice(cursor.pos, next);
    cursor.line += countLineBreaks(text.slice(cursor.pos, next));
    cursor.pos = next + 1;
    if (text[cursor.pos] !== '"') break;
    value += '"';
    cursor.pos += 1;
  }
  if (cursor.pos < text.length && !isDelimiter(text[cursor.pos])) {
    throw new CsvParseError('unexpected character after closing quote', cursor.line);
  }
  return value;
}

function consumeLineBreak(cursor: Cursor): void {
  const { text } = cursor;
  if (text[cursor.pos] === '\r') cursor.pos += 1;
  if (text[cursor.pos] === '\n') cursor.pos += 1;
  cursor.line += 1;
}

function isDelimiter(ch: string | undefined): boolean {
  return ch === ',' || ch === '\n' || ch === '\r';
}

function countLineBreaks(text: string): number {
  return text.match(/\r\n|\r|\n/g)?.length ?? 0;
}
