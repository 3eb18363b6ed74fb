import { DownloadPathError, PART_SUFFIX, buildSavePath, dirSegments, fnv1a64, safeFileName } from '@contest/shared/downloads/index';
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

export { PART_SUFFIX };

function refuse(message: string): never {
  throw new DownloadRefusedError(message, 'UNSAFE_PATH');
}

/** True when `target` is `root` itself or lies below it (both absolute, already normalised). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * `root` + dir segments + file name (spec §3: `dir` is comma-separated folder names), checked by the web's own rules
 * (@contest/shared: dirSegments, safeFileName, buildSavePath), so the page and the client build the same save path
 * and key; then checked lexically against the root once more.
 */
export function resolveSavePath(root: string, dir: string | undefined, fileName: string): string {
  if (typeof fileName !== 'string' || (dir !== undefined && typeof dir !== 'string')) throw new DownloadRefusedError('任务格式不正确', 'BAD_INPUT');
  const absRoot = path.resolve(root);
  let savePath: string;
  try {
    savePath = buildSavePath(absRoot, dirSegments(dir ?? ''), safeFileName(fileName));
  } catch (err) {
    if (err instanceof DownloadPathError) throw new DownloadRefusedError(err.message, 'UNSAFE_PATH');
    throw err;
  }
  if (!isInside(absRoot, savePath) || savePath === absRoot) throw new DownloadRefusedError(`保存路径超出下载目录：${savePath}`, 'UNSAFE_PATH');
  return savePath;
}

/** The key of a task: the hash of its save path (spec §3), the same one the page computes (`createTask`). */
export const taskKey = (savePath: string): string => fnv1a64(savePath);

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
