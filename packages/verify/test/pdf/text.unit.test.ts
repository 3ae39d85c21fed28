import PDFKit from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { contentText } from '../../src/pdf/text.js';
import { readBundle } from '../../src/read.js';
import { receiptLike, stream } from './build.js';

const HASH = `sha256:${'0123456789abcdef'.repeat(4)}`;
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** A PDF written by pdfkit with standard fonts, as the service writes receipts. */
function pdfkitPdf(draw: (doc: InstanceType<typeof PDFKit>) => void): Promise<Uint8Array> {
  const doc = new PDFKit({ size: 'A4' });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Uint8Array>((resolve) =>
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks)))),
  );
  draw(doc);
  doc.file(Buffer.from('{"mediaType":"x"}'), { name: 'receipt-bundle.json' });
  doc.end();
  return done;
}

describe('printed text of a PDF receipt', () => {
  it('reads what pdfkit prints with standard fonts: kerned TJ arrays, WinAnsi, pages', async () => {
    const bytes = await pdfkitPdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(20).text('Verification Receipt AVAWAY');
      doc.font('Helvetica').fontSize(9).text('Café “quoted” – 5 €, naïve');
      doc.font('Courier').fontSize(8.5).text(HASH);
      doc.addPage();
      doc.font('Helvetica').text('Page two', 50, 50);
    });
    const read = await readBundle(bytes);
    expect(read.ok && read.printed).toEqual({
      text: ['Verification Receipt AVAWAY', 'Café “quoted” – 5 €, naïve', HASH, 'Page two'].join(
        '\n',
      ),
    });
  });

  it('puts every line of a wrapped paragraph on its own line', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const bytes = await pdfkitPdf((doc) => doc.text(words, { width: 200 }));
    const read = await readBundle(bytes);
    const lines = read.ok ? (read.printed?.text.split('\n') ?? []) : [];
    expect(lines.length).toBeGreaterThan(3);
    // pdfkit keeps the space at which it broke a line.
    expect(lines.map((line) => line.trim()).join(' ')).toBe(words);
  });

  it('is part of what readBundle returns for a PDF, and absent for a JSON bundle', async () => {
    const read = await readBundle(receiptLike([['receipt-bundle.json', '{}']]));
    expect(read).toEqual({
      ok: true,
      bundle: {},
      from: 'pdf',
      printed: { text: 'Receipt' },
      signature: { present: false },
    });
    expect(await readBundle(new TextEncoder().encode('{}'))).toEqual({
      ok: true,
      bundle: {},
      from: 'bundle',
    });
  });

  it('parses literal strings, escapes, the quote operators and skips what is not text', () => {
    const content = [
      'q 1 0 0 1 0 0 cm % a comment (not text) Tj',
      'BT /F1 12 Tf 10 10 Td (a \\(nested (pair)\\) \\101\\x\\\\) Tj',
      '(line two) \' 1 2 (line three) "',
      'T* [(con) -120 (cat) <656E61746564>] TJ ET',
      'BI /W 4 /H 1 /BPC 8 /CS /G ID \x00\x01 EI BT (after image) Tj ET',
      '<< /MCID 0 >> BDC BT <E9> Tj ET EMC',
    ].join('\n');
    expect(contentText(latin1(content))).toEqual({
      ok: true,
      lines: [
        'a (nested (pair)) Ax\\',
        'line two',
        'line three',
        'concatenated',
        'after image',
        'é',
      ],
    });
  });

  it('reads page content split over an array of streams', async () => {
    const file = receiptLike([['receipt-bundle.json', '{}']], stream('', 'BT (one) Tj ET'));
    const text = new TextDecoder('latin1').decode(file);
    const twoStreams = text
      .replace('/Contents 4 0 R', '/Contents [4 0 R 4 0 R]')
      .replace('BT (one) Tj ET', 'BT (one) Tj ET');
    const read = await readBundle(latin1(twoStreams));
    expect(read.ok && read.printed?.text).toBe('one\none');
  });
});
