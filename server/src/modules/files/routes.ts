import { z } from 'zod';
import type { Deps } from '../../context.ts';
import { SITE_CODES } from '@contest/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { ok } from '../../http/reply.ts';
import type { ImagePurpose } from './images.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name, so Chinese file names survive. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Sends a stored file whole or, for a `Range` request, in part (206), so an interrupted download resumes. */
export async function sendStoredFile(deps: Pick<Deps, 'storage'>, req: FastifyRequest, reply: FastifyReply, file: { key: string; name: string; mime: string; sha256?: string | null }) {
  const size = (await deps.storage.size(file.key)) ?? 0;
  const range = parseRange(req.headers.range, size);
  reply.header('accept-ranges', 'bytes');
  // The whole file's hash, so a download manager can check what it assembled from parts.
  if (file.sha256) reply.header('x-sha256', file.sha256);
  reply.header('content-type', file.mime);
  reply.header('content-disposition', contentDisposition(file.name));
  if (range === 'invalid') {
    reply.header('content-range', `bytes */${size}`);
    throw new AppError(416, '请求的文件范围无效');
  }
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
    reply.header('content-length', range.end - range.start + 1);
    return reply.send(await deps.storage.get(file.key, range));
  }
  reply.header('content-length', size);
  return reply.send(await deps.storage.get(file.key));
}

function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

export function fileRoutes(app: App, deps: Deps) {
  async function upload(req: FastifyRequest, purpose: ImagePurpose) {
    if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
    const part = await req.file({ limits: { files: 1, fileSize: deps.config.avatarMaxBytes + 1 } });
    if (!part) throw badRequest('请选择要上传的图片', { file: '请选择要上传的图片' });
    return ok(await service.uploadImage(userCtx(req), part.file, part.filename, purpose, deps.config.avatarMaxBytes), '上传成功');
  }

  app.post('/api/file/upload/avatar', { config: { rule: USER }, schema: { tags: ['file'] } }, (req) => upload(req, 'avatar'));

  // Logos, covers and pictures inside rich text, uploaded from the back office.
  app.post(
    '/api/file/upload/image',
    { config: { rule: perm(SITE_CODES.manager) }, schema: { tags: ['file'], querystring: z.object({ purpose: z.enum(['logo', 'cover', 'content'], { error: '图片用途须为logo、cover或content' }) }) } },
    (req) => upload(req, req.query.purpose),
  );

  // Registration attachments, transfer vouchers and issued invoices: private files.
  app.post(
    '/api/file/upload/document',
    { config: { rule: USER }, schema: { tags: ['file'], querystring: z.object({ purpose: z.enum(service.DOCUMENT_PURPOSES, { error: '文件用途须为attachment、voucher或invoice' }) }) } },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const max = deps.config.documentMaxBytes;
      const part = await req.file({ limits: { files: 1, fileSize: max + 1 } });
      if (!part) throw badRequest('请选择要上传的文件', { file: '请选择要上传的文件' });
      return ok(await service.uploadDocument(userCtx(req), part.file, part.filename, req.query.purpose, max), '上传成功');
    },
  );

  app.get(
    '/api/file/common/download',
    {
      config: { rule: PUBLIC },
      schema: { tags: ['file'], querystring: z.object({ fileUri: z.string({ error: '请指定文件' }).min(1, '请指定文件').max(200) }) },
    },
    async (req, reply) => {
      const file = await service.readableFile(req.ctx, req.query.fileUri);
      if (file.visibility === 'public') reply.header('cache-control', 'public, max-age=86400, immutable');
      return sendStoredFile(deps, req, reply, { key: file.key, name: file.originalName, mime: file.mime, sha256: file.sha256 });
    },
  );
}
