import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';

/** A problem found in an uploaded CSV, with the 1-based line it is on (0 when it concerns the whole file). */
export interface CsvProblem {
  line: number;
  message: string;
}

export class CsvError extends Error {
  constructor(readonly problems: CsvProblem[]) {
    super(problems.map((p) => (p.line ? `第${p.line}行：${p.message}` : p.message)).join('；'));
  }
}

/**
 * Decodes a byte stream as UTF-8 (a BOM is dropped) or, when it is not valid UTF-8, as GBK — the encoding Excel
 * uses for Chinese CSV files — and yields text. A NUL byte means the file is not text.
 */
async function* decode(source: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  let decoder: TextDecoder | null = null;
  const held: Buffer[] = [];
  let heldBytes = 0;
  for await (const raw of source) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    if (chunk.includes(0)) throw new CsvError([{ line: 0, message: '文件不是文本格式的CSV' }]);
    if (!decoder) {
      // Decide the encoding on the first 64 KiB, which holds the header and many rows.
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < 64 * 1024) continue;
      decoder = pickDecoder(Buffer.concat(held));
      yield decoder.decode(Buffer.concat(held), { stream: true });
      held.length = 0;
      continue;
    }
    yield decodeOrFail(decoder, chunk);
  }
  if (!decoder) {
    const all = Buffer.concat(held);
    decoder = pickDecoder(all);
    yield decoder.decode(all, { stream: true });
  }
  yield decodeOrFail(decoder, undefined);
}

function pickDecoder(head: Buffer): TextDecoder {
  // Cut at a line end so that a multi-byte character split by the chunk does not look invalid.
  const cut = head.lastIndexOf(0x0a);
  const sample = cut > 0 ? head.subarray(0, cut) : head;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample);
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  } catch {
    return new TextDecoder('gbk');
  }
}

function decodeOrFail(decoder: TextDecoder, chunk: Buffer | undefined): string {
  try {
    return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
  } catch {
    throw new CsvError([{ line: 0, message: '文件编码无法识别，请保存为UTF-8编码的CSV' }]);
  }
}

export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Streams the records of a CSV file (RFC 4180: commas, double quotes, quotes doubled inside quotes; LF or CRLF line
 * ends), each with the line it starts on. Blank lines are skipped.
 */
export async function* csvRecords(source: Readable | AsyncIterable<Buffer | string>): AsyncGenerator<CsvRecord> {
  for await (const batch of csvBatches(source)) yield* batch;
}

/**
 * The records of a CSV file, a decoded chunk's worth at a time: scoring a million rows through one promise per record
 * would spend more time in the generator than in the data. A line with no quote is split as a whole; a record with
 * quotes, or one cut by the end of a chunk, goes through the character-by-character state machine, which carries its
 * state from chunk to chunk.
 */
export async function* csvBatches(source: Readable | AsyncIterable<Buffer | string>): AsyncGenerator<CsvRecord[]> {
  let field = '';
  let fields: string[] = [];
  let quoted = false;
  let afterQuote = false;
  let line = 1;
  let recordLine = 1;
  let pendingCR = false;
  // True between records: nothing of the next record has been read yet, so a whole line may be split at once.
  let fresh = true;
  let out: CsvRecord[] = [];
  const endRecord = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) out.push({ line: recordLine, fields });
    fields = [];
    field = '';
    afterQuote = false;
    fresh = true;
  };
  for await (const text of decode(source as AsyncIterable<Buffer | string>)) {
    // Next LF, CR and quote at or after i; found once per chunk and again only when passed, so each scan is linear.
    let nextLF = -1;
    let nextCR = -1;
    let nextQuote = -1;
    const after = (pos: number, c: string, i: number) => (pos >= i ? pos : (text.indexOf(c, i) + 1 || Infinity) - 1);
    for (let i = 0; i < text.length; i++) {
      if (fresh && !pendingCR) {
        nextLF = after(nextLF, '\n', i);
        nextCR = after(nextCR, '\r', i);
        const end = Math.min(nextLF, nextCR);
        if (end !== Infinity) {
          nextQuote = after(nextQuote, '"', i);
          if (nextQuote > end) {
            if (end > i) out.push({ line: recordLine, fields: text.slice(i, end).split(',') });
            line++;
            recordLine = line;
            i = end;
            if (text[end] === '\r') {
              if (end + 1 === text.length) pendingCR = true;
              else if (text[end + 1] === '\n') i++;
            }
            continue;
          }
        }
      }
      fresh = false;
      const c = text[i]!;
      if (pendingCR) {
        pendingCR = false;
        if (c === '\n') {
          fresh = field === '' && fields.length === 0;
          continue;
        }
      }
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else {
            // Closing quote, or the first of a doubled quote split across chunks: the next character tells.
            quoted = false;
            afterQuote = true;
          }
        } else {
          if (c === '\n') line++;
          field += c;
        }
        continue;
      }
      if (c === '"') {
        if (afterQuote) {
          // A doubled quote split across chunks: `"a""b"`.
          field += '"';
          quoted = true;
          afterQuote = false;
        } else if (field === '') quoted = true;
        else field += c;
      } else if (c === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
      } else if (c === '\n' || c === '\r') {
        endRecord();
        line++;
        recordLine = line;
        pendingCR = c === '\r';
      } else {
        field += c;
        afterQuote = false;
      }
    }
    if (out.length) {
      yield out;
      out = [];
    }
  }
  if (quoted) throw new CsvError([{ line: recordLine, message: '引号没有闭合' }]);
  if (field !== '' || fields.length) endRecord();
  if (out.length) yield out;
}
