/**
 * Download tasks (spec §3): which file to fetch, where it is saved, and the key that names it.
 * Pure string work, no browser or Node API, so the web drawer and the desktop client build identical tasks.
 */

export type DownloadState = 'waiting' | 'progressing' | 'paused';

export const DOWNLOAD_STATES: readonly DownloadState[] = ['waiting', 'progressing', 'paused'];

/**
 * A task's state in a shell that keeps tasks of its own (the desktop client's engine, bridge protocol 1): spec §4's
 * states, plus `completed` (the file is in place; the page moves the task to its downloaded list) and `failed` (stopped
 * with an error; resuming tries again).
 */
export type EngineTaskState = DownloadState | 'completed' | 'failed';

export const isDownloadState = (state: unknown): state is DownloadState => DOWNLOAD_STATES.includes(state as DownloadState);

/** One task, with exactly the fields of spec §3; stored per user in the collections downloading and downloaded. */
export interface DownloadTask {
  /** Hash of savePath: two requests for the same target file are the same task. */
  key: string;
  userId: number;
  /** Name plus the extension of the source file. */
  fileName: string;
  /** The source address. */
  downloadPath: string;
  /** Download root, then the dir segments, then fileName. */
  savePath: string;
  state: DownloadState;
  receivedSize: number;
  totalSize: number;
  /** Bytes per reporting interval as the shell reports it; the display doubles it (spec §9). */
  speed: number;
  /** Completion time in ms since the epoch; null until the task completes. */
  date: number | null;
}

/** Why the desktop client's engine stopped a task (bridge protocol 1). */
export type EngineFailureCode = 'HTTP' | 'NETWORK' | 'SIZE_MISMATCH' | 'SHA256_MISMATCH' | 'UNSAFE_PATH' | 'IO';

/**
 * A task as the desktop client's engine holds and reports it (bridge protocol 1, desktop/README.md): spec §3's fields
 * with the engine's states, the user as the page gave it, and what the engine adds.
 */
export interface EngineTask extends Omit<DownloadTask, 'state' | 'userId'> {
  userId: string | number | null;
  state: EngineTaskState;
  /** Expected sha256 (hex) given with the task, if any. */
  sha256?: string;
  /** Why the task failed. */
  error?: string;
  errorCode?: EngineFailureCode;
}

/** What a page asks to download (spec §3): `dir` is a comma-separated list of folder names under the root. */
export interface TaskInput {
  dir: string;
  downloadPath: string;
  fileName: string;
}

/** Spec §9: the local database behind the drawer; both collections are keyed by [key, userId]. */
export const DOWNLOAD_DB_NAME = 'myDatabase';
export const DOWNLOAD_DB_VERSION = 1.1;

/** A dir segment or file name that would leave the download root or cannot be a file name. */
export class DownloadPathError extends Error {
  override name = 'DownloadPathError';
}

/** Suffix of the temporary file a download is written to before it takes its name (browser shell and desktop client). */
export const PART_SUFFIX = '.part';

// Windows refuses these in names (and `:` would open an NTFS alternate data stream), and its reserved device names,
// with or without an extension. The desktop client runs there, and the browser writes into a folder there.
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;
const RESERVED_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
/** Longest name (in UTF-8 bytes) the common file systems take. */
const MAX_NAME_BYTES = 255;

/**
 * The one rule for a dir segment or file name (the web drawer and the desktop client both use it): refuses what could
 * make the joined path escape the root or point elsewhere, only dots (`.`, `..`; Windows also drops trailing dots, so
 * `...` is refused too), separators of either platform, control characters (NUL ends a path in C APIs), a drive prefix
 * (`C:` is absolute on Windows), and what Windows cannot name a file: `< > : " | ? *`, a trailing dot or space,
 * reserved device names (`CON`, `NUL`, `COM1`, ...), names over 255 bytes.
 */
function checkSegment(segment: string, what: string): string {
  const fail = (why: string) => new DownloadPathError(`${what}「${segment}」不合法：${why}`);
  if (segment === '') throw fail('不能为空');
  if (/^\.+$/.test(segment)) throw fail('不能只由点组成');
  if (/[/\\]/.test(segment)) throw fail('不能包含 / 或 \\');
  if (/[\u0000-\u001f]/.test(segment)) throw fail('不能包含控制字符');
  if (/^[A-Za-z]:/.test(segment)) throw fail('不能是绝对路径');
  if (WINDOWS_FORBIDDEN.test(segment)) throw fail('不能包含 < > : " | ? * 等字符');
  if (/[. ]$/.test(segment)) throw fail('不能以点或空格结尾');
  if (RESERVED_NAMES.test(segment)) throw fail('是系统保留名称');
  if ([...utf8(segment)].length > MAX_NAME_BYTES) throw fail(`不能超过${MAX_NAME_BYTES}字节`);
  return segment;
}

/**
 * A file name as given, checked by the same rule as dir segments; a name ending in `.part` is refused too, since it
 * would be mistaken for another file's temporary file.
 */
export function safeFileName(fileName: string): string {
  checkSegment(fileName, '文件名');
  if (fileName.toLowerCase().endsWith(PART_SUFFIX)) throw new DownloadPathError(`文件名「${fileName}」不合法：不能以${PART_SUFFIX}结尾`);
  return fileName;
}

/** `"题目一, 队伍A,,"` -> `['题目一', '队伍A']`; throws DownloadPathError on an unsafe segment. */
export function dirSegments(dir: string): string[] {
  return dir
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => checkSegment(s, '下载目录'));
}

/** The last path segment of a URL or path, without query or fragment, percent-decoded when possible. */
function sourceBaseName(downloadPath: string): string {
  const path = downloadPath.split(/[?#]/, 1)[0]!;
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  try {
    return decodeURIComponent(base);
  } catch {
    return base; // a stray % is not worth refusing the download for
  }
}

/**
 * Name plus the source's extension: `('报告', '/files/a.pdf?x=1')` -> `'报告.pdf'`. The extension is not doubled
 * when the name already ends with it; an empty name falls back to the source's own file name.
 */
export function taskFileName(fileName: string, downloadPath: string): string {
  const source = sourceBaseName(downloadPath);
  const ext = /.(\.[A-Za-z0-9]{1,10})$/.exec(source)?.[1] ?? '';
  const name = fileName.trim() || source.trim();
  const full = ext && !name.toLowerCase().endsWith(ext.toLowerCase()) ? name + ext : name;
  return safeFileName(full);
}

/**
 * Root + dir segments + file name, joined with the root's own separator: a root written with backslashes is a
 * Windows path. An empty root gives a path relative to a folder the browser shell holds a handle to.
 */
export function buildSavePath(root: string, segments: readonly string[], fileName: string): string {
  const sep = root.includes('\\') ? '\\' : '/';
  const base = root.replace(/[/\\]+$/, ''); // "/" becomes "", which the join turns back into a leading "/"
  return [...(root === '' ? [] : [base]), ...segments, fileName].join(sep);
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;

/** The UTF-8 bytes of a string, so keys match whatever the platform's string encoding (TextEncoder is not ES). */
function* utf8(text: string): Generator<number> {
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (cp < 0x80) yield cp;
    else if (cp < 0x800) yield* [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
    else if (cp < 0x10000) yield* [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
    else yield* [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  }
}

/**
 * FNV-1a 64-bit of the UTF-8 bytes, as 16 hex digits. Not cryptographic, and needs not be: it names a user's own
 * tasks, and 64 bits make a collision among even a million paths less likely than one in 10^7.
 */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of utf8(text)) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  return hash.toString(16).padStart(16, '0');
}

/** A new task for `userId`, saved under `root`; throws DownloadPathError when dir or the name is unsafe. */
export function createTask(input: TaskInput, context: { userId: number; root: string }): DownloadTask {
  const fileName = taskFileName(input.fileName, input.downloadPath);
  const savePath = buildSavePath(context.root, dirSegments(input.dir), fileName);
  return {
    key: fnv1a64(savePath),
    userId: context.userId,
    fileName,
    downloadPath: input.downloadPath,
    savePath,
    state: 'waiting',
    receivedSize: 0,
    totalSize: 0,
    speed: 0,
    date: null,
  };
}
