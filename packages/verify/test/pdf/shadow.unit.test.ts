import { describe, expect, it } from 'vitest';
import { readDocumentSignatures } from '../../src/pdf/document-signatures.js';
import { HIDDEN_REFERENCES } from './hidden-references.js';

/**
 * The shadow attack on a signed document: the signed revision refers to an object it does not
 * define (object 5, free), and a later revision fills it in, so what the document shows changes
 * without a byte of the signed revision changing. The revision reader must find that reference
 * however the signed object hides it (./hidden-references.ts), in the file's objects and in an
 * object stream, and name the filling in; an object nothing refers to may still be added after a
 * signature (signing software leaves such objects).
 */
const HOLE = 5;
const SIGNATURE = 6;
const placeholder = `[0 ${'0'.repeat(10)} ${'0'.repeat(10)} ${'0'.repeat(10)}]`;

/** Objects 1-8 but 5: the catalog, pages, a page, object 4 (`body`), the signature and its form. */
function objects(body: string, rangeKey = '/ByteRange'): Map<number, string> {
  return new Map([
    [1, '<< /Type /Catalog /Pages 2 0 R /AcroForm 7 0 R >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Annots [8 0 R] >>'],
    [4, body],
    [
      SIGNATURE,
      `<< /Type /Sig /SubFilter /adbe.pkcs7.detached ${rangeKey} ${placeholder} /Contents <${'0'.repeat(64)}> >>`,
    ],
    [7, '<< /Fields [8 0 R] >>'],
    [8, `<< /FT /Sig /T (Notary) /V ${SIGNATURE} 0 R /Rect [0 0 0 0] /P 3 0 R >>`],
  ]);
}

const row = (offset: number) => `${String(offset).padStart(10, '0')} 00000 n \n`;

/** Revision 1 with a cross-reference table: object 5 free. */
function tableFile(body: string, rangeKey?: string): { text: string; xref: number } {
  let text = '%PDF-1.7\n';
  const offsets = new Map<number, number>();
  for (const [num, value] of objects(body, rangeKey)) {
    offsets.set(num, text.length);
    text += `${num} 0 obj\n${value}\nendobj\n`;
  }
  const xref = text.length;
  const rows = Array.from({ length: 9 }, (_, n) =>
    offsets.has(n) ? row(offsets.get(n) ?? 0) : '0000000000 65535 f \n',
  );
  text += `xref\n0 9\n${rows.join('')}trailer\n<< /Size 9 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return { text, xref };
}

/** Revision 1 with object 4 in an object stream (9) and a cross-reference stream (10). */
function objectStreamFile(body: string): { text: string; xref: number } {
  let text = '%PDF-1.7\n';
  const offsets = new Map<number, number>();
  for (const [num, value] of objects(body)) {
    if (num === 4) continue;
    offsets.set(num, text.length);
    text += `${num} 0 obj\n${value}\nendobj\n`;
  }
  const header = '4 0 ';
  offsets.set(9, text.length);
  text += `9 0 obj\n<< /Type /ObjStm /N 1 /First ${header.length} /Length ${header.length + body.length} >>\nstream\n${header}${body}\nendstream\nendobj\n`;
  const xref = text.length;
  const field = (value: number, width: number) =>
    String.fromCharCode(
      ...Array.from({ length: width }, (_, i) => (value >> (8 * (width - 1 - i))) & 0xff),
    );
  const rows = Array.from({ length: 11 }, (_, n) => {
    if (n === 4) return `\x02${field(9, 4)}${field(0, 2)}`;
    const at = n === 10 ? xref : offsets.get(n);
    return at === undefined
      ? `\x00${field(0, 4)}${field(0, 2)}`
      : `\x01${field(at, 4)}${field(0, 2)}`;
  });
  const data = rows.join('');
  text += `10 0 obj\n<< /Type /XRef /Size 11 /Root 1 0 R /W [1 4 2] /Length ${data.length} >>\nstream\n${data}\nendstream\nendobj\nstartxref\n${xref}\n%%EOF\n`;
  return { text, xref };
}

/** Revision 1 signed over its whole length, and revision 2 writing `written` (number to value). */
function signedThenWritten(
  revision1: { text: string; xref: number },
  written: Record<number, string>,
): Uint8Array {
  let { text } = revision1;
  const a = text.indexOf(`<${'0'.repeat(64)}>`);
  const b = a + 66;
  const range = [a, b, text.length - b].map((n) => String(n).padStart(10, '0')).join(' ');
  text = text.replace(placeholder, `[0 ${range}]`);
  const rows: string[] = [];
  for (const [num, value] of Object.entries(written)) {
    rows.push(`${num} 1\n${row(text.length)}`);
    text += `${num} 0 obj\n${value}\nendobj\n`;
  }
  const xref = text.length;
  text += `xref\n${rows.join('')}trailer\n<< /Size 11 /Root 1 0 R /Prev ${revision1.xref} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

const addition = { [HOLE]: '<< /Title (written after signing) >>' };

async function judged(file: Uint8Array) {
  const read = await readDocumentSignatures(file);
  if (!read.ok) throw new Error(read.reason);
  expect(read.revisions).toBe(2);
  const [signature] = read.signatures;
  expect(signature?.coverage?.revision).toBe(1);
  return signature;
}

const filled = `fills in object ${HOLE}, which the signed document refers to`;

describe('a later revision filling in an object the signed document refers to', () => {
  for (const hidden of HIDDEN_REFERENCES.filter((h) => h.refs.includes(HOLE))) {
    for (const [where, file] of [
      ['an object', tableFile],
      ['an object stream', objectStreamFile],
    ] as const) {
      it(`is found when ${where} refers to it ${hidden.how}`, async () => {
        const signature = await judged(signedThenWritten(file(hidden.text), addition));
        expect(signature?.modified).toContain(filled);
      });
    }
  }

  it('is not claimed where the reference is no reference (a string, a comment, a name, stream data)', async () => {
    const none = HIDDEN_REFERENCES.find((h) => h.refs.length === 0);
    for (const file of [tableFile, objectStreamFile]) {
      const signature = await judged(signedThenWritten(file(none?.text ?? ''), addition));
      expect(signature?.modified).toBeUndefined();
      expect(signature?.additions).toContain(
        `revision 2 adds object ${HOLE}, which nothing refers to`,
      );
    }
  });

  it('is no object nothing refers to when an object the same revision adds refers to it, however hidden', async () => {
    const none = HIDDEN_REFERENCES.find((h) => h.refs.length === 0)?.text ?? '';
    for (const hidden of HIDDEN_REFERENCES.filter((h) => h.refs.includes(HOLE))) {
      const file = signedThenWritten(tableFile(none), { ...addition, 9: hidden.text });
      const signature = await judged(file);
      expect(signature?.modified, hidden.how).toContain(`adds object ${HOLE} (a dictionary)`);
      expect(signature?.additions).toContain('revision 2 adds object 9, which nothing refers to');
    }
  });
});

describe('a signature dictionary', () => {
  it('is found when its /ByteRange key is written with #-escapes', async () => {
    const none = HIDDEN_REFERENCES.find((h) => h.refs.length === 0)?.text ?? '';
    const read = await readDocumentSignatures(
      signedThenWritten(tableFile(none, '/ByteR#61nge'), {}),
    );
    expect(read).toMatchObject({ ok: true, signatures: [{ index: 1, revision: 1 }] });
  });

  it('is judged when it has a /ByteRange and no /Contents', async () => {
    const none = HIDDEN_REFERENCES.find((h) => h.refs.length === 0)?.text ?? '';
    const revision1 = tableFile(none);
    revision1.text = revision1.text.replace('/Contents <', '/Other    <');
    const read = await readDocumentSignatures(signedThenWritten(revision1, {}));
    expect(read).toMatchObject({
      ok: true,
      signatures: [{ index: 1, invalid: 'a PDF signature has no direct /ByteRange or /Contents' }],
    });
  });
});
