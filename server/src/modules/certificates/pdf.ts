import QRCode from 'qrcode';
import { CERT_BUILTIN_RULE, certFieldText, type CertBuiltinLayout, type CertField, type CertFieldPlacement } from '@contest/shared';

type Doc = PDFKit.PDFDocument;

/**
 * The frame of a built-in layout, drawn on an empty page: a cream ground, a gold double border with corner marks, and
 * a thin rule under the title. Everything with words on it is a field, so the organiser can move it.
 */
function drawFrame(doc: Doc, layout: CertBuiltinLayout, width: number, height: number) {
  const gold = '#b8862e';
  doc.rect(0, 0, width, height).fill('#fffdf6');
  doc
    .lineWidth(6)
    .strokeColor(gold)
    .rect(18, 18, width - 36, height - 36)
    .stroke();
  doc
    .lineWidth(1.2)
    .strokeColor(gold)
    .rect(30, 30, width - 60, height - 60)
    .stroke();
  doc
    .lineWidth(0.6)
    .strokeColor('#d9bf85')
    .rect(36, 36, width - 72, height - 72)
    .stroke();
  for (const [cx, cy] of [
    [30, 30],
    [width - 30, 30],
    [30, height - 30],
    [width - 30, height - 30],
  ] as const) {
    doc.save().translate(cx, cy).rotate(45).rect(-7, -7, 14, 14).fill(gold).restore();
  }
  const { y: ruleY, half } = CERT_BUILTIN_RULE[layout];
  doc
    .lineWidth(1)
    .strokeColor(gold)
    .moveTo(width / 2 - half, ruleY)
    .lineTo(width / 2 + half, ruleY)
    .stroke();
  doc
    .save()
    .translate(width / 2, ruleY)
    .rotate(45)
    .rect(-3.5, -3.5, 7, 7)
    .fill(gold)
    .restore();
}

/**
 * Writes one certificate: the background image as the page (one PDF point per image pixel) or, for a built-in
 * layout, a drawn frame on an A4 page; each field's text (its wording around the value) anchored at its placement,
 * and the verification QR code. Text is embedded (subset CJK font), so the PDF is searchable and its text can be
 * extracted.
 */
export async function renderCertificate(o: {
  background: Buffer | { builtin: CertBuiltinLayout };
  width: number;
  height: number;
  fields: CertFieldPlacement[];
  values: Record<Exclude<CertField, 'qrcode' | 'wording'>, string>;
  verifyUrl: string;
  font: string;
}): Promise<Buffer> {
  // Loaded when the first certificate is written: pdfkit and its fonts cost every server process memory otherwise.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: [o.width, o.height],
    margin: 0,
    autoFirstPage: true,
    info: { Title: `证书 ${o.values.certNo}`, Author: o.values.competition },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  if (Buffer.isBuffer(o.background)) doc.image(o.background, 0, 0, { width: o.width, height: o.height });
  else drawFrame(doc, o.background.builtin, o.width, o.height);
  doc.registerFont('cjk', o.font);
  doc.font('cjk');
  for (const f of o.fields) {
    if (f.field === 'qrcode') {
      const png = await QRCode.toBuffer(o.verifyUrl, { margin: 1, width: Math.max(64, f.size * 2), errorCorrectionLevel: 'M' });
      doc.image(png, f.x, f.y, { width: f.size, height: f.size });
      continue;
    }
    const text = certFieldText(f, f.field === 'wording' ? '' : o.values[f.field]);
    if (!text) continue;
    doc.fillColor(f.color).fontSize(f.size);
    const w = doc.widthOfString(text);
    const x = f.align === 'center' ? f.x - w / 2 : f.align === 'right' ? f.x - w : f.x;
    doc.text(text, Math.max(0, x), f.y, { lineBreak: false });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
