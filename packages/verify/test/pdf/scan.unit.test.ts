import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_OBJECT_DEPTH } from '../../src/pdf/nesting.js';
import { ObjectReader } from '../../src/pdf/objects.js';
import { checkPdfRevisions } from '../../src/pdf/revision-check.js';
import { scanObject } from '../../src/pdf/scan.js';
import { HIDDEN_REFERENCES } from './hidden-references.js';
import { agreedReading } from './scan-oracle.js';

/**
 * The object scanner (src/pdf/scan.ts) reads what pdf-lib's parser reads: each reference an
 * attacker hides is found where pdf-lib finds it and nowhere else, and on generated PDF syntax
 * the two agree on every answer (pdf-lib's parse is the oracle: ./scan-oracle.ts).
 */
const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

describe('the object scanner', () => {
  for (const hidden of HIDDEN_REFERENCES) {
    it(`finds the references pdf-lib finds: ${hidden.how}`, () => {
      const reading = agreedReading(bytes(hidden.text));
      expect(reading).toMatchObject({ ok: true, refs: hidden.refs });
    });
  }

  it('reads a dictionary, a stream and their keys, names decoded', () => {
    const stream = scanObject(
      bytes('<< /Len#67th 3 /ByteR#61nge [0 1 2 3] >>stream\r\nabc\nendstream'),
    );
    expect(stream.kind).toBe('stream');
    expect([...stream.keys].sort()).toEqual(['ByteRange', 'Length']);
    const dict = scanObject(bytes('<< /Type /Sig /ByteRange [0 1 2 3] >> 1 0 obj'));
    expect(dict).toMatchObject({ kind: 'dict', used: 38 });
    expect(dict.keys.has('ByteRange')).toBe(true);
  });

  it(`reads ${MAX_OBJECT_DEPTH} nested arrays and dictionaries, and refuses one more`, () => {
    const nested = (depth: number) =>
      bytes(`${'[<< /A '.repeat(depth / 2)}1 0 R${'>>]'.repeat(depth / 2)}`);
    expect(agreedReading(nested(MAX_OBJECT_DEPTH))).toMatchObject({ ok: true, refs: [1] });
    expect(() => scanObject(nested(MAX_OBJECT_DEPTH + 2))).toThrow(/nests deeper than 32/);
    expect(agreedReading(nested(MAX_OBJECT_DEPTH + 2))).toEqual({ ok: false, deep: true });
  });

  it('reads an object stream member for its references without parsing it', () => {
    const members = '<< /A (x\\\\) /B 5 0 R >> << /C [6 0 R] >>';
    const header = '10 0 11 24 ';
    const stream = `<< /Type /ObjStm /N 2 /First ${header.length} /Length ${header.length + members.length} >>\nstream\n${header}${members}\nendstream`;
    const file = bytes(`%PDF-1.7\n12 0 obj\n${stream}\nendobj\n`);
    const reader = new ObjectReader(file);
    const holder = reader.at(9, 12).value;
    expect(reader.scanInStream(holder, 12, 0, 10).refs).toEqual([5]);
    expect(reader.scanInStream(holder, 12, 1, 11).refs).toEqual([6]);
  });

  it('charges every object scanned to one budget: objects nested in each other are not read again and again', async () => {
    // object k is a string holding object k + 1: reading each to its end costs the file again
    const levels = 4000;
    let text = '%PDF-1.7\n';
    const offsets: number[] = [];
    for (let k = 1; k <= levels; k += 1) {
      offsets.push(text.length);
      text += `${k} 0 obj (`;
    }
    text += `${')'.repeat(levels)}\nendobj\n`;
    const xref = text.length;
    const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    text += `xref\n0 ${levels + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${levels + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    expect(await checkPdfRevisions(bytes(text))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('takes too long to read object by object'),
    });
  });

  it('agrees with pdf-lib on generated PDF syntax (fast-check)', () => {
    fc.assert(
      fc.property(pdfText, (text) => {
        agreedReading(bytes(text));
      }),
      { numRuns: 3000 },
    );
  });
});

/** Separators, comments holding what looks like syntax, or nothing at all. */
const space = fc.constantFrom(
  ' ',
  '',
  '\n',
  '\r\n',
  '\t',
  '\0',
  '\f',
  '% c\n',
  ' % (x\r',
  ' %5 0 R\n',
);
/** Mostly what pdf-lib reads, now and then what it refuses. */
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 });
const number = mostly(
  fc.oneof(
    fc.integer({ min: -1000, max: 100_000 }).map(String),
    fc.constantFrom('0', '007', '-0', '+5', '.5', '5.', '-.25', '1.5', '99999999999999999999'),
  ),
  fc.constantFrom('-', '+', '.', '1-2', '2.3.4', '1e5', '9'.repeat(320), `1.${'0'.repeat(320)}`),
);
const reference = fc
  .tuple(fc.nat(40), space, fc.constantFrom('0', '1', '0.0', '-1', '+0'), space)
  .map(([n, a, g, b]) => `${n} ${a}${g}${b}R`);
const literal = fc
  .array(
    mostly(
      fc.constantFrom('a', ' ', '()', '(a)', '\\(', '\\)', '\\\\', '%', '5 0 R', '\n', '>>', ']'),
      fc.constantFrom('(', ')', '\\'),
    ),
    { maxLength: 8 },
  )
  .map((parts) => `(${parts.join('')})`);
const hex = mostly(fc.constantFrom('<>', '<35302052>', '<ab cd>', '<3e>'), fc.constant('<0'));
const name = fc.constantFrom(
  '/A',
  '/B',
  '/Length',
  '/Len#67th',
  '/Len#67Th',
  '/ByteRange',
  '/ByteR#61nge',
  '/ByteR#6e',
  '/W',
  '/5#200#20R',
  '/',
  '/a#2',
);
const keyword = fc.constantFrom('true', 'false', 'null', 'nullx', 'tru');
const streamData = fc
  .array(fc.constantFrom('x', 'endstream', 'stream', 'upstream', '5 0 R', '\n', '\r', '%', '>>'), {
    maxLength: 6,
  })
  .map((parts) => parts.join(''));
const streamKeyword = fc.constantFrom(
  'stream\r\n',
  'stream\n',
  'stream \r\n',
  'stream\r',
  'stream',
);
const streamEnd = fc.constantFrom(
  '\nendstream',
  '\r\nendstream',
  'endstream',
  '\rendstream',
  ' endstream',
  '',
);

const { value: pdfValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    number,
    { arbitrary: reference, weight: 2 },
    literal,
    hex,
    name,
    keyword,
    { arbitrary: tie('array'), weight: 3 },
    { arbitrary: tie('dict'), weight: 3 },
    { arbitrary: tie('stream'), weight: 2 },
  ),
  array: fc
    .array(fc.tuple(space, tie('value')), { maxLength: 6 })
    .map((items) => `[${items.map(([s, v]) => `${s}${String(v)}`).join(' ')}]`),
  dict: fc
    .array(fc.tuple(name, space, tie('value')), { maxLength: 5 })
    .map((entries) => `<<${entries.map(([k, s, v]) => `${k}${s}${String(v)}`).join(' ')}>>`),
  stream: fc
    .tuple(tie('dict'), streamKeyword, streamData, streamEnd, fc.integer({ min: -12, max: 12 }))
    .map(([dict, kw, data, end, off]) => {
      const length = off === 12 ? '9 0 R' : String(data.length + (off > 6 ? off - 6 : 0));
      return `${String(dict).slice(0, -2)} /Length ${length}>>${kw}${data}${end}`;
    }),
}));

const pdfText = fc
  .tuple(space, pdfValue, fc.constantFrom('', '\nendobj', ' 5 0 R', ' 7', '>>'))
  .map(([s, v, after]) => `${s}${String(v)}${after}`);
