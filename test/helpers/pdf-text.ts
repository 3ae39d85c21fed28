import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** All text of a PDF, whitespace removed (long values wrap across lines). */
export async function pdfText(pdf: Buffer): Promise<{ compact: string; pages: number }> {
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const content = await (await doc.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { compact: parts.join('').replace(/\s+/g, ''), pages };
}
