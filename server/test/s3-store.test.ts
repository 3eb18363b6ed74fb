import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { FileTooLargeError, type FileStore } from '../src/storage/file-store.ts';
import { s3FileStore, type S3Options } from '../src/storage/s3.ts';
import { Client, PDF, PNG, body, createTestApp, loggedIn, multipart, registerUser, type TestApp } from './helpers.ts';
import { S3_ACCESS_KEY_ID, S3_BUCKET, S3_SECRET_ACCESS_KEY, s3Env, startS3 } from './s3-server.ts';

const read = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('S3-compatible file store', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let tmpDir: string;
  let options: S3Options;
  let store: FileStore;

  beforeAll(async () => {
    s3 = await startS3();
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contest-s3-spool-'));
    options = {
      endpoint: s3.endpoint,
      bucket: S3_BUCKET,
      region: 'us-east-1',
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET_ACCESS_KEY,
      tmpDir,
      partBytes: 5 * 1024 * 1024,
    };
    store = s3FileStore(options);
  });
  afterAll(async () => {
    await s3?.close();
    fs.rmSync(tmpDir, { recursive: true, force: true });
  });

  it('stores a file and returns its size and sha256, then reads it whole and by range', async () => {
    const content = randomBytes(100_000);
    const stored = await store.put(Readable.from([content.subarray(0, 40_000), content.subarray(40_000)]), { prefix: 'works', maxBytes: 1_000_000 });
    expect(stored.key).toMatch(/^works\/[0-9a-f-]+$/);
    expect(stored.size).toBe(content.length);
    expect(stored.sha256).toBe(sha256(content));
    expect(await store.size(stored.key)).toBe(content.length);
    expect((await read(await store.get(stored.key))).equals(content)).toBe(true);
    expect((await read(await store.get(stored.key, { start: 1000, end: 1999 }))).equals(content.subarray(1000, 2000))).toBe(true);
    expect((await read(await store.get(stored.key, { start: 99_990, end: 99_999 }))).equals(content.subarray(99_990))).toBe(true);
    // Nothing is left behind in the spool directory.
    expect(fs.readdirSync(tmpDir)).toEqual([]);
  });

  it('stores an empty file', async () => {
    const stored = await store.put(Readable.from([]), { prefix: 'avatar', maxBytes: 10 });
    expect(stored).toMatchObject({ size: 0, sha256: sha256(Buffer.alloc(0)) });
    expect(await store.size(stored.key)).toBe(0);
    expect((await read(await store.get(stored.key))).length).toBe(0);
  });

  it('refuses a file past maxBytes while streaming and stores nothing', async () => {
    const before = fs.readdirSync(tmpDir);
    await expect(store.put(Readable.from([randomBytes(600), randomBytes(600)]), { prefix: 'avatar', maxBytes: 1000 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    expect(fs.readdirSync(tmpDir)).toEqual(before);
    // Exactly at the limit is fine.
    const stored = await store.put(Readable.from([randomBytes(1000)]), { prefix: 'avatar', maxBytes: 1000 });
    expect(stored.size).toBe(1000);
  });

  it('sends a file larger than one part as a multipart upload', async () => {
    const content = randomBytes(11 * 1024 * 1024 + 123);
    const stored = await store.put(Readable.from([content]), { prefix: 'question-data', maxBytes: content.length });
    expect(stored).toMatchObject({ size: content.length, sha256: sha256(content) });
    expect(await store.size(stored.key)).toBe(content.length);
    const back = await read(await store.get(stored.key));
    expect(sha256(back)).toBe(sha256(content));
    const edge = 5 * 1024 * 1024;
    expect((await read(await store.get(stored.key, { start: edge - 10, end: edge + 9 }))).equals(content.subarray(edge - 10, edge + 10))).toBe(true);
  });

  it('deletes a file; a missing file has no size and errors when read', async () => {
    const stored = await store.put(Readable.from([Buffer.from('bye')]), { prefix: 'avatar', maxBytes: 100 });
    await store.delete(stored.key);
    expect(await store.size(stored.key)).toBeNull();
    await expect(read(await store.get(stored.key))).rejects.toMatchObject({ status: 404, code: 'ENOENT' });
    // Deleting twice is not an error.
    await store.delete(stored.key);
  });

  it('refuses keys that are not its own', async () => {
    await expect(store.size('../etc/passwd')).rejects.toThrow(/invalid file key/);
  });

  it('is refused by the server with a wrong secret or an unknown access key', async () => {
    const wrong = s3FileStore({ ...options, secretAccessKey: 'not-the-secret' });
    await expect(wrong.put(Readable.from([Buffer.from('x')]), { prefix: 'avatar', maxBytes: 10 })).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('SignatureDoesNotMatch'),
    });
    const stranger = s3FileStore({ ...options, accessKeyId: 'SOMEONE' });
    await expect(stranger.put(Readable.from([Buffer.from('x')]), { prefix: 'avatar', maxBytes: 10 })).rejects.toMatchObject({
      status: 403,
      message: expect.stringContaining('InvalidAccessKeyId'),
    });
    const stored = await store.put(Readable.from([Buffer.from('x')]), { prefix: 'avatar', maxBytes: 10 });
    await expect(wrong.size(stored.key)).rejects.toMatchObject({ status: 403 });
    await expect(read(await wrong.get(stored.key))).rejects.toMatchObject({ status: 403 });
  });

  it('is chosen by the S3_* settings, which go together', () => {
    expect(loadConfig(s3Env(s3.endpoint)).s3).toEqual({
      endpoint: s3.endpoint,
      bucket: S3_BUCKET,
      region: 'us-east-1',
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET_ACCESS_KEY,
    });
    expect(loadConfig({}).s3).toBeUndefined();
    expect(() => loadConfig({ S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'contest' })).toThrow(/go together/);
  });

  describe('behind the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp('sqlite', {
        env: s3Env(s3.endpoint),
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('uploads an avatar and a private document into the bucket and serves them back, whole and by range', async () => {
      await registerUser(t.app, 's3user');
      const user = await loggedIn(t.app, 's3user');
      const avatar = body(await user.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('a.png', PNG) })).data.fileUri as string;
      // The object is in the bucket, not on local disk.
      const before = s3.requests;
      expect(await t.deps.storage.size(avatar)).toBe(PNG.length);
      expect(s3.requests).toBe(before + 1);
      expect(fs.existsSync(path.join(t.config.dataDir, 'files', avatar))).toBe(false);
      const anonymous = new Client(t.app);
      const res = await anonymous.get(`/api/file/common/download?fileUri=${encodeURIComponent(avatar)}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);

      const doc = body(
        await user.request({ method: 'POST', url: '/api/file/upload/document?purpose=attachment', ...multipart('报名表.pdf', PDF, 'application/pdf') }),
      ).data.fileUri as string;
      const part = await user.request({ method: 'GET', url: `/api/file/common/download?fileUri=${encodeURIComponent(doc)}`, headers: { range: 'bytes=5-12' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 5-12/${PDF.length}`);
      expect(part.rawPayload.equals(PDF.subarray(5, 13))).toBe(true);
      expect(part.headers['x-sha256']).toBe(sha256(PDF));
      // Private: another user may not read it.
      await registerUser(t.app, 's3other');
      const other = await loggedIn(t.app, 's3other');
      expect((await other.get(`/api/file/common/download?fileUri=${encodeURIComponent(doc)}`)).statusCode).not.toBe(200);
    });

    it('refuses an upload past the limit with 413 and a file of the wrong type with 415, leaving no object behind', async () => {
      await registerUser(t.app, 's3big');
      const user = await loggedIn(t.app, 's3big');
      const big = await user.request({
        method: 'POST',
        url: '/api/file/upload/avatar',
        ...multipart('big.png', Buffer.concat([PNG, randomBytes(t.config.avatarMaxBytes)])),
      });
      expect(big.statusCode).toBe(413);
      const wrong = await user.request({ method: 'POST', url: '/api/file/upload/avatar', ...multipart('x.png', Buffer.from('not an image at all')) });
      expect(wrong.statusCode).toBe(415);
      expect(fs.readdirSync(path.join(t.config.dataDir, 'tmp', 's3'))).toEqual([]);
    });
  });
});
