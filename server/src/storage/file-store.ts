import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
}

export class FileTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`file exceeds ${limit} bytes`);
  }
}

/** A stored file's bytes in memory (its first `max` bytes when given): for small files only. */
export async function readStored(storage: Pick<FileStore, 'get'>, key: string, max?: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await storage.get(key, max ? { start: 0, end: max - 1 } : undefined)) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}

/** Where file contents live: local disk by default; an S3-compatible store implements the same interface. */
export interface FileStore {
  /** Streams the content in; resolves only once it is durable. Throws FileTooLargeError past maxBytes. */
  put(content: Readable, options: { prefix: string; maxBytes: number }): Promise<StoredFile>;
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
}

/**
 * Streams `content` into the new file `tmp`, counting and hashing it, and fails with FileTooLargeError past `maxBytes`:
 * how every store takes a file in before it makes it durable. On failure `tmp` is gone.
 */
export async function spool(content: Readable, tmp: string, maxBytes: number): Promise<{ size: number; sha256: string }> {
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
  const out = fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
  try {
    await pipeline(content, meter, out);
  } catch (err) {
    // A sender that fails at once (a cut-short form) can fail the pipeline while the file is still being opened:
    // removing it before it exists would leave an empty file behind.
    if (!out.closed) await new Promise<void>((done) => out.once('close', () => done()));
    await fsp.rm(tmp, { force: true });
    throw err;
  }
  return { size, sha256: hash.digest('hex') };
}
