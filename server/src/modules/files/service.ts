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

const DOCUMENT_SIGNATURES = [
  ...IMAGE_SIGNATURES.filter((s) => s.mime !== 'image/gif'),
  { mime: 'application/pdf', test: (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
];
export const DOCUMENT_PURPOSES = ['attachment', 'voucher', 'invoice'] as const;
export type DocumentPurpose = (typeof DOCUMENT_PURPOSES)[number];

async function store(ctx: Ctx, content: Readable, originalName: string, o: {
  purpose: string; maxBytes: number; kinds: typeof IMAGE_SIGNATURES; tooLarge: string; wrongType: string; visibility: 'public' | 'private';
}) {
  let stored;
  try {
    stored = await ctx.storage.put(content, { prefix: o.purpose, maxBytes: o.maxBytes });
  } catch (err) {
    if (err instanceof FileTooLargeError) throw new AppError(413, o.tooLarge);
    throw err;
  }
  const first = stored.size > 0 ? await head(ctx, stored.key, 12) : Buffer.alloc(0);
  const kind = o.kinds.find((s) => s.test(first));
  if (!kind) {
    await ctx.storage.delete(stored.key);
    throw new AppError(415, o.wrongType);
  }
  await repo.insertFile(ctx.db, {
    key: stored.key,
    originalName: originalName.slice(0, 255),
    mime: kind.mime,
    size: stored.size,
    sha256: stored.sha256,
    ownerId: ctx.actor!.userId,
    visibility: o.visibility,
    purpose: o.purpose,
    createdAt: ctx.clock.now().toISOString(),
  });
  return { fileUri: stored.key, size: stored.size, name: originalName.slice(0, 255) };
}

/** Registration attachments and payment vouchers: PDF or pictures, private to the uploader and those the record grants. */
export function uploadDocument(ctx: Ctx, content: Readable, originalName: string, purpose: DocumentPurpose, maxBytes: number) {
  return store(ctx, content, originalName, {
    purpose,
    maxBytes,
    kinds: DOCUMENT_SIGNATURES,
    tooLarge: `文件不能超过${Math.round(maxBytes / 1024 / 1024)}MB`,
    wrongType: '只能上传PDF、PNG或JPEG格式的文件',
    visibility: 'private',
  });
}

/** A reference in a record must name a file of the right kind that the caller uploaded. */
export async function assertOwnFile(ctx: Ctx, field: string, key: string, purpose: string) {
  const file = await repo.findFile(ctx.db, key);
  if (!file || file.ownerId !== ctx.actor?.userId || file.purpose !== purpose) {
    throw new AppError(400, '文件无效，请重新上传', { [field]: '文件无效，请重新上传' });
  }
  return file;
}

/**
 * Who else may read a private file: each module that points records at private files says so for its purpose
 * (the organisers of a registration may read its attachments, finance may read a voucher).
 */
export type PrivateReader = (ctx: Ctx, key: string) => Promise<boolean>;
const privateReaders = new Map<string, PrivateReader>();
export function grantPrivateReads(purpose: string, reader: PrivateReader) {
  privateReaders.set(purpose, reader);
}

/** Stores an image the user uploaded; the type is judged by content, not by the name or header sent. */
export function uploadImage(ctx: Ctx, content: Readable, originalName: string, purpose: ImagePurpose, maxBytes: number) {
  return store(ctx, content, originalName, {
    purpose,
    maxBytes,
    kinds: IMAGE_SIGNATURES,
    tooLarge: `图片不能超过${Math.round(maxBytes / 1024 / 1024)}MB`,
    wrongType: '只能上传PNG、JPEG、GIF或WEBP格式的图片',
    visibility: 'public',
  }).then(({ fileUri, size }) => ({ fileUri, size }));
}

/** The file row behind a download, if the caller may read it. */
export async function readableFile(ctx: Ctx, key: string) {
  const file = await repo.findFile(ctx.db, key);
  // A private file the caller may not read answers exactly like a missing one.
  // A question's answer file is never served, not even to the organiser who uploaded it.
  if (!file || file.purpose === 'answer') throw notFound('文件不存在');
  if (file.visibility === 'public' || (ctx.actor && file.ownerId === ctx.actor.userId)) return file;
  const reader = privateReaders.get(file.purpose);
  if (ctx.actor && reader && (await reader(ctx, key))) return file;
  throw notFound('文件不存在');
}
