import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvParseError, parseCsv } from '../../src/screening/csv.js';

describe('parseCsv', () => {
  it('splits records and fields', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('accepts CRLF, LF and CR line breaks and a missing final break', () => {
    expect(parseCsv('a,b\r\n1,2\r3,4\n5,6')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ]);
  });

  it('keeps empty fields, including leading and trailing ones', () => {
    expect(parseCsv(',a,,\n')).toEqual([['', 'a', '', '']]);
  });

  it('reads quoted fields with commas, doubled quotes and embedded line breaks', () => {
    expect(parseCsv('"DOE, John","say ""hi""","line1\r\nline2"\nnext,"",x')).toEqual([
      ['DOE, John', 'say "hi"', 'line1\r\nline2'],
      ['next', '', 'x'],
    ]);
  });

  it('keeps a quote inside an unquoted field literally', () => {
    expect(parseCsv('O"Brien,x\n')).toEqual([['O"Brien', 'x']]);
  });

  it('ignores a byte order mark, blank lines and trailing DOS end-of-file bytes', () => {
    expect(parseCsv('\uFEFFa,b\n\n1,2\r\n\u001A')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsv('')).toEqual([]);
  });

  it('rejects an unterminated quoted field, naming the line it starts on', () => {
    expect(() => parseCsv('a\n"open,\nstill open')).toThrow(CsvParseError);
    expect(() => parseCsv('a\n"open,\nstill open')).toThrow(/line 2/);
  });

  it('rejects text after a closing quote, naming its line', () => {
    expect(() => parseCsv('ok\n"x\ny"z,1')).toThrow(
      /unexpected character after closing quote \(line 3\)/,
    );
  });

  it('parses what an RFC 4180 writer produces', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'Z', ',', '"', '\n', '\r\n', ' ', 'é') });
    const record = fc.array(field, { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 5 }), (records) => {
        const text = records
          .map((r) => r.map((f) => `"${f.replaceAll('"', '""')}"`).join(','))
          .join('\r\n');
        expect(parseCsv(text)).toEqual(records);
      }),
    );
  });
});
