import { PassThrough, type Writable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from './send-file.ts';
import { beijing } from '../time.ts';

export interface Column<T> {
  header: string;
  width?: number;
  value: (row: T) => string | number | null;
}

/** Rows to export: an array, or batches read one after another (an async iterable holds one batch at a time). */
export type RowBatches<T> = AsyncIterable<T[]> | Iterable<T[]>;

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What became of a streamed workbook: written whole, abandoned because the reader went away, or failed part way. */
export type XlsxOutcome = { rows: number } & ({ status: 'complete' } | { status: 'aborted' } | { status: 'failed'; error: unknown });

/** Resolves once `stream` may take more (or the export was abandoned): the writer never runs ahead of its reader. */
function room(stream: Writable | undefined, signal: AbortSignal): Promise<void> | undefined {
  if (!stream || !stream.writableNeedDrain || stream.destroyed || signal.aborted) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('close', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Writes rows as an xlsx workbook with one sheet to `out`, with exceljs's streaming writer: each row is committed as
 * soon as it is written, and the next batch is not asked for until the zip has passed the last one on to `out` and
 * `out` has room, so memory stays the same whatever the row count and however slowly `out` is read. Stops asking for
 * batches (the iterator's `return` runs: no more reads) when `signal` aborts. Does not end `out` unless the workbook
 * is complete; on an error it rejects and leaves `out` to the caller (a reply destroys its socket). The bench may call
 * this directly with a file or a counting stream.
 */
export async function writeXlsx<T>(
  out: Writable,
  sheet: string,
  columns: Column<T>[],
  batches: RowBatches<T> | AsyncIterator<T[]>,
  signal: AbortSignal = new AbortController().signal,
  first?: T[],
): Promise<XlsxOutcome> {
  // Loaded on the first export: exceljs and its dependencies are a fifth of the server's memory at rest.
  const { default: ExcelJS } = await import('exceljs');
  const iterator = iteratorOf(batches);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = book.addWorksheet(sheet);
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  // The sheet's entry in the zip: what exceljs has written and the zip has not yet taken (exceljs itself does not wait).
  const sheetEntry = (ws as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0];
  let rows = 0;
  let finished = false;
  try {
    let batch = first;
    for (;;) {
      if (!batch) {
        const next = await iterator.next();
        if (next.done) break;
        batch = next.value;
      }
      if (signal.aborted) return { status: 'aborted', rows };
      for (const row of batch) ws.addRow(columns.map((c) => c.value(row))).commit();
      rows += batch.length;
      batch = undefined;
      await room(sheetEntry, signal);
      await room(out, signal);
      if (signal.aborted) return { status: 'aborted', rows };
    }
    finished = true;
    ws.commit();
    await book.commit();
    return { status: 'complete', rows };
  } finally {
    // Abandoned or failed part way: the database reads stop here.
    if (!finished) await iterator.return?.()?.catch(() => undefined);
  }
}

function iteratorOf<T>(batches: RowBatches<T> | AsyncIterator<T[]>): AsyncIterator<T[]> {
  if (Symbol.asyncIterator in batches) return (batches as AsyncIterable<T[]>)[Symbol.asyncIterator]();
  if (Symbol.iterator in batches) {
    const sync = batches as Iterable<T[]>;
    return (async function* () {
      yield* sync;
    })();
  }
  return batches as AsyncIterator<T[]>;
}

/**
 * Streams rows as an xlsx workbook with one sheet; the file name may be Chinese. The first batch is read before
 * anything is sent, so a refusal or a failure there still answers JSON with its message. After the first byte a
 * failure destroys the connection, so the client sees a broken download and never a short workbook that looks whole;
 * a client that goes away stops the reads.
 */
export async function streamXlsx<T>(reply: FastifyReply, fileName: string, sheet: string, columns: Column<T>[], batches: RowBatches<T>) {
  const iterator = iteratorOf(batches);
  const first = await iterator.next();
  const out = new PassThrough();
  const abort = new AbortController();
  const raw = reply.raw;
  const gone = () => {
    if (!raw.writableFinished) abort.abort();
  };
  raw.once('close', gone);
  out.once('close', () => {
    if (!out.readableEnded) abort.abort();
  });
  out.on('error', () => abort.abort());
  reply.header('content-type', XLSX_TYPE).header('content-disposition', contentDisposition(fileName)).send(out);
  const outcome = await writeXlsx(out, sheet, columns, iterator, abort.signal, first.done ? [] : first.value).catch((error: unknown): XlsxOutcome => ({ status: 'failed', error, rows: 0 }));
  raw.off('close', gone);
  if (outcome.status === 'failed') {
    reply.log.error({ err: outcome.error, fileName }, 'export failed part way; connection closed');
    raw.destroy(outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error)));
    out.destroy();
  } else if (outcome.status === 'aborted') {
    out.destroy();
  }
  return reply;
}

/** Sends rows already in memory (a short list) as an xlsx workbook, through the same streaming writer. */
export function sendXlsx<T>(reply: FastifyReply, fileName: string, sheet: string, columns: Column<T>[], rows: T[]) {
  return streamXlsx(reply, fileName, sheet, columns, [rows]);
}

/** Times in exports read in Beijing time. */
export function beijingTime(iso: string | null): string {
  if (!iso) return '';
  return beijing(new Date(iso)).replace('T', ' ');
}
