import type { Readable } from 'node:stream';
import { isAuthed, type AuthedCtx, type Ctx } from '../../context.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { FileTooLargeError } from '../../storage/file-store.ts';
import type { ImagePurpose } from './images.ts';
import * as repo from './repo.ts';

export type { ImagePurpose } from './images.ts';

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

/** A picture's type by its first bytes (PNG, JPEG, GIF, WebP), or null: what the content is, whatever it is called. */
export const imageMimeOf = (first: Buffer) => IMAGE_SIGNATURES.find((s) => s.test(first))?.mime ?? null;

const DOCUMENT_SIGNATURES = [
  ...IMAGE_SIGNATURES.filter((s) => s.mime !== 'image/gif'),
  { mime: 'application/pdf', test: (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
];
export const DOCUMENT_PURPOSES = ['attachment', 'voucher', 'invoice', 'identity', 'objection'] as const;
export type DocumentPurpose = (typeof DOCUMENT_PURPOSES)[number];

/** A file name as kept and shown: without control characters (NUL, line breaks), at most 255 characters. */
export const displayName = (name: string) => name.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 255);

async function store(
  ctx: AuthedCtx,
  content: Readable,
  originalName: string,
  o: {
    purpose: string;
    maxBytes: number;
    kinds: typeof IMAGE_SIGNATURES;
    tooLarge: string;
    wrongType: string;
    visibility: 'public' | 'private';
  },
) {
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
    originalName: displayName(originalName),
    mime: kind.mime,
    size: stored.size,
    sha256: stored.sha256,
    ownerId: ctx.actor.userId,
    visibility: o.visibility,
    purpose: o.purpose,
    createdAt: ctx.clock.now().toISOString(),
  });
  return { fileUri: stored.key, size: stored.size, name: displayName(originalName) };
}

/** Registration attachments and payment vouchers: PDF or pictures, private to the uploader and those the record grants. */
export function uploadDocument(ctx: AuthedCtx, content: Readable, originalName: string, purpose: DocumentPurpose, maxBytes: number) {
  return store(ctx, content, originalName, {
    purpose,
    maxBytes,
    kinds: DOCUMENT_SIGNATURES,
    tooLarge: `文件不能超过${Math.round(maxBytes / 1024 / 1024)}MB`,
    wrongType: '只能上传PDF、PNG或JPEG格式的文件',
    visibility: 'private',
  });
}

/**
 * Lets go of a stored file a record no longer names: deleted (content and record) unless another record still holds it
 * (an edition copied from this one shares its files by key).
 */
export async function releaseFile(ctx: Pick<Ctx, 'db' | 'storage'>, key: string) {
  if (await repo.isHeld(ctx.db, key)) return;
  await repo.deleteFileRecord(ctx.db, key);
  await ctx.storage.delete(key).catch(() => undefined);
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
export type PrivateReader = (ctx: AuthedCtx, key: string) => Promise<boolean>;
const privateReaders = new Map<string, PrivateReader>();
export function grantPrivateReads(purpose: string, reader: PrivateReader) {
  privateReaders.set(purpose, reader);
}

/**
 * A public file whose owner may keep it from some readers (a competition's data for people who completed 实名认证):
 * the gate throws the refusal, in words the reader is shown. A gated file is never cached as public.
 */
export type PublicGate = (ctx: Ctx, key: string) => Promise<void>;
const publicGates = new Map<string, PublicGate>();
export function gatePublicReads(purpose: string, gate: PublicGate) {
  publicGates.set(purpose, gate);
}
export const isGated = (purpose: string) => publicGates.has(purpose);

/** Stores an image the user uploaded; the type is judged by content, not by the name or header sent. */
export function uploadImage(ctx: AuthedCtx, content: Readable, originalName: string, purpose: ImagePurpose, maxBytes: number) {
  return store(ctx, content, originalName, {
    purpose,
    maxBytes,
    kinds: IMAGE_SIGNATURES,
    tooLarge: `图片不能超过${Math.round(maxBytes / 1024 / 1024)}MB`,
    wrongType: '只能上传PNG、JPEG、GIF或WEBP格式的图片',
    visibility: 'public',
  }).then(({ fileUri, size }) => ({ fileUri, size }));
}

/** Width and height of a PNG (IHDR) or JPEG (first start-of-frame marker). */
export function imageSize(b: Buffer): { width: number; height: number } | null {
  if (b.subarray(1, 4).toString('latin1') === 'PNG' && b.length >= 24) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    const length = b.readUInt16BE(i + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    i += 2 + length;
  }
  return null;
}

/** A certificate background: PNG or JPEG (what the PDF writer embeds), public, with its size in pixels. */
export async function uploadCertificateBackground(ctx: AuthedCtx, content: Readable, originalName: string, maxBytes: number) {
  const kinds = IMAGE_SIGNATURES.filter((k) => k.mime === 'image/png' || k.mime === 'image/jpeg');
  const stored = await store(ctx, content, originalName, {
    purpose: 'certificate',
    maxBytes,
    kinds,
    tooLarge: `图片不能超过${Math.round(maxBytes / 1024 / 1024)}MB`,
    wrongType: '证书背景只能是PNG或JPEG格式的图片',
    visibility: 'public',
  });
  const size = imageSize(await head(ctx, stored.fileUri, Math.min(stored.size, 1024 * 1024)));
  if (!size?.width || !size.height) throw badRequest('无法读取图片尺寸，请换一张图片', { file: '无法读取图片尺寸，请换一张图片' });
  return { uri: stored.fileUri, ...size };
}

/** The file row behind a download, if the caller may read it. */
export async function readableFile(ctx: Ctx, key: string) {
  const file = await repo.findFile(ctx.db, key);
  // A private file the caller may not read answers exactly like a missing one.
  // A question's answer file is never served, not even to the organiser who uploaded it.
  if (!file || file.purpose === 'answer') throw notFound('文件不存在');
  if (ctx.actor && file.ownerId === ctx.actor.userId) return file;
  if (file.visibility === 'public') {
    await publicGates.get(file.purpose)?.(ctx, key);
    return file;
  }
  const reader = privateReaders.get(file.purpose);
  if (isAuthed(ctx) && reader && (await reader(ctx, key))) return file;
  throw notFound('文件不存在');
}
