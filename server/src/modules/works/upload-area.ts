import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import type { Part } from '@aws-sdk/client-s3';
import type { MetadataValue } from '@tus/s3-store';
import type { DataStore, KvStore } from '@tus/server';
import type { Config } from '../../config.ts';
import { isStorageFull } from '../../http/errors.ts';

/**
 * Where works uploads live while they are in progress: on local disk (UPLOADS_DIR, which instances behind one address
 * must then share), or, when S3 is configured, in the bucket under `tus/`, so instances share nothing but the bucket.
 * tus writes through `datastore`; the rest is what the works service needs around it.
 */
export interface UploadArea {
  /** tus's store for this area (loaded on first use: the S3 one brings the AWS SDK). */
  datastore(): Promise<DataStore>;
  /** Bytes received so far; null when the upload has nothing stored. */
  received(uploadId: string): Promise<number | null>;
  /** When its last byte arrived (ms since the epoch); 0 when nothing is stored. */
  lastWrite(uploadId: string): Promise<number>;
  /** The whole of a complete upload. */
  read(uploadId: string): Promise<Readable>;
  /** Drops what is stored for the upload; nothing stored is no error. */
  remove(uploadId: string): Promise<void>;
}

/** What a write that failed midway answers: the bytes received so far stay, and the client resumes from them. */
const INTERRUPTED = '作品接收中断，请从断点继续上传';
const interrupted = (cause: unknown) => ({ status_code: 500, body: INTERRUPTED, cause });

/**
 * tus's file store, except that a write refused for want of disk space says so: tus reports every failed write as
 * the same 500, and the participant should learn that waiting, not re-sending, is what helps.
 */
class UploadFileStore extends FileStore {
  override async write(readable: Readable, fileId: string, offset: number): Promise<number> {
    let received = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(readable, count, fs.createWriteStream(path.join(this.directory, fileId), { flags: 'r+', start: offset }));
    } catch (err) {
      if (isStorageFull(err)) throw err;
      throw interrupted(err);
    }
    return offset + received;
  }
}

function localArea(directory: string): UploadArea {
  let store: UploadFileStore | undefined;
  const file = (uploadId: string) => path.join(directory, uploadId);
  return {
    // Made on the first upload: an instance that never takes works touches no upload folder.
    async datastore() {
      if (!store) {
        fs.mkdirSync(directory, { recursive: true });
        store = new UploadFileStore({ directory });
      }
      return store;
    },
    received: (uploadId) =>
      fs.promises.stat(file(uploadId)).then(
        (s) => s.size,
        () => null,
      ),
    lastWrite: (uploadId) =>
      fs.promises.stat(file(uploadId)).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    read: async (uploadId) => fs.createReadStream(file(uploadId)),
    async remove(uploadId) {
      await fs.promises.rm(file(uploadId), { force: true });
      await fs.promises.rm(`${file(uploadId)}.json`, { force: true });
    },
  };
}

/** The folder-like prefix of every object an upload in progress keeps in the bucket. */
export const S3_UPLOAD_PREFIX = 'tus/';
const NOT_FOUND = new Set(['NotFound', 'NoSuchKey', 'NoSuchUpload']);
const isNotFound = (err: unknown) => {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } } | null;
  return !!e && (NOT_FOUND.has(e.name ?? '') || NOT_FOUND.has(e.Code ?? '') || e.$metadata?.httpStatusCode === 404);
};

/**
 * The metadata tus's S3 store keeps of the uploads it has seen (the multipart upload's id, the declared length), at
 * most `max` of them: it never changes after creation, and an instance that took only some of an upload's requests
 * would otherwise keep it for ever. A miss costs one GET of the upload's `.info` object.
 */
function boundedCache(max = 10_000): KvStore<MetadataValue> {
  const entries = new Map<string, MetadataValue>();
  return {
    async get(key) {
      return entries.get(key);
    },
    async set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
    async delete(key) {
      entries.delete(key);
    },
    async list() {
      return [...entries.keys()];
    },
  };
}

/**
 * tus's S3 store: each PATCH goes up as parts of one multipart upload (a tail below S3's 5 MiB part minimum waits as
 * the `<id>.part` object until the next PATCH), `<id>.info` holds what tus knows of it, and the last byte completes
 * the object `<id>`. Every key is put under `tus/` on its way out, and a failed write says how to go on.
 */
async function loadS3Store(s3: NonNullable<Config['s3']>) {
  // Loaded on the first upload: tus's S3 store brings the AWS SDK, which a server that takes no works never needs.
  const { S3Store } = await import('@tus/s3-store');
  class UploadS3Store extends S3Store {
    constructor(s3: NonNullable<Config['s3']>) {
      super({
        cache: boundedCache(),
        s3ClientConfig: {
          bucket: s3.bucket,
          endpoint: s3.endpoint,
          region: s3.region,
          credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
          // Path-style like the file store, so any S3-compatible server works without DNS per bucket; no checksum
          // trailers (aws-chunked bodies), which most S3-compatible servers do not take.
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        },
      });
      this.client.middlewareStack.add(
        (next) => async (args) => {
          const input = args.input as { Key?: string; Delete?: { Objects?: { Key?: string }[] } };
          const prefixed = { ...input };
          if (typeof input.Key === 'string') prefixed.Key = S3_UPLOAD_PREFIX + input.Key;
          if (input.Delete?.Objects) prefixed.Delete = { ...input.Delete, Objects: input.Delete.Objects.map((o) => ({ ...o, Key: S3_UPLOAD_PREFIX + o.Key })) };
          return next({ ...args, input: prefixed as typeof args.input });
        },
        { step: 'initialize', name: 'tusKeyPrefix' },
      );
    }

    override async write(readable: Readable, id: string, offset: number): Promise<number> {
      try {
        return await super.write(readable, id, offset);
      } catch (err) {
        throw interrupted(err);
      }
    }

    /** When the last byte arrived: the newest of the upload's objects and parts. */
    async lastWrite(id: string): Promise<number> {
      const head = (key: string) =>
        this.client.headObject({ Bucket: this.bucket, Key: key }).then(
          (o) => o.LastModified?.getTime() ?? 0,
          (err) => (isNotFound(err) ? 0 : Promise.reject(err)),
        );
      const parts = this.retrieveParts(id).then(
        (list: Part[]) => list.map((p) => p.LastModified?.getTime() ?? 0),
        (err) => (isNotFound(err) ? [] : Promise.reject(err)),
      );
      const times = await Promise.all([head(this.infoKey(id)), head(this.partKey(id, true)), head(id), parts]);
      return Math.max(0, ...times.flat());
    }

    /**
     * The complete object. When every part had arrived but the server stopped before S3 joined them, they are joined
     * now, so a resuming client's HEAD still gets its work recorded.
     */
    async readComplete(id: string): Promise<Readable> {
      try {
        return await this.read(id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        const metadata = await this.getMetadata(id);
        const parts = await this.retrieveParts(id);
        if (parts.reduce((sum, p) => sum + (p.Size ?? 0), 0) !== metadata.file.size) throw err;
        await this.finishMultipartUpload(metadata, parts);
        return this.read(id);
      }
    }

    /** Bytes received so far; null when the upload has nothing stored. */
    async received(id: string): Promise<number | null> {
      // getUpload answers "not found" for an upload without its info object.
      return this.getUpload(id).then(
        (u) => u.offset ?? null,
        (err) => (isNotFound(err) || (err as { status_code?: number }).status_code === 404 ? null : Promise.reject(err)),
      );
    }

    /** The multipart upload is aborted, and the info object, the waiting tail and a completed object deleted. */
    async drop(id: string): Promise<void> {
      const metadata = await this.getMetadata(id).catch((err) => (isNotFound(err) ? undefined : Promise.reject(err)));
      if (metadata?.['upload-id']) {
        await this.client
          .abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: metadata['upload-id'] })
          .catch((err) => (isNotFound(err) ? undefined : Promise.reject(err)));
      }
      await this.client.deleteObjects({ Bucket: this.bucket, Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }] } });
      await this.clearCache(id);
    }
  }
  return new UploadS3Store(s3);
}
type UploadS3Store = Awaited<ReturnType<typeof loadS3Store>>;

/** Uploads in the bucket, under `tus/`. */
function s3Area(s3: NonNullable<Config['s3']>): UploadArea {
  let store: Promise<UploadS3Store> | undefined;
  const datastore = () => (store ??= loadS3Store(s3));
  return {
    datastore,
    received: async (uploadId) => (await datastore()).received(uploadId),
    lastWrite: async (uploadId) => (await datastore()).lastWrite(uploadId),
    read: async (uploadId) => (await datastore()).readComplete(uploadId),
    remove: async (uploadId) => (await datastore()).drop(uploadId),
  };
}

const areas = new WeakMap<Config, UploadArea>();
/** The upload area of a configuration (one per app, so one S3 client). */
export function uploadArea(config: Config): UploadArea {
  let area = areas.get(config);
  if (!area) {
    area = config.s3 ? s3Area(config.s3) : localArea(config.uploadsDir);
    areas.set(config, area);
  }
  return area;
}
