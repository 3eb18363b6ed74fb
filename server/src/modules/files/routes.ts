import { z } from 'zod';
import type { Deps } from '../../context.ts';
import { SITE_CODES, uploadedFileSchema, uploadedImageSchema } from '@contest/shared';
import type { FastifyRequest } from 'fastify';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { fileReply, ok, replies } from '../../http/reply.ts';
import type { ImagePurpose } from './images.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';
import { sendStoredFile } from '../../http/send-file.ts';


export function fileRoutes(app: App, deps: Deps) {
  async function upload(req: FastifyRequest, purpose: ImagePurpose) {
    if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
    const part = await req.file({ limits: { files: 1, fileSize: deps.config.avatarMaxBytes + 1 } });
    if (!part) throw badRequest('请选择要上传的图片', { file: '请选择要上传的图片' });
    return ok(await service.uploadImage(userCtx(req), part.file, part.filename, purpose, deps.config.avatarMaxBytes), '上传成功');
  }

  app.post('/api/file/upload/avatar', { config: { rule: USER }, schema: { tags: ['file'], response: replies(uploadedImageSchema) } }, (req) => upload(req, 'avatar'));

  // Logos, covers and pictures inside rich text, uploaded from the back office.
  app.post(
    '/api/file/upload/image',
    { config: { rule: perm(SITE_CODES.manager) }, schema: { tags: ['file'], querystring: z.object({ purpose: z.enum(['logo', 'cover', 'content'], { error: '图片用途须为logo、cover或content' }) }), response: replies(uploadedImageSchema) } },
    (req) => upload(req, req.query.purpose),
  );

  // Registration attachments, transfer vouchers and issued invoices: private files.
  app.post(
    '/api/file/upload/document',
    { config: { rule: USER }, schema: { tags: ['file'], querystring: z.object({ purpose: z.enum(service.DOCUMENT_PURPOSES, { error: '文件用途须为attachment、voucher或invoice' }) }), response: replies(uploadedFileSchema) } },
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
      schema: { tags: ['file'], querystring: z.object({ fileUri: z.string({ error: '请指定文件' }).min(1, '请指定文件').max(200) }), response: fileReply },
    },
    async (req, reply) => {
      const file = await service.readableFile(req.ctx, req.query.fileUri);
      if (file.visibility === 'public') reply.header('cache-control', 'public, max-age=86400, immutable');
      return sendStoredFile(deps, req, reply, { key: file.key, name: file.originalName, mime: file.mime, sha256: file.sha256 });
    },
  );
}
