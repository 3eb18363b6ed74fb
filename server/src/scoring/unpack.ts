import { Readable, pipeline } from 'node:stream';
import { TextDecoder } from 'node:util';
import { createGunzip, createInflateRaw } from 'node:zlib';
import { CsvError } from './decode.ts';

/**
 * An uploaded file that can be read more than once and in ranges: a stored file, or bytes in memory. `maxBytes` bounds
 * the CSV it holds, counted after decompression.
 */
export interface CsvFile {
  read(range?: { start: number; end: number }): Promise<Readable>;
  size(): Promise<number | null>;
  maxBytes: number;
}

/** What the CSV reader accepts: a re-readable file, bytes or text (both re-readable), or a one-shot stream. */
export type CsvInput = CsvFile | Buffer | string | Readable | AsyncIterable<Buffer | string>;

export const isCsvFile = (input: CsvInput): input is CsvFile => typeof (input as CsvFile).read === 'function' && typeof (input as CsvFile).size === 'function';
export const rereadable = (input: CsvInput) => typeof input === 'string' || Buffer.isBuffer(input) || isCsvFile(input);

/** A stored file as a CsvFile. */
export const storedCsv = (
  storage: { get(key: string, range?: { start: number; end: number }): Promise<Readable>; size(key: string): Promise<number | null> },
  key: string,
  maxBytes: number,
): CsvFile => ({
  read: (range) => storage.get(key, range),
  size: () => storage.size(key),
  maxBytes,
});

/** Bytes in memory as a CsvFile (tests, and strings or buffers given to the reader). */
export const memoryCsv = (bytes: Buffer | string, maxBytes = Infinity): CsvFile => {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return {
    read: async (range) => Readable.from([range ? buf.subarray(range.start, range.end + 1) : buf]),
    size: async () => buf.length,
    maxBytes,
  };
};

/** No bytes: an empty file. */
const nothing = async function* (): AsyncGenerator<Buffer> {};

const MB = (n: number) => `${Math.round(n / 1024 / 1024)}MB`;
const tooLarge = (max: number) => new CsvError([{ line: 0, message: `解压后的文件超过${MB(max)}，请减小文件后重新上传` }]);
const broken = (what: string) => new CsvError([{ line: 0, message: `${what}已损坏或不完整，无法解压，请重新压缩后上传` }]);

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(parts);
}

/**
 * Passes the bytes on, refusing as soon as more than `max` have come (a compression bomb is stopped after `max` bytes
 * of output, whatever it would expand to). zlib's errors become a message about a damaged archive.
 */
async function* limited(source: AsyncIterable<Buffer>, max: number, archive: string | null): AsyncGenerator<Buffer> {
  let total = 0;
  try {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > max) throw tooLarge(max);
      yield chunk;
    }
  } catch (err) {
    if (archive && typeof (err as { code?: unknown }).code === 'string' && (err as { code: string }).code.startsWith('Z_')) throw broken(archive);
    throw err;
  } finally {
    (source as Readable).destroy?.();
  }
}

const through = (source: Readable, transform: NodeJS.ReadWriteStream): Readable => pipeline(source, transform, () => {}) as unknown as Readable;

const GZIP = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
const ZIP = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && (b[2] === 3 || b[2] === 5) && (b[3] === 4 || b[3] === 6);

/**
 * The bytes of the CSV an input holds: a plain CSV, a gzip file (`.csv.gz`) or a ZIP archive holding one CSV, told
 * apart by their first bytes, never by the name. Declared sizes over the limit are refused before anything is inflated.
 */
/** The media type a stored answer or prediction file is recorded with: what its first bytes say it is. */
export async function csvMime(file: CsvFile): Promise<string> {
  const size = await file.size();
  if (!size) return 'text/csv';
  const head = await readAll(await file.read({ start: 0, end: Math.min(size, 4) - 1 }));
  return GZIP(head) ? 'application/gzip' : ZIP(head) ? 'application/zip' : 'text/csv';
}

export async function openBytes(input: CsvInput): Promise<AsyncIterable<Buffer | string>> {
  if (!isCsvFile(input)) {
    if (typeof input === 'string' || Buffer.isBuffer(input)) return openBytes(memoryCsv(input));
    return oneShot(input);
  }
  const max = input.maxBytes;
  const size = await input.size();
  if (size === null) throw Object.assign(new Error('stored file is missing'), { code: 'ENOENT' });
  if (size === 0) return nothing();
  const head = await readAll(await input.read({ start: 0, end: Math.min(size, 4) - 1 }));
  if (GZIP(head)) {
    if (size >= 18) {
      // ISIZE: the uncompressed length modulo 2^32 of the last member; a lie is still caught by the running count.
      const isize = (await readAll(await input.read({ start: size - 4, end: size - 1 }))).readUInt32LE(0);
      if (isize > max) throw tooLarge(max);
    }
    return limited(through(await input.read(), createGunzip()), max, '压缩文件');
  }
  if (ZIP(head)) return openZip(input, size, max);
  return limited(await input.read(), max, null);
}

/** A stream read once: gzip is recognised; a ZIP archive needs random access and is refused. */
async function oneShot(source: Readable | AsyncIterable<Buffer | string>): Promise<AsyncIterable<Buffer | string>> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return nothing();
  const chunk = typeof first.value === 'string' ? Buffer.from(first.value) : first.value;
  const rest = Readable.from(
    (async function* () {
      yield chunk;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    })(),
  );
  if (GZIP(chunk)) return limited(through(rest, createGunzip()), Infinity, '压缩文件');
  if (ZIP(chunk)) throw new CsvError([{ line: 0, message: '无法读取该ZIP压缩包' }]);
  return rest;
}

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  offset: number;
}

const zipName = (raw: Buffer, utf8: boolean) => {
  if (utf8) return raw.toString('utf8');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    // Windows writes names in the system code page, GBK on Chinese Windows.
    return new TextDecoder('gb18030').decode(raw);
  }
};

/** Entries a packer adds by itself (folders, macOS resource forks and Finder files), which are not the CSV. */
export const incidental = (name: string) => {
  const base = name.split('/').pop()!;
  return name.endsWith('/') || name.startsWith('__MACOSX/') || base.startsWith('._') || base === '.DS_Store' || base === 'Thumbs.db';
};

async function openZip(file: CsvFile, size: number, max: number): Promise<AsyncIterable<Buffer>> {
  try {
    return await readZip(file, size, max);
  } catch (err) {
    // A field pointing outside the buffer read: a damaged archive, not a fault of the server.
    if (err instanceof RangeError) throw broken('ZIP压缩包');
    throw err;
  }
}

/**
 * The entries of a ZIP archive, from its central directory (ZIP64 too). Throws a CsvError for an archive that is not
 * one, and a RangeError for a field pointing outside it (openZip tells both as a damaged archive).
 */
export async function zipEntries(file: CsvFile, size: number): Promise<ZipEntry[]> {
  const bad = broken('ZIP压缩包');
  // The end of central directory record is in the last 22 + 65535 bytes.
  const tailStart = Math.max(0, size - 22 - 65535);
  const tail = await readAll(await file.read({ start: tailStart, end: size - 1 }));
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw bad;
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    // ZIP64: the locator just before the record points at the ZIP64 end record.
    const loc = eocd - 20;
    if (loc < 0 || tail.readUInt32LE(loc) !== 0x07064b50) throw bad;
    const at = Number(tail.readBigUInt64LE(loc + 8));
    const rec = await readAll(await file.read({ start: at, end: Math.min(size - 1, at + 55) }));
    if (rec.length < 56 || rec.readUInt32LE(0) !== 0x06064b50) throw bad;
    count = Number(rec.readBigUInt64LE(32));
    cdSize = Number(rec.readBigUInt64LE(40));
    cdOffset = Number(rec.readBigUInt64LE(48));
  }
  if (cdOffset + cdSize > size || cdSize > 16 * 1024 * 1024) throw bad;
  const cd = cdSize ? await readAll(await file.read({ start: cdOffset, end: cdOffset + cdSize - 1 })) : Buffer.alloc(0);
  const entries: ZipEntry[] = [];
  for (let p = 0, n = 0; n < count; n++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) throw bad;
    const flags = cd.readUInt16LE(p + 8);
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    const entry: ZipEntry = {
      name: zipName(cd.subarray(p + 46, p + 46 + nameLen), (flags & 0x800) !== 0),
      method: cd.readUInt16LE(p + 10),
      flags,
      compressedSize: cd.readUInt32LE(p + 20),
      size: cd.readUInt32LE(p + 24),
      offset: cd.readUInt32LE(p + 42),
    };
    // ZIP64 sizes and offset, in this order, for the fields set to 0xFFFFFFFF.
    for (let e = p + 46 + nameLen, end = e + extraLen; e + 4 <= end; ) {
      const id = cd.readUInt16LE(e);
      const len = cd.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        const next = () => {
          const v = q + 8 <= e + 4 + len ? Number(cd.readBigUInt64LE(q)) : NaN;
          q += 8;
          return v;
        };
        if (entry.size === 0xffffffff) entry.size = next();
        if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
        if (entry.offset === 0xffffffff) entry.offset = next();
      }
      e += 4 + len;
    }
    entries.push(entry);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

async function readZip(file: CsvFile, size: number, max: number): Promise<AsyncIterable<Buffer>> {
  const entries = await zipEntries(file, size);
  const files = entries.filter((e) => !incidental(e.name));
  if (files.length !== 1) {
    const names = files
      .slice(0, 3)
      .map((e) => e.name)
      .join('、');
    throw new CsvError([
      {
        line: 0,
        message: files.length ? `ZIP压缩包中须只有一个CSV文件，现有${files.length}个文件：${names}${files.length > 3 ? '等' : ''}` : 'ZIP压缩包中没有文件',
      },
    ]);
  }
  const entry = files[0]!;
  if (!/\.(csv|txt)$/i.test(entry.name)) throw new CsvError([{ line: 0, message: `ZIP压缩包中的文件须为CSV文件，现为：${entry.name}` }]);
  return zipEntryBytes(file, size, entry, max);
}

/** The unpacked bytes of one entry, at most `max` of them (a CsvError beyond). */
export async function zipEntryBytes(file: CsvFile, size: number, entry: ZipEntry, max: number): Promise<AsyncIterable<Buffer>> {
  const bad = broken('ZIP压缩包');
  if (entry.flags & 1) throw new CsvError([{ line: 0, message: 'ZIP压缩包已加密，请上传不加密的压缩包' }]);
  if (entry.method !== 0 && entry.method !== 8) throw new CsvError([{ line: 0, message: 'ZIP压缩包使用了不支持的压缩方式，请使用标准的ZIP（Deflate）压缩' }]);
  if (!Number.isFinite(entry.size) || entry.size > max) throw tooLarge(max);
  const local = await readAll(await file.read({ start: entry.offset, end: Math.min(size - 1, entry.offset + 29) }));
  if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) throw bad;
  const dataStart = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (!Number.isFinite(entry.compressedSize) || dataStart + entry.compressedSize > size) throw bad;
  if (entry.compressedSize === 0) return nothing();
  const data = await file.read({ start: dataStart, end: dataStart + entry.compressedSize - 1 });
  return limited(entry.method === 8 ? through(data, createInflateRaw()) : data, max, 'ZIP压缩包');
}
