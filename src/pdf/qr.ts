import QRCode from 'qrcode';
import type { Doc } from './layout.js';

/** Dark modules of the QR code of `text` (error correction M), row by row: size x size. */
export interface QrModules {
  size: number;
  dark: (row: number, column: number) => boolean;
}

export function qrModules(text: string): QrModules {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, column) => modules.get(row, column) === 1 };
}

/**
 * Draws the QR code of `text` as vector squares (one filled path, a quiet zone of one module),
 * `width` points wide at (x, y). Vector, not a PNG: crisp at any zoom, and about ten times cheaper
 * to produce than encoding a PNG that pdfkit then decodes again.
 */
export function drawQr(doc: Doc, text: string, x: number, y: number, width: number): void {
  const qr = qrModules(text);
  const module = width / (qr.size + 2);
  doc.save();
  doc.rect(x, y, width, width).fill('#ffffff');
  for (let row = 0; row < qr.size; row += 1) {
    let column = 0;
    while (column < qr.size) {
      if (!qr.dark(row, column)) {
        column += 1;
        continue;
      }
      const start = column;
      while (column < qr.size && qr.dark(row, column)) column += 1;
      // runs of dark modules become one rectangle; a hair of overlap avoids seams between rows
      const left = x + (start + 1) * module;
      doc.rect(left, y + (row + 1) * module, (column - start) * module, module + 0.01);
    }
  }
  doc.fill('#000000');
  doc.restore();
}
