import type { Readable } from 'node:stream';
import type { Ctx } from '../../context.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { FileTooLargeError } from '../../storage/file-store.ts';
import type { ImagePurpose } from './images.ts';
import * as repo from './repo.ts';

const IMAGE_SIGNATURES: { mime: string; test: (b: Buffer) => boolean }[] = [
  { mime: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  { mime: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

async function head(ctx: Ctx, key: string, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.get(key, { start: 0, end: n - 1 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Stores an image the user uploaded; the type is judged by content, not by the name or header sent. */
export async function uploadImage(ctx: Ctx, content: Readable, originalName: string, purpose: ImagePurpose, maxBytes: number) {
  let stored;
  try {
    stored = await ctx.storage.put(content, { prefix: purpose, maxBytes });
  } catch (err) {
    if (err instanceof FileTooLargeError) {
      throw new AppError(413, `图片不能超过${Math.round(maxBytes / 1024 / 1024)}MB`);
    }
    throw err;
  }
  const first = stored.size > 0 ? await head(ctx, stored.key, 12) : Buffer.alloc(0);
  const kind = IMAGE_SIGNATURES.find((s) => s.test(first));
  if (!kind) {
    await ctx.storage.delete(stored.key);
    throw new AppError(415, '只能上传PNG、JPEG、GIF或WEBP格式的图片');
  }
  await repo.insertFile(ctx.db, {
    key: stored.key,
    originalName: originalName.slice(0, 255),
    mime: kind.mime,
    size: stored.size,
    sha256: stored.sha256,
    ownerId: ctx.actor!.userId,
    visibility: 'public',
    purpose,
    createdAt: ctx.clock.now().toISOString(),
  });
  return { fileUri: stored.key, size: stored.size };
}

/** The file row behind a download, if the caller may read it. */
export async function readableFile(ctx: Ctx, key: string) {
  const file = await repo.findFile(ctx.db, key);
  // A private file the caller may not read answers exactly like a missing one.
  if (!file || (file.visibility !== 'public' && file.ownerId !== ctx.actor?.userId)) throw notFound('文件不存在');
  return file;
}
