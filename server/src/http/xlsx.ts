import type { FastifyReply } from 'fastify';
import { contentDisposition } from './send-file.ts';
import { beijing } from '../time.ts';

export interface Column<T> {
  header: string;
  width?: number;
  value: (row: T) => string | number | null;
}

/** Sends rows as an xlsx workbook with one sheet; the file name may be Chinese. */
export async function sendXlsx<T>(reply: FastifyReply, fileName: string, sheet: string, columns: Column<T>[], rows: T[]) {
  // Loaded on the first export: exceljs and its dependencies are a fifth of the server's memory at rest.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet(sheet);
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  for (const row of rows) ws.addRow(columns.map((c) => c.value(row)));
  const buffer = Buffer.from(await book.xlsx.writeBuffer());
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', contentDisposition(fileName))
    .send(buffer);
}

/** Times in exports read in Beijing time. */
export function beijingTime(iso: string | null): string {
  if (!iso) return '';
  return beijing(new Date(iso)).replace('T', ' ');
}
