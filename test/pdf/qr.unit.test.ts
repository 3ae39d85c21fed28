import jsqrModule from 'jsqr';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { qrModules } from '../../src/pdf/qr.js';
import { renderReceiptPdf } from '../../src/pdf/receipt-pdf.js';
import { cleanView } from './fixtures.js';

/** jsqr is CommonJS with `exports.default`: the function, whatever the interop in use. */
type Decode = typeof import('jsqr').default;
const jsQR = ((jsqrModule as unknown as { default?: Decode }).default ?? jsqrModule) as Decode;

/** A grey-free RGBA bitmap for jsQR (an independent decoder): `dark(x, y)` per pixel. */
function bitmap(size: number, dark: (x: number, y: number) => boolean): Uint8ClampedArray {
  const data = new Uint8ClampedArray(size * size * 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const v = dark(x, y) ? 0 : 255;
      data.set([v, v, v, 255], (y * size + x) * 4);
    }
  }
  return data;
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Every rectangle path drawn on the first page, in the page's drawing coordinates. */
async function rectanglesOf(pdf: Buffer): Promise<Rect[]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise;
  const rects: Rect[] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const ops = await (await doc.getPage(n)).getOperatorList();
    ops.fnArray.forEach((fn, i) => {
      if (fn !== OPS.constructPath) return;
      const [pathOps, coords] = ops.argsArray[i] as [number[], number[]];
      let c = 0;
      for (const op of pathOps) {
        if (op === OPS.rectangle) {
          const [x, y, w, h] = coords.slice(c, c + 4) as [number, number, number, number];
          rects.push({ x, y, w, h });
          c += 4;
        } else {
          c += op === OPS.curveTo ? 6 : op === OPS.closePath ? 0 : op >= 15 && op <= 17 ? 4 : 2;
        }
      }
    });
  }
  await doc.destroy();
  return rects;
}

describe('QR code of the verify URL', () => {
  it('encodes the text, read back by an independent decoder', () => {
    const text = 'https://receipts.example.com/verify?hash=sha256:' + 'ab'.repeat(32);
    const qr = qrModules(text);
    const scale = 4;
    const size = (qr.size + 8) * scale;
    const dark = (x: number, y: number) => {
      const row = Math.floor(y / scale) - 4;
      const column = Math.floor(x / scale) - 4;
      return row >= 0 && column >= 0 && row < qr.size && column < qr.size && qr.dark(row, column);
    };
    expect(jsQR(bitmap(size, dark), size, size)?.data).toBe(text);
  });

  it('is drawn in the PDF as vector squares that decode to the verify URL', async () => {
    const view = cleanView();
    const rects = await rectanglesOf(await renderReceiptPdf(view));
    // the white square behind the code is the only 96 x 96 rectangle
    const box = rects.find((r) => Math.abs(r.w - 96) < 0.01 && Math.abs(Math.abs(r.h) - 96) < 0.01);
    expect(box).toBeDefined();
    const { x, y } = box as Rect;
    const inside = rects.filter(
      (r) => r !== box && r.x >= x && r.x < x + 96 && r.y >= y && r.y < y + 96,
    );
    const scale = 4;
    const margin = 40;
    const size = 96 * scale + 2 * margin;
    const dark = (px: number, py: number) => {
      const qx = (px - margin) / scale + x;
      const qy = (py - margin) / scale + y;
      return inside.some((r) => qx >= r.x && qx < r.x + r.w && qy >= r.y && qy < r.y + r.h);
    };
    expect(jsQR(bitmap(size, dark), size, size)?.data).toBe(view.verifyUrl);
  });
});
