import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeXlsx, type Column } from '../src/http/xlsx.ts';

type Row = { name: string | null; n: number | null };
const COLUMNS: Column<Row>[] = [
  { header: '名称', width: 30, value: (r) => r.name },
  { header: '数值', value: (r) => r.n },
];

async function collect(run: (out: Writable) => Promise<unknown>) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const outcome = await run(out);
  return { outcome, bytes: Buffer.concat(chunks) };
}

/** The workbook writer the exports stream through (issue 22): what Excel reads back is what was written. */
describe('streamed xlsx workbooks', () => {
  it('writes every cell as Excel reads it back: text escaped, numbers as numbers, the header bold, the widths kept', async () => {
    const tricky: Row[] = [
      { name: '<b>甲&乙</b> "引号"', n: 1.5 },
      { name: '  前后空格  ', n: -0 },
      { name: '控制\u0001字符\u0008', n: Number.NaN },
      { name: '=HYPERLINK("http://x")', n: Number.POSITIVE_INFINITY },
      { name: null, n: null },
      { name: 'x'.repeat(40_000), n: 12345678901 },
    ];
    const { outcome, bytes } = await collect((out) => writeXlsx(out, '报名<表>', COLUMNS, [tricky.slice(0, 3), [], tricky.slice(3)]));
    expect(outcome).toEqual({ status: 'complete', rows: 6 });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const ws = book.worksheets[0]!;
    expect(ws.name).toBe('报名<表>');
    expect(ws.getRow(1).values).toEqual([undefined, '名称', '数值']);
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(ws.getColumn(1).width).toBe(30);
    expect(ws.getColumn(2).width).toBe(16);
    expect(ws.getRow(2).values).toEqual([undefined, '<b>甲&乙</b> "引号"', 1.5]);
    expect(ws.getRow(3).getCell(1).value).toBe('  前后空格  ');
    // Characters XML cannot hold are dropped; a number that is not finite is written as its text.
    expect(ws.getRow(4).values).toEqual([undefined, '控制字符', 'NaN']);
    // A formula-looking text stays text.
    expect(ws.getRow(5).getCell(1).value).toBe('=HYPERLINK("http://x")');
    expect(ws.getRow(5).getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(ws.getRow(6).getCell(1).value).toBeNull();
    expect(String(ws.getRow(7).getCell(1).value)).toHaveLength(32_767);
    expect(ws.getRow(7).getCell(2).value).toBe(12345678901);
    expect(ws.rowCount).toBe(7);
  });

  it('waits for its reader: asks for the next batch only once what came before has been taken', async () => {
    let asked = 0;
    // Random text, so that the zip cannot squeeze a batch into a few bytes.
    const rows = (n: number) => Array.from({ length: 2000 }, (_, i) => ({ name: `第${n}批${randomBytes(48).toString('base64')}`, n: i }));
    async function* batches() {
      for (let n = 0; n < 200; n++) {
        asked++;
        yield rows(n);
      }
    }
    // A reader that takes nothing until told.
    const held: ((err?: Error | null) => void)[] = [];
    const out = new Writable({ highWaterMark: 16 * 1024, write: (_c, _e, done) => void held.push(done) });
    const abort = new AbortController();
    const writing = writeXlsx(out, 's', COLUMNS, batches(), abort.signal);
    // Held back: the zip's buffers fill (a few megabytes, whatever the row count), then no more batches are read.
    let before = -1;
    for (let i = 0; i < 40 && asked !== before; i++) {
      before = asked;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(asked).toBe(before);
    expect(asked).toBeLessThan(100);
    // The reader goes away: no more reads, and the writer says it was abandoned.
    abort.abort();
    held.forEach((done) => done());
    expect(await writing).toMatchObject({ status: 'aborted' });
    const after = asked;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toBe(after);
  });
});
