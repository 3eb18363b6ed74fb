import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileStore } from '../storage/file-store.ts';
import { IdIndex } from './ids.ts';
import type { Answers, Evaluation } from './score.ts';

/**
 * A loaded answer file as bytes, stored beside the CSV when it is uploaded (and again when its evaluation changes), so
 * that a scoring job that does not hold it reads these arrays back instead of reading, checking and indexing the CSV
 * again: the split is decided once, at upload. Ten million rows are about 330 MB, read back in a fraction of the time
 * the CSV takes to read. The layout: 8 bytes of magic, the length of a JSON header (4 bytes, little-endian), the header,
 * then each array at an offset that is a multiple of 8, in the header's order.
 */
const MAGIC = Buffer.from('CPANSW01');

interface Header {
  rows: number;
  shift: number;
  /** Numbers, or the labels in order of first appearance (the rows hold their index), or text (UTF-8 with offsets). */
  truth: { kind: 'numbers' } | { kind: 'labels'; labels: string[] } | { kind: 'text' };
  /** Byte length of each section, in order. */
  sections: number[];
}

const align = (n: number) => Math.ceil(n / 8) * 8;
const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** The stored form of loaded answers, as a list of buffers to write one after the other. */
export function prepareAnswers(answers: Answers): Buffer[] {
  const parts = answers.index.parts();
  const rows = answers.index.size;
  let truth: Header['truth'];
  let truthSections: ArrayBufferView[];
  if (answers.truth instanceof Float64Array) {
    truth = { kind: 'numbers' };
    truthSections = [answers.truth];
  } else {
    const codes = new Map<string, number>();
    const rowCodes = new Uint32Array(rows);
    for (let i = 0; i < rows && codes.size <= 65_536; i++) {
      const t = answers.truth[i]!;
      let code = codes.get(t);
      if (code === undefined) codes.set(t, (code = codes.size));
      rowCodes[i] = code;
    }
    if (codes.size <= 65_536) {
      truth = { kind: 'labels', labels: [...codes.keys()] };
      truthSections = [rowCodes];
    } else {
      truth = { kind: 'text' };
      const text = Buffer.from(answers.truth.join(''));
      const starts = new Float64Array(rows + 1);
      for (let i = 0, at = 0; i < rows; i++) starts[i + 1] = at += Buffer.byteLength(answers.truth[i]!);
      truthSections = [text, starts];
    }
  }
  const sections: ArrayBufferView[] = [parts.bytes, parts.starts, parts.bucketStart, parts.entries, answers.isPublic, ...truthSections];
  const header = Buffer.from(JSON.stringify({ rows, shift: parts.shift, truth, sections: sections.map((s) => s.byteLength) } satisfies Header));
  const out: Buffer[] = [MAGIC, Buffer.from(new Uint32Array([header.length]).buffer), header, Buffer.alloc(align(12 + header.length) - 12 - header.length)];
  for (const s of sections) out.push(bytesOf(s), Buffer.alloc(align(s.byteLength) - s.byteLength));
  return out;
}

/** Loaded answers from their stored form; null when the bytes are not one (another version, or cut short). */
export function restoreAnswers(buf: Buffer): Answers | null {
  if (buf.length < 12 || !buf.subarray(0, 8).equals(MAGIC) || buf.byteOffset % 8 !== 0) return null;
  const headerLength = buf.readUInt32LE(8);
  let header: Header;
  try {
    header = JSON.parse(buf.toString('utf8', 12, 12 + headerLength)) as Header;
  } catch {
    return null;
  }
  let at = align(12 + headerLength);
  if (at + header.sections.reduce((n, s) => n + align(s), 0) > buf.length) return null;
  const next = () => {
    const s = buf.subarray(at, at + header.sections.shift()!);
    at += align(s.length);
    return s;
  };
  const u32 = (s: Buffer) => new Uint32Array(s.buffer, s.byteOffset, s.length / 4);
  const bytes = next();
  const starts = u32(next());
  const bucketStart = u32(next());
  const e = next();
  const entries = new Int32Array(e.buffer, e.byteOffset, e.length / 4);
  const isPublic = next();
  const rows = header.rows;
  if (starts.length !== rows + 1 || entries.length !== rows * 2 || isPublic.length !== rows) return null;
  let truth: Answers['truth'];
  if (header.truth.kind === 'numbers') {
    const s = next();
    truth = new Float64Array(s.buffer, s.byteOffset, s.length / 8);
  } else if (header.truth.kind === 'labels') {
    const codes = u32(next());
    const labels = header.truth.labels;
    truth = new Array<string>(rows);
    for (let i = 0; i < rows; i++) truth[i] = labels[codes[i]!]!;
  } else {
    const text = next();
    const s = next();
    const offsets = new Float64Array(s.buffer, s.byteOffset, s.length / 8);
    truth = new Array<string>(rows);
    for (let i = 0; i < rows; i++) truth[i] = text.toString('utf8', offsets[i], offsets[i + 1]);
  }
  if (truth.length !== rows) return null;
  return { index: IdIndex.restore({ bytes, starts, bucketStart, entries, shift: header.shift }), truth, isPublic };
}

/** What a stored form was loaded from and under: the answer file and the whole setting (a change means another). */
export const preparedTag = (answerKey: string, ev: Evaluation) => hash('sha256', JSON.stringify([MAGIC.toString(), answerKey, ev]));

/** Stores the loaded answers; answers the key. */
export async function storePrepared(storage: FileStore, answers: Answers): Promise<string> {
  return (await storage.put(Readable.from(prepareAnswers(answers)), { prefix: 'answer-index', maxBytes: Number.MAX_SAFE_INTEGER })).key;
}

/** Reads stored answers back into one buffer (so every array is a view on it); null when missing or unreadable. */
export async function readPrepared(storage: FileStore, key: string): Promise<Answers | null> {
  const size = await storage.size(key);
  if (size === null || size < 12) return null;
  const buf = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for await (const chunk of await storage.get(key)) {
    const c = chunk as Buffer;
    if (at + c.length > size) return null;
    c.copy(buf, at);
    at += c.length;
  }
  return at === size ? restoreAnswers(buf) : null;
}
