import ExcelJS from 'exceljs';
import type { Readable } from 'node:stream';
import { AppError, badRequest } from './errors.ts';

/** Reading an uploaded .xlsx (the school list, a school's roster): its first sheet, and a cell as the text it shows. */

export const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v) return String(v.text);
    if ('result' in v) return String(v.result ?? '');
    return '';
  }
  return String(v);
};

/** The upload's first worksheet; refused when larger than `maxBytes`, not an .xlsx, or without a sheet. */
export async function readSheet(content: Readable, maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of content) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new AppError(413, `文件不能超过${Math.round(maxBytes / 1024 / 1024)}MB`);
    chunks.push(chunk as Buffer);
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  } catch {
    throw badRequest('无法读取该文件，请上传Excel（.xlsx）文件', { file: '无法读取该文件，请上传Excel（.xlsx）文件' });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw badRequest('文件中没有工作表', { file: '文件中没有工作表' });
  return sheet;
}
