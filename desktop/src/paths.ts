import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** A task the client will not take: its save path would leave the download root, or its source is not allowed. */
export class DownloadRefusedError extends Error {
  constructor(
    message: string,
    readonly code: 'UNSAFE_PATH' | 'FOREIGN_URL' | 'BAD_INPUT' | 'DUPLICATE',
  ) {
    super(message);
    this.name = 'DownloadRefusedError';
  }
}

/** Suffix of the temporary file a download is written to before it is renamed into place. */
export const PART_SUFFIX = '.part';

// Characters Windows refuses in names (the client also runs there), plus control characters. `:` would also
// open an NTFS alternate data stream.
const FORBIDDEN_CHARS = /[<>:"|?*\u0000-\u001f]/;
const RESERVED_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

function refuse(message: string): never {
  throw new DownloadRefusedError(message, 'UNSAFE_PATH');
}

function isAbsoluteAnywhere(p: string): boolean {
  return path.posix.isAbsolute(p) || path.win32.isAbsolute(p) || /^[a-zA-Z]:/.test(p);
}

function checkSegment(segment: string, what: string): void {
  if (segment === '.' || segment === '..') refuse(`${what}不能包含“.”或“..”：${segment}`);
  if (FORBIDDEN_CHARS.test(segment)) refuse(`${what}包含不允许的字符：${segment}`);
  if (/[. ]$/.test(segment)) refuse(`${what}不能以点或空格结尾：${segment}`);
  if (RESERVED_NAMES.test(segment)) refuse(`${what}是系统保留名称：${segment}`);
  if (Buffer.byteLength(segment) > 255) refuse(`${what}过长：${segment.slice(0, 40)}…`);
}

/**
 * The folder parts of a task (spec §3: `dir` is comma-separated; `/` and `\` inside a part also separate folders),
 * refusing anything that could leave the download root: `..` or `.` segments, absolute parts, drive letters.
 */
export function dirSegments(dir: string | undefined): string[] {
  if (!dir) return [];
  const out: string[] = [];
  for (const part of dir.split(',')) {
    if (isAbsoluteAnywhere(part.trim())) refuse(`保存目录不能是绝对路径：${part}`);
    for (const segment of part.split(/[\\/]/)) {
      if (segment.trim() === '') continue;
      checkSegment(segment, '保存目录');
      out.push(segment);
    }
  }
  return out;
}

export function checkFileName(fileName: string): void {
  if (typeof fileName !== 'string' || fileName.trim() === '') refuse('文件名不能为空');
  if (/[\\/]/.test(fileName)) refuse(`文件名不能包含路径分隔符：${fileName}`);
  checkSegment(fileName, '文件名');
  if (fileName.toLowerCase().endsWith(PART_SUFFIX)) refuse(`文件名不能以${PART_SUFFIX}结尾：${fileName}`);
}

/** True when `target` is `root` itself or lies below it (both absolute, already normalised). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `root` + dir segments + file name, checked lexically. */
export function resolveSavePath(root: string, dir: string | undefined, fileName: string): string {
  const segments = dirSegments(dir);
  checkFileName(fileName);
  const absRoot = path.resolve(root);
  const savePath = path.resolve(absRoot, ...segments, fileName);
  if (!isInside(absRoot, savePath) || savePath === absRoot) refuse(`保存路径超出下载目录：${savePath}`);
  return savePath;
}

/** The key of a task: a hash of its save path (spec §3). */
export function taskKey(savePath: string): string {
  return createHash('sha256').update(savePath).digest('hex');
}

async function lstatOrNull(p: string) {
  try {
    return await fsp.lstat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Checks on disk that `savePath` stays inside `root` once symbolic links are followed, optionally creating its
 * folder: the deepest existing ancestor must resolve inside the root's real path, and neither the file nor its
 * temporary file may be a link or anything but a regular file.
 */
export async function assertOnDiskInside(root: string, savePath: string, create: boolean): Promise<void> {
  const absRoot = path.resolve(root);
  if (!isInside(absRoot, savePath)) refuse(`保存路径超出下载目录：${savePath}`);
  if (create) await fsp.mkdir(absRoot, { recursive: true });
  let realRoot: string;
  try {
    realRoot = await fsp.realpath(absRoot);
  } catch {
    // No root yet: nothing below it can be a link.
    return;
  }
  const parent = path.dirname(savePath);
  let existing = parent;
  while (!(await lstatOrNull(existing))) existing = path.dirname(existing);
  const realExisting = await fsp.realpath(existing);
  if (!isInside(realRoot, realExisting)) refuse(`保存路径经符号链接指向下载目录之外：${savePath}`);
  if (create) {
    await fsp.mkdir(parent, { recursive: true });
    const realParent = await fsp.realpath(parent);
    if (!isInside(realRoot, realParent)) refuse(`保存路径经符号链接指向下载目录之外：${savePath}`);
    if (!(await fsp.stat(parent)).isDirectory()) refuse(`保存目录不是文件夹：${parent}`);
  }
  for (const p of [savePath, savePath + PART_SUFFIX]) {
    const st = await lstatOrNull(p);
    if (st && !st.isFile()) refuse(`保存路径已存在且不是普通文件：${p}`);
  }
}
