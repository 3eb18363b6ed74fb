import {
  ACCEPTED_ENCODINGS,
  CsvError,
  DecodeInvalid,
  DecodeRestart,
  ENCODING_NAMES,
  decodeBytes,
  newReport,
  plausibleText,
  type DecodeReport,
  type Encoding,
} from './decode.ts';
import { openBytes, rereadable, type CsvInput } from './unpack.ts';

export { CsvError, type CsvProblem } from './decode.ts';
export { csvMime, memoryCsv, storedCsv, type CsvFile, type CsvInput } from './unpack.ts';

export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Streams the records of a CSV file (RFC 4180: commas, double quotes, quotes doubled inside quotes; CR, LF or CRLF
 * line ends), each with the line it starts on. Blank lines are skipped. The input may be a CSV, a .csv.gz or a .zip
 * holding one CSV (unpack.ts), in any encoding decode.ts reads; problems are CsvErrors with their line.
 */
export async function* csvRecords(source: CsvInput, options: ReadOptions = {}): AsyncGenerator<CsvRecord> {
  for await (const batch of csvBatches(source, options)) yield* batch;
}

export interface ReadOptions {
  /** Read in this encoding (a BOM of it is dropped) instead of deciding. */
  encoding?: Encoding | null;
  /** Filled in with what the pass learned about the encoding. */
  report?: DecodeReport;
}

/**
 * The longest field and record (line, or lines of one quoted record) any CSV path reads, in characters (issue 32): a
 * file of one endless field must not grow the reader's memory until the process dies. Past either, the file is
 * refused naming the line the record starts on.
 */
export const MAX_FIELD_CHARS = 100_000;
export const MAX_RECORD_CHARS = 1_000_000;
const fieldTooLong = (line: number) => new CsvError([{ line, message: `有一个字段超过${MAX_FIELD_CHARS}个字符，请检查是否有引号没有闭合或缺少换行` }]);
const recordTooLong = (line: number) => new CsvError([{ line, message: `这一行超过${MAX_RECORD_CHARS}个字符，请检查是否缺少换行` }]);

/**
 * The records of a CSV file, a decoded chunk's worth at a time: scoring a million rows through one promise per record
 * would spend more time in the generator than in the data. A line with no quote is split as a whole; a record with
 * quotes, or one cut by the end of a chunk, goes through the character-by-character state machine, which carries its
 * state from chunk to chunk.
 */
export async function* csvBatches(source: CsvInput, options: ReadOptions = {}): AsyncGenerator<CsvRecord[]> {
  const report = options.report ?? newReport();
  let field = '';
  let fields: string[] = [];
  // Characters of the current record held in `fields` (the slow path's), with a separator each.
  let held = 0;
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
    held = 0;
    field = '';
    afterQuote = false;
    fresh = true;
  };
  const grew = () => {
    if (field.length > MAX_FIELD_CHARS) throw fieldTooLong(recordLine);
    if (held + field.length > MAX_RECORD_CHARS) throw recordTooLong(recordLine);
  };
  const texts = decodeBytes(await openBytes(source), options.encoding ?? null, report);
  try {
    for await (const decoded of texts) {
      // A NUL is in no text file: what comes before it is read, so the problem is reported on its line.
      const nul = decoded.indexOf('\0');
      const text = nul < 0 ? decoded : decoded.slice(0, nul);
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
              if (end - i > MAX_RECORD_CHARS) throw recordTooLong(recordLine);
              if (end > i) {
                const split = text.slice(i, end).split(',');
                if (end - i > MAX_FIELD_CHARS && split.some((f) => f.length > MAX_FIELD_CHARS)) throw fieldTooLong(recordLine);
                out.push({ line: recordLine, fields: split });
              }
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
            grew();
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
          held += field.length + 1;
          field = '';
          afterQuote = false;
          grew();
        } else if (c === '\n' || c === '\r') {
          endRecord();
          line++;
          recordLine = line;
          pendingCR = c === '\r';
        } else {
          field += c;
          afterQuote = false;
          grew();
        }
      }
      if (nul >= 0) throw new CsvError([{ line, message: '含有空字符（NUL），不是文本格式的CSV；若为不带BOM的UTF-16文件，请另存为UTF-8编码的CSV' }]);
      if (out.length) {
        yield out;
        out = [];
      }
    }
  } catch (err) {
    if (err instanceof DecodeInvalid) {
      const names = err.encodings.map((e) => ENCODING_NAMES[e]).join('或');
      throw new CsvError([{ line, message: `有无法按${names}编码读取的字节；请将文件保存为${ACCEPTED_ENCODINGS}编码的CSV` }]);
    }
    throw err;
  }
  if (quoted) throw new CsvError([{ line: recordLine, message: '引号没有闭合' }]);
  if (field !== '' || fields.length) endRecord();
  if (out.length) yield out;
}

/** How a reader tells two readings of an ambiguous file apart (see readCsv). */
export interface Disambiguation<T> {
  /** The two readings give the same result: the encoding does not matter. */
  same(a: T, b: T): boolean;
  /** Per column name, the values that count as recognised (the answer's ids, its classes): more wins. */
  known?: () => Record<string, { has(value: string): boolean }>;
}

const ambiguousMessage = (diff: { a: string; b: string } | null) =>
  `文件按UTF-8和GBK/GB18030两种编码都能读取，但读出的内容不同${diff ? `（UTF-8读作“${diff.a}”，GBK读作“${diff.b}”）` : ''}，无法确定编码；请另存为带BOM的UTF-8（Excel中的“CSV UTF-8”）或带BOM的UTF-16编码后重新上传`;

/**
 * Reads a CSV with `consume`, deciding its encoding on the whole file (decode.ts), the one reader of answer and
 * prediction files. The rule for a file without a BOM that is valid both as UTF-8 and as GB18030 and holds non-ASCII
 * text, which never changes a result silently:
 * 1. the readings are both consumed; when one is refused (CsvError) the other wins; when both give the same result,
 *    it is kept;
 * 2. otherwise the reading in which more values of the `known` columns are recognised (ids of the answers, labels among
 *    the answer's classes) wins (prediction files);
 * 3. otherwise, when in one reading every value the readings disagree on is ordinary text and in the other not, that
 *    reading wins (plausibleText: as GBK only GB2312 hanzi and Chinese punctuation are; this decides UTF-8 answer files,
 *    whose Chinese reads as GBK mojibake such as “鐚挭” for “猫咪”);
 * 4. otherwise the file is refused, naming the encodings that decide it (a BOM).
 * A reading refused under UTF-8 is also tried as GB18030 when the file may be that; the UTF-8 problems are reported
 * when both fail. A one-shot stream is read once (no second reading).
 */
export async function readCsv<T>(input: CsvInput, consume: (batches: AsyncIterable<CsvRecord[]>) => Promise<T>, rule: Disambiguation<T>): Promise<T> {
  const again = rereadable(input);
  const read = (encoding: Encoding | null, report = newReport()) => consume(csvBatches(input, { encoding, report }));
  const report = newReport();
  let first: T;
  try {
    first = await read(null, report);
  } catch (err) {
    if (err instanceof DecodeRestart) {
      if (!again) throw new CsvError([{ line: 0, message: `文件编码无法确定；请将文件保存为${ACCEPTED_ENCODINGS}编码的CSV` }]);
      return read('gb18030');
    }
    if (err instanceof CsvError && again && !report.fixed && report.encoding === 'utf-8' && report.nonAscii && report.gbValid) {
      try {
        return await read('gb18030');
      } catch (second) {
        if (second instanceof CsvError) throw err;
        throw second;
      }
    }
    throw err;
  }
  if (!(again && !report.fixed && report.encoding === 'utf-8' && report.nonAscii && report.gbValid)) return first;
  let second: T;
  try {
    second = await read('gb18030');
  } catch (err) {
    if (err instanceof CsvError) return first;
    throw err;
  }
  if (rule.same(first, second)) return first;
  if (rule.known) {
    const known = rule.known();
    const [a, b] = [await countKnown(input, 'utf-8', known), await countKnown(input, 'gb18030', known)];
    if (a !== b) return a > b ? first : second;
  }
  const diffs = await differences(input, 200);
  const [a, b] = [diffs.every((d) => plausibleText(d.a, 'utf-8')), diffs.every((d) => plausibleText(d.b, 'gb18030'))];
  if (diffs.length && a !== b) return a ? first : second;
  const diff = diffs[0] ?? null;
  throw new CsvError([{ line: diff?.line ?? 0, message: ambiguousMessage(diff) }]);
}

/** How many values of the named columns each set recognises, reading the file in `encoding`. */
async function countKnown(input: CsvInput, encoding: Encoding, known: Record<string, { has(value: string): boolean }>): Promise<number> {
  let columns: [number, { has(value: string): boolean }][] | null = null;
  let count = 0;
  for await (const batch of csvBatches(input, { encoding })) {
    for (const { fields } of batch) {
      if (!columns) {
        const names = fields.map((f) => f.trim());
        columns = Object.entries(known).flatMap(([name, set]) => (names.includes(name) ? [[names.indexOf(name), set] as [number, typeof set]] : []));
        // A column name recognised is a value recognised too (the classes of a multi-class file are its columns).
        count += names.filter((n) => Object.values(known).some((set) => set.has(n))).length;
        continue;
      }
      for (const [at, set] of columns) if (set.has((fields[at] ?? '').trim())) count++;
    }
  }
  return count;
}

/** The first `limit` fields that read differently as UTF-8 (`a`) and as GB18030 (`b`), with their lines. */
async function differences(input: CsvInput, limit: number): Promise<{ line: number; a: string; b: string }[]> {
  const a = csvRecords(input, { encoding: 'utf-8' });
  const b = csvRecords(input, { encoding: 'gb18030' });
  const cut = (v: string) => (v.length > 20 ? `${v.slice(0, 20)}…` : v);
  const out: { line: number; a: string; b: string }[] = [];
  try {
    while (out.length < limit) {
      const [x, y] = [await a.next(), await b.next()];
      if (x.done || y.done) break;
      x.value.fields.forEach((f, i) => {
        const g = y.value.fields[i] ?? '';
        if (f !== g && out.length < limit) out.push({ line: x.value.line, a: cut(f), b: cut(g) });
      });
    }
    return out;
  } catch {
    return out;
  } finally {
    await a.return(undefined);
    await b.return(undefined);
  }
}
