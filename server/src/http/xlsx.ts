import { PassThrough, type Writable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
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

/**
 * A full garbage collection, for long exports. What an export allocates (rows read, cells, XML) is garbage a batch
 * later, but it lives across the waits for the database and the socket, so V8 moves it to the old generation and lets
 * that grow by hundreds of megabytes before collecting it: the server would pass its memory budget on a large export
 * although it holds one batch at a time. Collecting whenever the heap has grown by GARBAGE_BYTES since the export
 * began keeps it near what is live (a pause of a few tens of milliseconds, once per tens of thousands of rows).
 */
const collect: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (() => void) | undefined;
  return typeof gc === 'function' ? gc : () => undefined;
})();
const GARBAGE_BYTES = 48 * 1024 * 1024;
const heapUsed = () => v8.getHeapStatistics().used_heap_size;

/** A column's letters: 0 -> A, 25 -> Z, 26 -> AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Text as XML character data: escaped, without the control characters XML 1.0 forbids. */
const xmlText = (text: string) =>
  // eslint-disable-next-line no-control-regex
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** Excel keeps at most this many characters in a cell. */
const CELL_MAX = 32_767;

/** One cell: a number as a number, anything else as an inline string (never a formula); style 1 is the bold header. */
function cellXml(ref: string, value: string | number | null, style = 0): string {
  if (value === null || value === '') return '';
  const s = style ? ` s="${style}"` : '';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"${s}><v>${value}</v></c>`;
  const text = xmlText(String(value).slice(0, CELL_MAX));
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${text}</t></is></c>`;
}

const rowXml = (n: number, values: (string | number | null)[], style = 0) =>
  `<row r="${n}">${values.map((v, i) => cellXml(`${columnName(i)}${n}`, v, style)).join('')}</row>`;

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The workbook's fixed parts around its one sheet. */
function workbookParts(sheet: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${xmlText(sheet.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      'xl/styles.xml',
      `${XML}<styleSheet xmlns="${MAIN_NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    ],
  ];
}

/** Resolves once `stream` may take more (or the export was abandoned): the writer never runs ahead of its reader. */
function drained(stream: Writable, signal: AbortSignal): Promise<void> {
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
 * Writes rows as an xlsx workbook with one sheet to `out`, streaming: the sheet's XML is written row by row into the
 * zip (archiver, deflate), and the next batch is not asked for until the zip has room, which it has only once `out`
 * has taken what came before; so memory stays the same whatever the row count and however slowly `out` is read.
 * (exceljs's streaming writer was used before; it keeps every byte of the uncompressed sheet until the end.) Stops
 * asking for batches (the iterator's `return` runs: no more reads) when `signal` aborts. Ends `out` only when the
 * workbook is complete; on an error it rejects and leaves `out` to the caller (a reply destroys its socket). The header
 * row is bold; columns get their widths.
 */
export async function writeXlsx<T>(
  out: Writable,
  sheet: string,
  columns: Column<T>[],
  batches: RowBatches<T> | AsyncIterator<T[]>,
  signal: AbortSignal = new AbortController().signal,
  first?: T[],
): Promise<XlsxOutcome> {
  const { default: archiver } = await import('archiver');
  const iterator = iteratorOf(batches);
  const zip = archiver('zip', { zlib: { level: 6 } });
  let zipError: unknown;
  zip.on('error', (err) => {
    zipError = err;
  });
  zip.on('warning', (err) => {
    zipError = err;
  });
  // Every byte of the zip has been handed to `out` once it ends.
  const zipEnded = new Promise<void>((resolve) => zip.once('end', () => resolve()));
  zip.pipe(out, { end: false });
  for (const [name, text] of workbookParts(sheet)) zip.append(text, { name });
  const sheetXml = new PassThrough({ highWaterMark: 256 * 1024 });
  zip.append(sheetXml, { name: 'xl/worksheets/sheet1.xml' });
  const finalized = zip.finalize();
  // Writes to the sheet; waits while the sheet's buffer is full (the zip reads it as fast as `out` takes the zip).
  const write = async (text: string) => {
    if (!sheetXml.write(text)) await drained(sheetXml, signal);
  };
  const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 16}" customWidth="1"/>`).join('');
  let rows = 0;
  let finished = false;
  const heapAtStart = heapUsed();
  try {
    await write(`${XML}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><cols>${cols}</cols><sheetData>`);
    await write(
      rowXml(
        1,
        columns.map((c) => c.header),
        1,
      ),
    );
    let batch = first;
    for (;;) {
      if (!batch) {
        const next = await iterator.next();
        if (next.done) break;
        batch = next.value;
      }
      if (signal.aborted) return { status: 'aborted', rows };
      let chunk = '';
      for (const row of batch) {
        rows++;
        chunk += rowXml(
          rows + 1,
          columns.map((c) => c.value(row)),
        );
      }
      batch = undefined;
      await write(chunk);
      chunk = '';
      if (heapUsed() > heapAtStart + GARBAGE_BYTES) collect();
      if (zipError) throw zipError;
      if (signal.aborted) return { status: 'aborted', rows };
    }
    finished = true;
    sheetXml.end('</sheetData></worksheet>');
    await finalized;
    await zipEnded;
    if (zipError) throw zipError;
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    return { status: 'complete', rows };
  } finally {
    if (!finished) {
      sheetXml.destroy();
      zip.abort();
      // Abandoned or failed part way: the database reads stop here.
      await iterator.return?.()?.catch(() => undefined);
    }
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
  const outcome = await writeXlsx(out, sheet, columns, iterator, abort.signal, first.done ? [] : first.value).catch(
    (error: unknown): XlsxOutcome => ({ status: 'failed', error, rows: 0 }),
  );
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
