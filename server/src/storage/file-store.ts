import type { Readable } from 'node:stream';

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

/** Where file contents live: local disk by default; an S3-compatible store implements the same interface. */
export interface FileStore {
  /** Streams the content in; resolves only once it is durable. Throws FileTooLargeError past maxBytes. */
  put(content: Readable, options: { prefix: string; maxBytes: number }): Promise<StoredFile>;
  get(key: string, range?: { start: number; end: number }): Promise<Readable>;
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
}
