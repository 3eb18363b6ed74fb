import { describe, expect, it } from 'vitest';
import { REASONS, extractWorks } from '../src/similarity/extract.ts';
import { FONT, docx, pdf, zip } from './documents.ts';
import { PNG } from './helpers.ts';

/**
 * Issue 37, item 1: the text of a written work, from a PDF, a DOCX or the documents inside a zip; what cannot be read
 * is listed with the reason, and the files' metadata and a zip's entry names are kept for the blind-review check.
 */
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
    expect(r.code).toEqual([{ path: '数据先锋队/code/model.py', language: 'python', content: 'import sklearn\n' }]);
    expect(r.otherEntries).toBe(1);
    expect((await extractWorks(Buffer.from('PK not really'), 'bad.zip')).files).toEqual([{ name: '（压缩包）', chars: 0, reason: REASONS.broken, meta: {} }]);
  });
});
