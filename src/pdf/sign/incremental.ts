import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef } from 'pdf-lib';

/**
 * The signature field of a PAdES signature, added to a finished PDF as an incremental update
 * (ISO 32000-1 7.5.6): a signature dictionary whose /Contents is a zero-filled placeholder and
 * whose /ByteRange is fixed-width, an invisible widget on the first page, the AcroForm (SigFlags
 * 3) and the rewritten page and catalog, then a cross-reference section chained to the
 * original's with /Prev. The original bytes stay as they are; the new revision is the last one,
 * so the byte range covers the whole file except the signature's own hex string.
 */

/** `/ByteRange [0 a b c]` with room for ten digits each, filled in once the offsets are known. */
export const BYTE_RANGE_PLACEHOLDER = `[0 ${'0'.repeat(10)} ${'0'.repeat(10)} ${'0'.repeat(10)}]`;

export interface Prepared {
  /** The PDF with the placeholder revision appended. */
  pdf: Buffer;
  /** The signed ranges: [0, contentsStart) and [contentsEnd, pdf.length). */
  byteRange: [number, number, number, number];
  /** Offset of the `<` opening the /Contents hex string, and its capacity in bytes. */
  contentsOffset: number;
  capacity: number;
}

export interface FieldOptions {
  /** Bytes reserved for the CMS signature (the hex string holds twice as many digits). */
  capacity: number;
  /** The claimed signing time (PAdES: the /M entry, never a CMS signing-time attribute). */
  signingTime: Date;
  /** /Name: the signer, as the certificate's subject names it. */
  signerName: string;
}

export async function appendSignatureField(
  original: Buffer,
  options: FieldOptions,
): Promise<Prepared> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
  const context = doc.context;
  const catalog = doc.catalog;
  const rootRef = context.trailerInfo.Root;
  if (!(rootRef instanceof PDFRef)) throw new Error('the PDF has no catalog reference');
  if (catalog.get(PDFName.of('AcroForm'))) throw new Error('the PDF already has a form');
  const page = doc.getPage(0);
  const pageRef = page.ref;
  let next = context.largestObjectNumber + 1;
  const sigNumber = next++;
  const widgetNumber = next++;
  const formNumber = next++;

  const pageDict = page.node.clone(context) as PDFDict;
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  const newAnnots = annots ? (annots.clone(context) as PDFArray) : context.obj([]);
  newAnnots.push(PDFRef.of(widgetNumber));
  pageDict.set(PDFName.of('Annots'), newAnnots);
  const catalogDict = catalog.clone(context) as PDFDict;
  catalogDict.set(PDFName.of('AcroForm'), PDFRef.of(formNumber));

  const objects: [number, string][] = [
    [
      sigNumber,
      `<<\n/Type /Sig\n/Filter /Adobe.PPKLite\n/SubFilter /ETSI.CAdES.detached\n` +
        `/ByteRange ${BYTE_RANGE_PLACEHOLDER}\n/Contents <${'0'.repeat(2 * options.capacity)}>\n` +
        `/M ${pdfDate(options.signingTime)}\n/Name ${pdfText(options.signerName)}\n>>`,
    ],
    [
      widgetNumber,
      `<<\n/Type /Annot\n/Subtype /Widget\n/FT /Sig\n/T (Receipt signature)\n/V ${sigNumber} 0 R\n` +
        `/F 132\n/Rect [0 0 0 0]\n/P ${pageRef.toString()}\n>>`,
    ],
    [formNumber, `<<\n/Fields [${widgetNumber} 0 R]\n/SigFlags 3\n>>`],
    [pageRef.objectNumber, pageDict.toString()],
    [rootRef.objectNumber, catalogDict.toString()],
  ];
  const { pdf, offsets } = incrementalUpdate(original, doc, rootRef, next, objects);
  return locate(pdf, offsets.get(sigNumber) ?? 0, options.capacity);
}

/**
 * `original` with an incremental update (ISO 32000-1, 7.5.6) holding `objects`: their bodies, a
 * cross-reference section for them, and a trailer that points back at the original's.
 */
export function incrementalUpdate(
  original: Buffer,
  doc: PDFDocument,
  rootRef: PDFRef,
  size: number,
  objects: [number, string][],
): { pdf: Buffer; offsets: Map<number, number> } {
  const previous = startXref(original);
  const parts: string[] = [];
  let offset = original.length + 1; // the newline that opens the update
  const offsets = new Map<number, number>();
  for (const [number, body] of objects) {
    const text = `${number} 0 obj\n${body}\nendobj\n`;
    offsets.set(number, offset);
    parts.push(text);
    offset += Buffer.byteLength(text, 'latin1');
  }
  parts.push(
    xrefSection(offsets),
    trailer(doc, rootRef, size, previous),
    `startxref\n${offset}\n%%EOF\n`,
  );
  const pdf = Buffer.concat([original, Buffer.from(`\n${parts.join('')}`, 'latin1')]);
  return { pdf, offsets };
}

/** Finds the placeholder in the signature object and fixes the byte range into the file. */
export function locate(pdf: Buffer, sigOffset: number, capacity: number): Prepared {
  const contentsOffset = pdf.indexOf('/Contents <', sigOffset, 'latin1') + '/Contents '.length;
  const contentsEnd = contentsOffset + 2 * capacity + 2;
  const byteRange: Prepared['byteRange'] = [
    0,
    contentsOffset,
    contentsEnd,
    pdf.length - contentsEnd,
  ];
  const rangeText = `[${byteRange.map((n, i) => (i === 0 ? '0' : String(n).padStart(10, '0'))).join(' ')}]`;
  const rangeOffset = pdf.indexOf(BYTE_RANGE_PLACEHOLDER, sigOffset, 'latin1');
  if (contentsOffset < sigOffset || rangeOffset < 0 || rangeOffset > contentsOffset) {
    throw new Error('signature placeholder not found');
  }
  pdf.write(rangeText, rangeOffset, 'latin1');
  return { pdf, byteRange, contentsOffset, capacity };
}

function xrefSection(offsets: Map<number, number>): string {
  const numbers = [...offsets.keys()].sort((a, b) => a - b);
  const lines: string[] = ['xref\n'];
  for (let i = 0; i < numbers.length;) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === (numbers[j] ?? 0) + 1) j += 1;
    lines.push(`${numbers[i]} ${j - i + 1}\n`);
    for (let k = i; k <= j; k += 1) {
      lines.push(`${String(offsets.get(numbers[k] ?? 0)).padStart(10, '0')} 00000 n \n`);
    }
    i = j + 1;
  }
  return lines.join('');
}

function trailer(doc: PDFDocument, root: PDFRef, size: number, previous: number): string {
  const info = doc.context.trailerInfo;
  const entries = [
    `/Size ${size}`,
    `/Root ${root.toString()}`,
    ...(info.Info ? [`/Info ${info.Info.toString()}`] : []),
    ...(info.ID ? [`/ID ${info.ID.toString()}`] : []),
    `/Prev ${previous}`,
  ];
  return `trailer\n<<\n${entries.join('\n')}\n>>\n`;
}

/** The offset the original's last `startxref` names. */
function startXref(pdf: Buffer): number {
  const tail = pdf.subarray(Math.max(0, pdf.length - 1024)).toString('latin1');
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new Error('the PDF has no startxref at its end');
  return Number(match[1]);
}

/** A PDF date string (ISO 32000-1 7.9.4) in UTC. */
export function pdfDate(date: Date): string {
  const iso = date.toISOString();
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '');
  return `(D:${digits}+00'00')`;
}

/** A PDF literal string of printable ASCII (other characters replaced), escaped. */
export function pdfText(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
  return `(${ascii.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}
