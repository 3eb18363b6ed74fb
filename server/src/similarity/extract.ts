import mammoth from 'mammoth';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import yauzl from 'yauzl';

/**
 * The text of a team's written work (issue 37, item 1): a PDF (`unpdf`), a DOCX (`mammoth`), or the PDFs and DOCX
 * files inside a zip. A file that cannot be read is listed with the reason (a scan without a text layer, a password,
 * a format we do not read), never skipped in silence; its metadata (PDF author and producer, DOCX creator and last
 * editor) and a zip's entry names are kept for the blind-review check.
 */
export interface FileReading {
  /** The file's name, or its path inside the zip. */
  name: string;
  /** Characters of text read (0 when unreadable). */
  chars: number;
  /** Why no text was read; null when it was. */
  reason: string | null;
  /** Who made it, as the file says (author, creator, producer, last editor): null where absent. */
  meta: Record<string, string>;
}

export interface Extracted {
  /** The text of every readable document, in order, separated by blank lines. */
  text: string;
  /** Each document file met: read, or with the reason it was not. */
  files: FileReading[];
  /** Every entry name of a zip (folders too): a name may give a team away under blind review. */
  entries: string[];
  /** Entries of a zip that are not documents or code (data, pictures): counted. */
  otherEntries: number;
  /** The source files of a zip (or a source file handed in alone), for the comparison of code. */
  code: CodeFile[];
}

/** A source file in a language the code comparison reads (Dolos's tree-sitter grammars). */
export interface CodeFile {
  path: string;
  language: CodeLanguage;
  content: string;
}

/** Languages whose code is compared, by extension; a Jupyter notebook's code cells are Python. */
export const CODE_LANGUAGES = {
  '.py': 'python',
  '.ipynb': 'python',
  '.r': 'r',
  '.java': 'java',
  '.c': 'c',
  '.h': 'c',
  '.cpp': 'cpp',
  '.cc': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.js': 'javascript',
} as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[keyof typeof CODE_LANGUAGES];
/** A source file larger than this is not compared (generated or data, not written by hand); nor code past the total. */
export const MAX_CODE_FILE_BYTES = 512 * 1024;
export const MAX_CODE_BYTES = 4 * 1024 * 1024;

const codeLanguage = (name: string): CodeLanguage | null => {
  const ext = /\.[a-z0-9]+$/i.exec(name)?.[0]?.toLowerCase();
  return ext && ext in CODE_LANGUAGES ? CODE_LANGUAGES[ext as keyof typeof CODE_LANGUAGES] : null;
};

/** A notebook's code cells, in order; null when it is not a notebook. */
function notebookCode(text: string): string | null {
  try {
    const nb = JSON.parse(text) as { cells?: { cell_type?: string; source?: string | string[] }[] };
    if (!Array.isArray(nb.cells)) return null;
    return nb.cells
      .filter((c) => c.cell_type === 'code')
      .map((c) => (Array.isArray(c.source) ? c.source.join('') : (c.source ?? '')))
      .join('\n\n');
  } catch {
    return null;
  }
}

/** A source file's text to compare (a notebook's code cells), or null when it cannot be read as one. */
function sourceOf(name: string, data: Buffer, language: CodeLanguage): CodeFile | null {
  const text = data.toString('utf8');
  const content = name.toLowerCase().endsWith('.ipynb') ? notebookCode(text) : text;
  return content?.trim() ? { path: name, language, content } : null;
}

/** Characters of a work's text kept (a thesis of 400 pages); the rest is not compared. */
export const MAX_TEXT_CHARS = 400_000;
/** Entry names of a zip kept for the blind-review check. */
export const MAX_ENTRY_NAMES = 2000;
/** A document inside a zip larger than this is listed as too large rather than read into memory. */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;
/** At most this many documents of one zip are read; the rest are listed. */
export const MAX_DOCUMENTS = 30;
/** Fewer characters than this per page: a scan (pictures of pages), not a text document. */
const MIN_CHARS_PER_PAGE = 20;

export const REASONS = {
  scanned: '扫描件或图片（没有文字层），无法提取文字',
  encrypted: '文件已加密，无法读取',
  broken: '文件已损坏或不是有效的文件',
  doc: '旧版Word格式（.doc/.wps），请提交PDF或DOCX',
  tooLarge: '文件过大，未读取',
  tooMany: `压缩包中的文档超过${MAX_DOCUMENTS}个，其余未读取`,
  codeTooLarge: '代码文件过大（或代码总量超出上限），未比对',
  matlab: 'MATLAB代码暂不支持比对',
  format: '不支持的文件格式（只读取PDF、DOCX，以及zip压缩包中的PDF和DOCX）',
} as const;

const kind = (name: string) => {
  const lower = name.toLowerCase();
  if (lower.endsWith('.pdf')) return 'pdf';
  if (lower.endsWith('.docx')) return 'docx';
  if (lower.endsWith('.doc') || lower.endsWith('.wps')) return 'doc';
  if (lower.endsWith('.zip')) return 'zip';
  return 'other';
};

/** Reads a works file by its name's extension. */
export async function extractWorks(data: Buffer, name: string): Promise<Extracted> {
  const k = kind(name);
  if (k === 'zip') return readZip(data);
  const language = codeLanguage(name);
  if (language) {
    const code = data.length <= MAX_CODE_FILE_BYTES ? sourceOf(name, data, language) : null;
    return {
      text: '',
      files: code ? [] : [{ name, chars: 0, reason: REASONS.codeTooLarge, meta: {} }],
      entries: [],
      otherEntries: 0,
      code: code ? [code] : [],
    };
  }
  const reading = await readDocument(data, name);
  return {
    text: reading.text,
    files: [reading.file],
    entries: [],
    otherEntries: 0,
    code: [],
  };
}

async function readDocument(data: Buffer, name: string): Promise<{ text: string; file: FileReading }> {
  const k = kind(name);
  const failed = (reason: string, meta: Record<string, string> = {}) => ({ text: '', file: { name, chars: 0, reason, meta } });
  if (k === 'doc') return failed(REASONS.doc);
  if (k === 'other') return failed(REASONS.format);
  if (k === 'pdf') {
    let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
    try {
      doc = await getDocumentProxy(new Uint8Array(data));
    } catch (err) {
      return failed((err as { name?: string }).name === 'PasswordException' ? REASONS.encrypted : REASONS.broken);
    }
    try {
      const meta = pdfMeta(await getMeta(doc).catch(() => ({ info: {} })));
      const { text, totalPages } = await extractText(doc, { mergePages: true });
      const chars = text.replace(/\s/g, '').length;
      if (chars < MIN_CHARS_PER_PAGE * Math.max(1, totalPages)) return failed(REASONS.scanned, meta);
      return { text, file: { name, chars, reason: null, meta } };
    } catch {
      return failed(REASONS.broken);
    } finally {
      await doc.destroy();
    }
  }
  if (k === 'docx') {
    let text: string;
    try {
      text = (await mammoth.extractRawText({ buffer: data })).value;
    } catch {
      // A password-protected DOCX is an OLE container, not a zip: mammoth cannot open it.
      return failed(data.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0])) ? REASONS.encrypted : REASONS.broken);
    }
    const meta = await docxMeta(data).catch(() => ({}));
    const chars = text.replace(/\s/g, '').length;
    return { text, file: { name, chars, reason: null, meta } };
  }
  return failed(REASONS.broken);
}

/** The PDF's Info dictionary: who wrote it and with what. */
function pdfMeta(m: { info: Record<string, unknown> }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, label] of [
    ['Author', 'author'],
    ['Creator', 'creator'],
    ['Producer', 'producer'],
    ['Title', 'title'],
  ] as const) {
    const v = m.info[key];
    if (typeof v === 'string' && v.trim()) out[label] = v.trim();
  }
  return out;
}

/** A DOCX's docProps/core.xml: its creator and last editor (and title). */
async function docxMeta(data: Buffer): Promise<Record<string, string>> {
  const core = await zipEntryText(data, 'docProps/core.xml');
  const out: Record<string, string> = {};
  if (!core) return out;
  for (const [tag, label] of [
    ['dc:creator', 'author'],
    ['cp:lastModifiedBy', 'lastModifiedBy'],
    ['dc:title', 'title'],
  ] as const) {
    const m = new RegExp(`<${tag}[^>]*>([^<]*)</${tag}>`).exec(core);
    if (m?.[1]?.trim()) out[label] = decodeXml(m[1].trim());
  }
  return out;
}

const decodeXml = (s: string) => s.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!);

const openZip = (data: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true, decodeStrings: true }, (err, zip) => (err ? reject(err) : resolve(zip))),
  );

const readEntry = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<Buffer>((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(err);
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('end', () => resolve(Buffer.concat(parts)));
      stream.on('error', reject);
    }),
  );

/** Every entry of a zip in order, each handed to `visit` (which may read it) before the next is read. */
async function eachEntry(data: Buffer, visit: (zip: yauzl.ZipFile, entry: yauzl.Entry) => Promise<boolean | undefined>) {
  const zip = await openZip(data);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        visit(zip, entry).then((stop) => (stop ? resolve() : zip.readEntry()), reject);
      });
      zip.on('end', resolve);
      zip.on('error', reject);
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

async function zipEntryText(data: Buffer, path: string): Promise<string | null> {
  let found: string | null = null;
  await eachEntry(data, async (zip, entry) => {
    if (entry.fileName !== path) return false;
    found = (await readEntry(zip, entry)).toString('utf8');
    return true;
  });
  return found;
}

/** A zip of works: its PDFs and DOCX files read in order (a macOS resource fork or a hidden file is not a document). */
async function readZip(data: Buffer): Promise<Extracted> {
  const out: Extracted = { text: '', files: [], entries: [], otherEntries: 0, code: [] };
  const texts: string[] = [];
  let documents = 0;
  let codeBytes = 0;
  try {
    await eachEntry(data, async (zip, entry) => {
      const name = entry.fileName;
      if (out.entries.length < MAX_ENTRY_NAMES) out.entries.push(name);
      if (name.endsWith('/')) return false;
      const base = name.split('/').at(-1)!;
      const k = kind(name);
      const hidden = name.startsWith('__MACOSX/') || base.startsWith('._') || name.includes('.ipynb_checkpoints/');
      const language = hidden ? null : codeLanguage(name);
      if (language) {
        if (entry.uncompressedSize > MAX_CODE_FILE_BYTES || codeBytes + entry.uncompressedSize > MAX_CODE_BYTES || entry.isEncrypted()) {
          out.files.push({ name, chars: 0, reason: entry.isEncrypted() ? REASONS.encrypted : REASONS.codeTooLarge, meta: {} });
          return false;
        }
        codeBytes += entry.uncompressedSize;
        const code = sourceOf(name, await readEntry(zip, entry), language);
        if (code) out.code.push(code);
        return false;
      }
      if (!hidden && /\.m$/i.test(name)) {
        out.files.push({ name, chars: 0, reason: REASONS.matlab, meta: {} });
        return false;
      }
      if (hidden || (k !== 'pdf' && k !== 'docx' && k !== 'doc')) {
        out.otherEntries++;
        return false;
      }
      const failed = (reason: string) => out.files.push({ name, chars: 0, reason, meta: {} });
      if (++documents > MAX_DOCUMENTS) failed(REASONS.tooMany);
      else if (entry.isEncrypted()) failed(REASONS.encrypted);
      else if (entry.uncompressedSize > MAX_DOCUMENT_BYTES) failed(REASONS.tooLarge);
      else {
        const read = await readDocument(await readEntry(zip, entry), name);
        out.files.push(read.file);
        if (read.text) texts.push(read.text);
      }
      return false;
    });
  } catch {
    out.files.push({ name: '（压缩包）', chars: 0, reason: REASONS.broken, meta: {} });
  }
  out.text = texts.join('\n\n');
  return out;
}
