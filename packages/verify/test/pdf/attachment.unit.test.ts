import { deflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/read.js';
import { pdf, receiptLike, stream, str } from './build.js';

const bundle = { mediaType: 'receipt-bundle', receipt: { receiptId: 'the-right-one' } };
const decoy = { mediaType: 'receipt-bundle', receipt: { receiptId: 'a-decoy' } };
const json = (value: unknown): string => JSON.stringify(value);

describe('the receipt-bundle.json attachment', () => {
  it('is found by name in a pdf-lib PDF (object streams) that lists aaa.json first', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage();
    page.drawText('Printed receipt', { font: await doc.embedFont(StandardFonts.Helvetica) });
    await doc.attach(new TextEncoder().encode(json(decoy)), 'aaa.json');
    await doc.attach(new TextEncoder().encode(json(bundle)), 'receipt-bundle.json');
    const bytes = await doc.save({ useObjectStreams: true });
    expect(await attachmentNames(bytes)).toEqual(['aaa.json', 'receipt-bundle.json']);
    const read = await readBundle(bytes);
    expect(read).toEqual({
      ok: true,
      bundle,
      from: 'pdf',
      printed: { text: 'Printed receipt' },
      signature: { present: false },
    });
  });

  it('is found in a name tree with /Kids, after a leaf holding another bundle', async () => {
    const file = pdf([
      '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 3 0 R >> >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      '<< /Kids [4 0 R 5 0 R] >>',
      `<< /Names [${str('aaa.json')} 6 0 R] >>`,
      `<< /Names [${str('receipt-bundle.json')} 7 0 R] >>`,
      `<< /EF << /F 8 0 R >> >>`,
      `<< /EF << /F 9 0 R >> >>`,
      stream('', json(decoy)),
      stream('', json(bundle)),
    ]);
    expect(await readBundle(file)).toEqual({
      ok: true,
      bundle,
      from: 'pdf',
      printed: { text: '' },
      signature: { present: false },
    });
  });

  it('reads an attachment compressed with two FlateDecode layers', async () => {
    const twice = deflateSync(deflateSync(json(bundle)));
    const file = receiptLike([
      ['receipt-bundle.json', twice, '/Filter [/FlateDecode /FlateDecode]'],
    ]);
    const read = await readBundle(file);
    expect(read.ok && read.bundle).toEqual(bundle);
  });

  it('is refused when missing, when only another name holds a bundle, or when listed twice', async () => {
    const missing = { ok: false, reason: 'the PDF has no receipt-bundle.json attachment' };
    expect(await readBundle(receiptLike([]))).toEqual(missing);
    expect(await readBundle(receiptLike([['aaa.json', json(bundle)]]))).toEqual(missing);
    expect(await readBundle(receiptLike([['receipt-bundle.json ', json(bundle)]]))).toEqual(
      missing,
    );
    const twice = receiptLike([
      ['receipt-bundle.json', json(bundle)],
      ['receipt-bundle.json', json(decoy)],
    ]);
    expect(await readBundle(twice)).toEqual({
      ok: false,
      reason: 'the PDF has more than one receipt-bundle.json attachment',
    });
  });

  it('is refused with a reason when its filter is not FlateDecode or it has DecodeParms', async () => {
    const hex = Buffer.from(json(bundle)).toString('hex');
    const cases: Array<[dict: string, data: string, reason: string]> = [
      ['/Filter /ASCIIHexDecode', `${hex}>`, 'the /ASCIIHexDecode filter is not supported'],
      ['/Filter [/FlateDecode /LZWDecode]', '', 'the /LZWDecode filter is not supported'],
      ['/Filter /Crypt', '', 'the /Crypt filter is not supported'],
      ['/Filter 12', '', 'a malformed /Filter'],
      ['/Filter /FlateDecode /DecodeParms << /Predictor 12 >>', '', '/DecodeParms (predictors)'],
      ['/Filter [/A /B /C /D /E]', '', 'more than 4 filters'],
    ];
    for (const [dict, data, reason] of cases) {
      const read = await readBundle(receiptLike([['receipt-bundle.json', data, dict]]));
      expect(read.ok).toBe(false);
      expect(!read.ok && read.reason).toContain(`receipt-bundle.json cannot be read: ${reason}`);
    }
  });

  it('is refused, not guessed at, when the Flate data is corrupt or not JSON', async () => {
    const corrupt = receiptLike([['receipt-bundle.json', 'not flate', '/Filter /FlateDecode']]);
    expect(await readBundle(corrupt)).toEqual({
      ok: false,
      reason: 'receipt-bundle.json cannot be read: the Flate data cannot be decoded',
    });
    expect(await readBundle(receiptLike([['receipt-bundle.json', 'not json']]))).toEqual({
      ok: false,
      reason: 'the attached receipt-bundle.json is not JSON',
    });
  });

  it('refuses hostile structure: a looping name tree, a truncated file, an encrypted one', async () => {
    const loop = pdf([
      '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 3 0 R >> >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      '<< /Kids [3 0 R] >>',
    ]);
    expect(await readBundle(loop)).toEqual({
      ok: false,
      reason: 'the PDF attachment tree reaches a node twice',
    });
    const file = receiptLike([['receipt-bundle.json', json(bundle)]]);
    expect((await readBundle(file.subarray(0, 200))).ok).toBe(false);
    const encrypted = new TextDecoder('latin1')
      .decode(file)
      .replace('/Root 1 0 R', '/Root 1 0 R /Encrypt << /Filter /Standard >>');
    expect(await readBundle(Uint8Array.from(encrypted, (c) => c.charCodeAt(0)))).toEqual({
      ok: false,
      reason: 'the PDF is encrypted',
    });
  });
});

/** The names in a PDF's EmbeddedFiles leaf, in order. */
async function attachmentNames(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes);
  const names = doc.catalog.lookup(PDFName.of('Names'), PDFDict);
  const tree = names.lookup(PDFName.of('EmbeddedFiles'), PDFDict);
  const pairs = tree.lookup(PDFName.of('Names'), PDFArray).asArray();
  return pairs.filter((key) => key instanceof PDFHexString).map((key) => key.decodeText());
}
