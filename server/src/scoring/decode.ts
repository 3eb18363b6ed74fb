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
 * Text encodings of uploaded CSV files. The encoding is decided on the whole file in one streaming pass:
 * - a BOM decides (UTF-8, UTF-16 LE, UTF-16 BE), and the file must then be valid in it;
 * - without a BOM the file is read as UTF-8 while a GB18030 validator runs alongside from the first non-ASCII byte on.
 *   Invalid UTF-8 before any other non-ASCII text switches to GB18030 at once (the ASCII read so far is the same in
 *   both); invalid UTF-8 after valid non-ASCII UTF-8 asks the caller for a second pass as GB18030 (`DecodeRestart`);
 * - a file valid in both, with non-ASCII text, is `ambiguous`: the caller decides with a documented rule (csv.ts).
 */
export type Encoding = 'utf-8' | 'gb18030' | 'utf-16le' | 'utf-16be';

export const ENCODING_NAMES: Record<Encoding, string> = { 'utf-8': 'UTF-8', gb18030: 'GBK/GB18030', 'utf-16le': 'UTF-16LE', 'utf-16be': 'UTF-16BE' };
export const ACCEPTED_ENCODINGS = 'UTF-8（可带BOM）、GBK/GB18030、带BOM的UTF-16';

/** What a pass learned about the file; filled in as it reads. */
export interface DecodeReport {
  encoding: Encoding | null;
  /** Decided by a BOM or by the caller, not guessed. */
  fixed: boolean;
  nonAscii: boolean;
  /** Every byte read so far is also valid GB18030 (meaningful while reading as UTF-8 without a BOM). */
  gbValid: boolean;
}

export const newReport = (): DecodeReport => ({ encoding: null, fixed: false, nonAscii: false, gbValid: true });

/** A file read as UTF-8 turned out not to be, after text that UTF-8 read differently: read it again as GB18030. */
export class DecodeRestart extends Error {
  constructor() {
    super('re-read as GB18030');
  }
}

/** Bytes that the encoding cannot read; the CSV reader adds the line it has reached (the text before was yielded). */
export class DecodeInvalid extends Error {
  constructor(readonly encodings: Encoding[]) {
    super('invalid bytes');
  }
}

const fatal = (e: Encoding) => new TextDecoder(e, { fatal: true });

/** The text of `chunk` before the first byte `encoding` cannot read (a lenient decode cut at its first U+FFFD). */
const validPrefix = (encoding: Encoding, chunk: Buffer) => {
  const text = new TextDecoder(encoding).decode(chunk, { stream: true });
  const bad = text.indexOf('\uFFFD');
  return bad < 0 ? text : text.slice(0, bad);
};

function bomOf(head: Buffer): { encoding: Encoding; length: number } | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/**
 * Decodes a byte stream to text, in `forced` encoding when given (a BOM of that encoding is dropped), else as described
 * at the top of this file. Throws DecodeInvalid after yielding the text before the bad bytes, or DecodeRestart.
 */
export async function* decodeBytes(source: AsyncIterable<Buffer | string>, forced: Encoding | null, report: DecodeReport): AsyncGenerator<string> {
  let head: Buffer | null = Buffer.alloc(0);
  let decoder = null as TextDecoder | null;
  // Reading without a BOM: 'ascii' until the first non-ASCII byte, then 'utf-8' (with `gb` validating) or 'gb18030'.
  let auto: 'ascii' | 'utf-8' | 'gb18030' | null = null;
  let gb = null as TextDecoder | null;

  function start(first: Buffer): Buffer {
    const bom = bomOf(first);
    if (forced) {
      report.encoding = forced;
      report.fixed = true;
      decoder = fatal(forced);
      return bom?.encoding === forced ? first.subarray(bom.length) : first;
    }
    if (bom) {
      report.encoding = bom.encoding;
      report.fixed = true;
      decoder = fatal(bom.encoding);
      return first.subarray(bom.length);
    }
    report.encoding = 'utf-8';
    auto = 'ascii';
    decoder = fatal('utf-8');
    return first;
  }

  function* feed(chunk: Buffer): Generator<string> {
    const enc = report.encoding!;
    if (auto === null || auto === 'gb18030') {
      let text: string;
      try {
        text = decoder!.decode(chunk, { stream: true });
      } catch {
        yield validPrefix(enc, chunk);
        // Switched to GB18030 because the file is not UTF-8: it is neither.
        throw new DecodeInvalid(auto === 'gb18030' ? ['utf-8', 'gb18030'] : [enc]);
      }
      yield text;
      return;
    }
    let text: string;
    try {
      text = decoder!.decode(chunk, { stream: true });
    } catch {
      if (auto === 'ascii') {
        // Nothing but ASCII before: GB18030 reads that the same, so switch without a second pass.
        auto = 'gb18030';
        report.encoding = 'gb18030';
        report.nonAscii = true;
        decoder = fatal('gb18030');
        yield* feed(chunk);
        return;
      }
      if (report.gbValid) throw new DecodeRestart();
      yield validPrefix('utf-8', chunk);
      throw new DecodeInvalid(['utf-8', 'gb18030']);
    }
    if (auto === 'ascii' && text.length !== chunk.length) {
      auto = 'utf-8';
      report.nonAscii = true;
      gb = fatal('gb18030');
    }
    if (gb) {
      try {
        gb.decode(chunk, { stream: true });
      } catch {
        report.gbValid = false;
        gb = null;
      }
    }
    yield text;
  }

  for await (const raw of source) {
    let chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    if (head) {
      head = Buffer.concat([head, chunk]);
      if (head.length < 3) continue;
      chunk = start(head);
      head = null;
    }
    yield* feed(chunk);
  }
  if (head) {
    if (!head.length) return;
    yield* feed(start(head));
  }
  if (gb) {
    try {
      gb.decode();
    } catch {
      report.gbValid = false;
    }
  }
  try {
    yield decoder!.decode();
  } catch {
    if (auto === 'utf-8' && report.gbValid) throw new DecodeRestart();
    throw new DecodeInvalid(auto === 'utf-8' ? ['utf-8', 'gb18030'] : [report.encoding!]);
  }
}

/** The hanzi of GB2312 (rows 16-87), the characters of everyday Chinese text, in either encoding. */
const GB2312_HANZI = (() => {
  const set = new Set<string>();
  const d = new TextDecoder('gb18030');
  for (let a = 0xb0; a <= 0xf7; a++) for (let b = 0xa1; b <= 0xfe; b++) set.add(d.decode(Buffer.from([a, b])));
  set.delete('\uFFFD');
  return set;
})();

/**
 * Whether a value is ordinary text in the reading of `encoding` (used when a file is valid both as UTF-8 and as GB18030
 * and the two readings differ). As UTF-8: any character but controls, unassigned or private-use code points (letters
 * of every script are text). As GB18030: only ASCII, GB2312 hanzi and Chinese punctuation, since UTF-8 bytes read as
 * GBK give rare hanzi from GBK's extensions or full-width letters (UTF-8 “猫咪” reads as GBK “鐚挭”, “正常” as “姝ｅ父”).
 */
export function plausibleText(value: string, encoding: 'utf-8' | 'gb18030'): boolean {
  if (encoding === 'utf-8') return !/[\p{Cn}\p{Co}\p{Cs}\uFFFD]|(?![\t\r\n])\p{Cc}/u.test(value);
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80 || GB2312_HANZI.has(ch)) continue;
    if ((c >= 0x3000 && c <= 0x303f) || (c >= 0x2010 && c <= 0x2027) || c === 0xb7) continue;
    if ((c >= 0xff01 && c <= 0xff0f) || (c >= 0xff1a && c <= 0xff20) || (c >= 0xff5b && c <= 0xff5e)) continue;
    return false;
  }
  return true;
}
