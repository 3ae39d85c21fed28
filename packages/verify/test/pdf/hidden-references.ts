/**
 * Objects that hide references, or look like they hold some, the ways a hostile file would: each
 * with the object numbers a reader that parses PDF syntax (pdf-lib's parser, ISO 32000-1 7.3)
 * finds in it. A reader that matches `N G R` in raw bytes, or skips strings, comments and streams
 * carelessly, finds others. Used by the scanner's tests and as seeds of its fuzz target.
 */
export interface HiddenReference {
  how: string;
  /** The object's value, as written after `N 0 obj`. */
  text: string;
  /** The object numbers it refers to, sorted. */
  refs: number[];
}

export const HIDDEN_REFERENCES: HiddenReference[] = [
  {
    how: "after a string that ends in an escaped backslash (a reader taking \\) as an escaped ')' reads on)",
    text: '<< /A (x\\\\) /B 5 0 R >>',
    refs: [5],
  },
  {
    how: "after a string holding '%' (a reader taking it for a comment skips the line)",
    text: '<< /A (100%) /B 5 0 R >>',
    refs: [5],
  },
  {
    how: "after a comment holding '(' (a reader taking it for a string skips to a ')')",
    text: '<< /A 1 % (\n/B 5 0 R /C (x) >>',
    refs: [5],
  },
  {
    how: 'with comments between its parts',
    text: '<< /B 5 % five\n0 % zero\nR >>',
    refs: [5],
  },
  {
    how: 'with no space before its R, and a real generation',
    text: '[5 0R 6 0.0 R]',
    refs: [5, 6],
  },
  {
    how: 'as the indirect /Length of a stream',
    text: '<< /Length 5 0 R >>\nstream\nabc\nendstream',
    refs: [5],
  },
  {
    how: "after a stream whose data holds 'endstream ]' (its /Length reaches past it)",
    text: '[<< /Length 13 >>stream\nendstream ] x\nendstream 5 0 R]',
    refs: [5],
  },
  {
    how: "after a stream without a usable /Length whose data says 'upstream' (one more level to close)",
    text: '[<< /Length 99999 >>stream\nupstream\nendstream\nendstream 5 0 R]',
    refs: [5],
  },
  {
    how: 'in dictionaries and arrays nested four deep',
    text: '<< /A << /B [ << /C [ [ 5 0 R ] ] >> ] >> >>',
    refs: [5],
  },
  {
    how: 'under a key given twice (the dictionary keeps the last value only)',
    text: '<< /A 6 0 R /B 5 0 R /A 7 0 R >>',
    refs: [5, 7],
  },
  {
    how: 'under a key whose name is written with #-escapes',
    text: '<< /Len#67th 5 0 R /ByteR#61nge [0 1 2 3] >>\nstream\ndata\nendstream',
    refs: [5],
  },
  {
    how: 'nowhere: in a string, a hex string, a comment, a name and stream data',
    text: '<< /A (5 0 R) /B <35302052> % 5 0 R\n/C /5#200#20R /Length 5 >>stream\n5 0 R\nendstream',
    refs: [],
  },
];
