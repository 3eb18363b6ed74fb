import fs from 'node:fs';
import path from 'node:path';
import { readStored, type FileStore } from '../storage/file-store.ts';
import { CsvError, memoryCsv } from './csv.ts';
import { incidental, zipEntries, zipEntryBytes } from './unpack.ts';

/**
 * An organiser's scoring program as uploaded (issue 23): a `.py` file, which becomes `score.py`, or a `.zip` with
 * `score.py` at its root and whatever else the program reads (modules, a weights file). Read whole in memory (it is at
 * most SCORER_MAX_BYTES) and written, for each run, into the run's folder with modes the sandbox's unprivileged user can
 * read.
 */

/** A program's files, by their path inside the program (`score.py`, `lib/util.py`). */
export type ProgramFiles = { name: string; data: Buffer }[];

/** What a program may hold at most, unpacked: files and bytes. */
export const PROGRAM_MAX_FILES = 500;
export const PROGRAM_MAX_BYTES = 100 * 1024 * 1024;

/** Why an uploaded program cannot be taken, in the organiser's words. */
export class ProgramError extends Error {}

const ZIP = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;
/** A path segment a program file may have: letters, digits, `_`, `-` and `.`, never `.` or `..` alone. */
const SEGMENT = /^[\w.-]+$/;
const safePath = (name: string) => name.split('/').every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');

/** Reads an uploaded program; throws ProgramError saying what is wrong with it. */
export async function readProgram(bytes: Buffer, fileName: string): Promise<ProgramFiles> {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.py')) {
    if (ZIP(bytes)) throw new ProgramError('文件扩展名为.py，内容却是ZIP压缩包，请检查后重新上传');
    if (bytes.includes(0)) throw new ProgramError('评分程序须为Python源代码文本文件');
    return [{ name: 'score.py', data: bytes }];
  }
  if (!lower.endsWith('.zip')) throw new ProgramError('评分程序须为 .py 文件，或根目录含 score.py 的 .zip 压缩包');
  if (!ZIP(bytes)) throw new ProgramError('文件扩展名为.zip，但不是有效的ZIP压缩包');
  const file = memoryCsv(bytes);
  try {
    const entries = (await zipEntries(file, bytes.length)).filter((e) => !incidental(e.name));
    if (entries.length > PROGRAM_MAX_FILES) throw new ProgramError(`压缩包中的文件不能超过${PROGRAM_MAX_FILES}个`);
    const files: ProgramFiles = [];
    let total = 0;
    for (const entry of entries) {
      const name = entry.name.replace(/\\/g, '/');
      if (!safePath(name)) throw new ProgramError(`压缩包中的文件名“${name.slice(0, 80)}”不可用：文件和文件夹名只能包含字母、数字、下划线、连字符和点`);
      const parts: Buffer[] = [];
      for await (const chunk of await zipEntryBytes(file, bytes.length, entry, PROGRAM_MAX_BYTES - total)) parts.push(chunk);
      const data = Buffer.concat(parts);
      total += data.length;
      files.push({ name, data });
    }
    if (!files.some((f) => f.name === 'score.py')) {
      const nested = files.find((f) => f.name.endsWith('/score.py'));
      throw new ProgramError(
        nested ? `score.py 须在压缩包的根目录，现在在“${nested.name}”，请直接压缩程序文件而不是其所在的文件夹` : '压缩包的根目录中没有 score.py',
      );
    }
    const names = new Set(files.map((f) => f.name));
    const clash = files.find((f) => f.name.split('/').some((_, i, all) => i < all.length - 1 && names.has(all.slice(0, i + 1).join('/'))));
    if (clash) throw new ProgramError(`压缩包中“${clash.name}”与同名文件冲突`);
    const reserved = files.find((f) => f.name === 'answer.csv' || f.name === 'prediction.csv');
    if (reserved) throw new ProgramError(`压缩包中不能有 ${reserved.name}：运行时由平台放入该文件`);
    return files;
  } catch (err) {
    if (err instanceof CsvError) throw new ProgramError(err.message.replace('解压后的文件', '解压后的评分程序'));
    if (err instanceof RangeError) throw new ProgramError('ZIP压缩包已损坏或不完整，无法解压，请重新压缩后上传');
    throw err;
  }
}

/**
 * Writes a program's files under `dir` (readable by anyone who can reach them: the run's folder is not listable and
 * has a random name) and answers its top-level entries as the sandbox binds them.
 */
export function writeProgram(files: ProgramFiles, dir: string): { name: string; hostPath: string }[] {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  const top = new Set<string>();
  for (const f of files) {
    const target = path.join(dir, f.name);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    fs.writeFileSync(target, f.data, { mode: 0o644 });
    // Modes set outright: the process's umask (077, say) would leave them unreadable to the program's user.
    fs.chmodSync(target, 0o644);
    const parts = f.name.split('/');
    for (let i = 1; i < parts.length; i++) fs.chmodSync(path.join(dir, ...parts.slice(0, i)), 0o755);
    top.add(parts[0]!);
  }
  return [...top].sort().map((name) => ({ name, hostPath: path.join(dir, name) }));
}

/** Reads a stored program back (checked when it was uploaded): a ZIP archive by its first bytes, else `score.py`. */
export async function loadProgram(storage: Pick<FileStore, 'get'>, key: string): Promise<ProgramFiles> {
  const bytes = await readStored(storage, key);
  return readProgram(bytes, ZIP(bytes) ? 'score.zip' : 'score.py');
}
