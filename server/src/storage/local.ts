import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { spool, type FileStore, type StoredFile } from './file-store.ts';

/**
 * Files under `root`: written to a temporary file, fsynced, then renamed into place, so a key that exists
 * always names a complete file.
 */
export function localFileStore(root: string): FileStore {
  const tmpDir = path.join(root, '.tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  sweepStaleTemps(tmpDir);

  const resolve = (key: string) => {
    if (!/^[a-z0-9-]+\/[0-9a-f-]+$/.test(key)) throw new Error(`invalid file key ${key}`);
    return path.join(root, key);
  };

  return {
    async put(content: Readable, { prefix, maxBytes }): Promise<StoredFile> {
      const key = `${prefix}/${randomUUID()}`;
      const tmp = path.join(tmpDir, randomUUID());
      const { size, sha256 } = await spool(content, tmp, maxBytes);
      try {
        const handle = await fsp.open(tmp, 'r+');
        await handle.sync();
        await handle.close();
      } catch (err) {
        await fsp.rm(tmp, { force: true });
        throw err;
      }
      const target = resolve(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(tmp, target);
      await syncDirectory(path.dirname(target));
      return { key, size, sha256 };
    },
    async get(key, range) {
      return fs.createReadStream(resolve(key), range ? { start: range.start, end: range.end } : {});
    },
    async size(key) {
      try {
        return (await fsp.stat(resolve(key))).size;
      } catch {
        return null;
      }
    },
    async delete(key) {
      await fsp.rm(resolve(key), { force: true });
    },
  };
}

/** Makes a rename durable: the new directory entry survives a power cut once its directory is fsynced. */
async function syncDirectory(dir: string) {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Temporary files an earlier process left when it was killed mid-write; no key ever names one. */
const STALE_TEMP_MS = 60 * 60_000;
function sweepStaleTemps(tmpDir: string) {
  const before = Date.now() - STALE_TEMP_MS;
  for (const name of fs.readdirSync(tmpDir)) {
    const file = path.join(tmpDir, name);
    // Another process on the same folder may be writing a recent one.
    if ((fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < before) fs.rmSync(file, { force: true });
  }
}
