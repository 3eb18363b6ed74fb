import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable } from 'node:stream';
import aws4 from 'aws4';
import { spool, type FileStore, type StoredFile } from './file-store.ts';

export interface S3Options {
  /** `http(s)://host[:port]` of any S3-compatible server (AWS, MinIO, Aliyun OSS, Tencent COS...). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where an upload is spooled while it is counted and hashed, before it is sent. */
  tmpDir: string;
  /** Files larger than this go up as a multipart upload in parts of this size (S3 takes at most 5 GB in one PUT). */
  partBytes?: number;
}

export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly operation: string,
    body: string,
  ) {
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
    super(`S3 ${operation} failed: ${status}${code ? ` ${code}` : ''}`);
  }
}

const DEFAULT_PART_BYTES = 64 * 1024 * 1024;
const REPLY_TIMEOUT_MS = 120_000;

/**
 * Files in a bucket of an S3-compatible object store, addressed path-style (`<endpoint>/<bucket>/<key>`) so that any
 * such server works without DNS per bucket. Requests are signed with SigV4. An upload is first spooled to a local
 * temporary file while its size is counted (refused past `maxBytes`) and its sha256 computed, then sent with its
 * length and hash; the object exists only once the server has acknowledged the whole of it, which S3 does only when
 * it is durable, so a key in the database never names a partial object.
 */
export function s3FileStore(options: S3Options): FileStore {
  const endpoint = new URL(options.endpoint);
  const transport = endpoint.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true });
  const base = endpoint.pathname.replace(/\/$/, '');
  const partBytes = options.partBytes ?? DEFAULT_PART_BYTES;
  fs.mkdirSync(options.tmpDir, { recursive: true });

  const objectPath = (key: string) => {
    if (!/^[a-z0-9-]+\/[0-9a-f-]+$/.test(key)) throw new Error(`invalid file key ${key}`);
    return `${base}/${encodeURIComponent(options.bucket)}/${key}`;
  };

  /** Sends one signed request; `body` is a buffer, or a file range streamed with its precomputed hash. */
  function send(
    method: string,
    pathAndQuery: string,
    headers: Record<string, string>,
    body?: Buffer | { file: string; start: number; end: number; sha256: string },
    attempt = 0,
  ): Promise<IncomingMessage> {
    const signed = aws4.sign(
      {
        method,
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        port: endpoint.port || undefined,
        path: pathAndQuery,
        service: 's3',
        region: options.region,
        headers: {
          Host: endpoint.host,
          ...headers,
          ...(body === undefined
            ? {}
            : Buffer.isBuffer(body)
              ? { 'Content-Length': String(body.length) }
              : { 'Content-Length': String(body.end - body.start), 'X-Amz-Content-Sha256': body.sha256 }),
        },
        body: Buffer.isBuffer(body) ? body : undefined,
      },
      { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    );
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = transport.request({ ...signed, agent } as http.RequestOptions, (res) => {
        // The timeout guards the wait for an answer; a download read slowly by its client may then idle at will.
        req.setTimeout(0);
        resolve(res);
      });
      req.setTimeout(REPLY_TIMEOUT_MS, () => req.destroy(new Error(`S3 ${method} timed out`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A kept-alive connection the server had just closed: every request here can be sent again, the body
        // being a buffer or a file.
        if (req.reusedSocket && err.code === 'ECONNRESET' && attempt === 0) resolve(send(method, pathAndQuery, headers, body, 1));
        else reject(err);
      });
      if (body === undefined) req.end();
      else if (Buffer.isBuffer(body)) req.end(body);
      else if (body.end === body.start) req.end();
      else {
        const source = fs.createReadStream(body.file, { start: body.start, end: body.end - 1 });
        source.on('error', (err) => req.destroy(err));
        source.pipe(req);
      }
    });
  }

  const text = async (res: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  /** Sends a request that must succeed; returns the body of the reply. */
  async function call(operation: string, method: string, pathAndQuery: string, headers: Record<string, string>, body?: Parameters<typeof send>[3]) {
    const res = await send(method, pathAndQuery, headers, body);
    const reply = await text(res);
    if (res.statusCode! >= 300) throw new S3Error(res.statusCode!, operation, reply);
    return { reply, headers: res.headers };
  }

  const sha256OfRange = async (file: string, start: number, end: number) => {
    const hash = createHash('sha256');
    if (end > start) for await (const c of fs.createReadStream(file, { start, end: end - 1 })) hash.update(c as Buffer);
    return hash.digest('hex');
  };

  async function multipartUpload(objPath: string, file: string, size: number) {
    const created = await call('create multipart upload', 'POST', `${objPath}?uploads`, { 'Content-Type': 'application/octet-stream' }, Buffer.alloc(0));
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(created.reply)?.[1];
    if (!uploadId) throw new Error('S3 create multipart upload: no upload id in the reply');
    const query = `uploadId=${encodeURIComponent(uploadId)}`;
    try {
      const etags: string[] = [];
      for (let start = 0, n = 1; start < size; start += partBytes, n++) {
        const end = Math.min(size, start + partBytes);
        const part = await call(
          'upload part',
          'PUT',
          `${objPath}?partNumber=${n}&${query}`,
          {},
          { file, start, end, sha256: await sha256OfRange(file, start, end) },
        );
        etags.push(String(part.headers.etag));
      }
      const xml = `<CompleteMultipartUpload>${etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
      const done = await call('complete multipart upload', 'POST', `${objPath}?${query}`, { 'Content-Type': 'application/xml' }, Buffer.from(xml));
      // The completion can fail after a 200 status: the error then comes in the body.
      if (/<Error>/.test(done.reply)) throw new S3Error(200, 'complete multipart upload', done.reply);
    } catch (err) {
      await send('DELETE', `${objPath}?${query}`, {}).then(text, () => undefined);
      throw err;
    }
  }

  return {
    async put(content, { prefix, maxBytes }): Promise<StoredFile> {
      const key = `${prefix}/${randomUUID()}`;
      const objPath = objectPath(key);
      const tmp = path.join(options.tmpDir, randomUUID());
      const { size, sha256 } = await spool(content, tmp, maxBytes);
      try {
        if (size > partBytes) await multipartUpload(objPath, tmp, size);
        else await call('put', 'PUT', objPath, { 'Content-Type': 'application/octet-stream' }, { file: tmp, start: 0, end: size, sha256 });
        return { key, size, sha256 };
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    },

    // The request starts when the stream is first read, so that a caller opening many files (a zip of all works)
    // holds no idle connection per file; a missing object errors the stream, as a missing local file does.
    async get(key, range) {
      const objPath = objectPath(key);
      let source: IncomingMessage | undefined;
      let started = false;
      const out = new Readable({
        read() {
          if (source) {
            source.resume();
            return;
          }
          if (started) return;
          started = true;
          if (range && range.end < range.start) {
            out.push(null);
            return;
          }
          send('GET', objPath, range ? { Range: `bytes=${range.start}-${range.end}` } : {}).then(
            async (res) => {
              if (res.statusCode !== 200 && res.statusCode !== 206) {
                const err = new S3Error(res.statusCode!, 'get', await text(res).catch(() => '')) as S3Error & { code?: string };
                if (res.statusCode === 404) err.code = 'ENOENT';
                out.destroy(err);
                return;
              }
              source = res;
              res.on('data', (chunk: Buffer) => {
                if (!out.push(chunk)) res.pause();
              });
              res.on('end', () => out.push(null));
              res.on('error', (err) => out.destroy(err));
              res.on('aborted', () => out.destroy(new Error('S3 get: connection closed early')));
            },
            (err: Error) => out.destroy(err),
          );
        },
        destroy(err, done) {
          source?.destroy();
          done(err);
        },
      });
      return out;
    },

    async size(key) {
      const res = await send('HEAD', objectPath(key), {});
      res.resume();
      if (res.statusCode === 404) return null;
      if (res.statusCode !== 200) throw new S3Error(res.statusCode!, 'head', '');
      return Number(res.headers['content-length']);
    },

    async delete(key) {
      const res = await send('DELETE', objectPath(key), {});
      const reply = await text(res);
      if (res.statusCode! >= 300 && res.statusCode !== 404) throw new S3Error(res.statusCode!, 'delete', reply);
    },
  };
}
