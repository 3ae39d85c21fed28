import QRCode from 'qrcode';

/** A PNG QR code of `text` (error correction M, quiet zone of 1 module), for pdfkit's image(). */
export async function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, {
    type: 'png',
    errorCorrectionLevel: 'M',
    margin: 1,
    scale: 6,
    color: { dark: '#000000', light: '#ffffff' },
  });
}
