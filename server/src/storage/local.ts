import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileTooLargeError, type FileStore, type StoredFile } from './file-store.ts';

/**
 * Files under `root`: written to a temporary file, fsynced, then renamed into place, so a key that exists
 * always names a complete file.
 */
export function localFileStore(root: string): FileStore {
  const tmpDir = path.join(root, '.tmp');
  fs.mkdirSync(tmpDir, { recursive: true });

  const resolve = (key: string) => {
    if (!/^[a-z0-9-]+\/[0-9a-f-]+$/.test(key)) throw new Error(`invalid file key ${key}`);
    return path.join(root, key);
  };

  return {
    async put(content: Readable, { prefix, maxBytes }): Promise<StoredFile> {
      const key = `${prefix}/${randomUUID()}`;
      const tmp = path.join(tmpDir, randomUUID());
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(content, meter, fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
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
      return { key, size, sha256: hash.digest('hex') };
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
