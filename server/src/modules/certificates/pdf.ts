import QRCode from 'qrcode';
import type { CertField, CertFieldPlacement } from '@contest/shared';

/**
 * Writes one certificate: the background image as the page (one PDF point per image pixel), each field's text with
 * its top-left corner at the placement, and the verification QR code. Text is embedded (subset CJK font), so the PDF
 * is searchable and its text can be extracted.
 */
export async function renderCertificate(o: {
  background: Buffer;
  width: number;
  height: number;
  fields: CertFieldPlacement[];
  values: Record<Exclude<CertField, 'qrcode'>, string>;
  verifyUrl: string;
  font: string;
}): Promise<Buffer> {
  // Loaded when the first certificate is written: pdfkit and its fonts cost every server process memory otherwise.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: [o.width, o.height], margin: 0, autoFirstPage: true, info: { Title: `证书 ${o.values.certNo}`, Author: o.values.competition } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.image(o.background, 0, 0, { width: o.width, height: o.height });
  doc.registerFont('cjk', o.font);
  doc.font('cjk');
  for (const f of o.fields) {
    if (f.field === 'qrcode') {
      const png = await QRCode.toBuffer(o.verifyUrl, { margin: 1, width: Math.max(64, f.size), errorCorrectionLevel: 'M' });
      doc.image(png, f.x, f.y, { width: f.size, height: f.size });
      continue;
    }
    const text = o.values[f.field];
    if (!text) continue;
    doc.fillColor(f.color).fontSize(f.size).text(text, f.x, f.y, { lineBreak: false });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
