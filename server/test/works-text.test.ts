import path from 'node:path';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import archiver from 'archiver';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { REASONS, extractWorks } from '../src/similarity/extract.ts';
import { PNG } from './helpers.ts';

/**
 * Issue 37, item 1: the text of a written work, from a PDF, a DOCX or the documents inside a zip; what cannot be read
 * is listed with the reason, and the files' metadata and a zip's entry names are kept for the blind-review check.
 */
const FONT = path.join(path.dirname(createRequire(import.meta.url).resolve('@embedpdf/fonts-sc')), '../fonts/NotoSansHans-Regular.otf');

async function pdf(write: (doc: PDFKit.PDFDocument) => void, options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({ info: { Author: '林小雨', Producer: 'Microsoft Word' }, ...options });
  const parts: Buffer[] = [];
  doc.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(parts))));
  write(doc);
  doc.end();
  return done;
}

async function zip(files: { name: string; data: Buffer | string }[]): Promise<Buffer> {
  const archive = archiver('zip');
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<Buffer>((resolve) => out.on('end', () => resolve(Buffer.concat(parts))));
  archive.pipe(out);
  for (const f of files) archive.append(f.data, { name: f.name });
  await archive.finalize();
  return done;
}

/** A minimal Word document: its body paragraphs and core properties. */
const docx = (paragraphs: string[], creator: string, lastModifiedBy: string) =>
  zip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>',
    },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs
        .map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`)
        .join('')}</w:body></w:document>`,
    },
    {
      name: 'docProps/core.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${creator}</dc:creator><cp:lastModifiedBy>${lastModifiedBy}</cp:lastModifiedBy></cp:coreProperties>`,
    },
  ]);

const BODY = '本文基于某市三年的用电数据，建立了随机森林与梯度提升相结合的负荷预测模型，在测试集上的平均绝对误差为百分之三点二。';

describe('the text of a written work', () => {
  it('reads a PDF’s text and who made it', async () => {
    const file = await pdf((doc) => doc.font(FONT).fontSize(12).text(BODY));
    const r = await extractWorks(file, '论文.pdf');
    expect(r.text.replace(/\s/g, '')).toContain('随机森林与梯度提升相结合的负荷预测模型');
    expect(r.files).toEqual([
      { name: '论文.pdf', chars: expect.any(Number), reason: null, meta: expect.objectContaining({ author: '林小雨', producer: 'Microsoft Word' }) },
    ]);
  });

  it('reads a DOCX’s text, its creator and last editor', async () => {
    const r = await extractWorks(await docx([BODY, '第二段：结论与展望。'], '周二', '数据先锋队'), 'paper.docx');
    expect(r.text).toContain(BODY);
    expect(r.text).toContain('第二段：结论与展望。');
    expect(r.files[0]).toMatchObject({ reason: null, meta: { author: '周二', lastModifiedBy: '数据先锋队' } });
  });

  it('says why a file gives no text: a scan, a password, an old Word file, a broken file', async () => {
    const scanned = await pdf((doc) => doc.image(PNG, 0, 0, { width: 500 }));
    expect((await extractWorks(scanned, 'scan.pdf')).files[0]).toMatchObject({ chars: 0, reason: REASONS.scanned, meta: { author: '林小雨' } });
    const locked = await pdf((doc) => doc.font(FONT).text(BODY), { userPassword: 'secret', ownerPassword: 'owner' } as PDFKit.PDFDocumentOptions);
    expect((await extractWorks(locked, 'locked.pdf')).files[0]).toMatchObject({ reason: REASONS.encrypted });
    expect((await extractWorks(Buffer.from('not a word file'), 'old.doc')).files[0]).toMatchObject({ reason: REASONS.doc });
    expect((await extractWorks(Buffer.from('%PDF-1.4 broken'), 'broken.pdf')).files[0]).toMatchObject({ reason: REASONS.broken });
    expect((await extractWorks(Buffer.from('PK broken'), 'broken.docx')).files[0]).toMatchObject({ reason: REASONS.broken });
  });

  it('reads the documents inside a zip, lists the unreadable ones and keeps every entry name', async () => {
    const archive = await zip([
      { name: '数据先锋队/论文.pdf', data: await pdf((doc) => doc.font(FONT).text(BODY)) },
      { name: '数据先锋队/附录.docx', data: await docx(['附录：模型参数表。'], '林小雨', '林小雨') },
      { name: '数据先锋队/扫描版承诺书.pdf', data: await pdf((doc) => doc.image(PNG, 0, 0, { width: 300 })) },
      { name: '数据先锋队/code/model.py', data: 'import sklearn\n' },
      { name: '__MACOSX/数据先锋队/._论文.pdf', data: 'resource fork' },
    ]);
    const r = await extractWorks(archive, 'works.zip');
    expect(r.text.replace(/\s/g, '')).toContain('随机森林与梯度提升相结合');
    expect(r.text).toContain('附录：模型参数表。');
    expect(r.files.map((f) => [f.name, f.reason])).toEqual([
      ['数据先锋队/论文.pdf', null],
      ['数据先锋队/附录.docx', null],
      ['数据先锋队/扫描版承诺书.pdf', REASONS.scanned],
    ]);
    expect(r.entries).toContain('数据先锋队/code/model.py');
    expect(r.otherEntries).toBe(2);
    expect((await extractWorks(Buffer.from('PK not really'), 'bad.zip')).files).toEqual([{ name: '（压缩包）', chars: 0, reason: REASONS.broken, meta: {} }]);
  });
});
