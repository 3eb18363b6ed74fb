import { z } from 'zod';
import type { App, Deps } from '../../http/app-types.ts';
import { SITE_CODES, fileDownloadBody, uploadedFileSchema, uploadedImageSchema } from '@contest/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { fileReply, ok, replies } from '../../http/reply.ts';
import type { ImagePurpose } from './service.ts';
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

  app.post('/api/file/upload/avatar', { config: { rule: USER }, schema: { tags: ['file'], response: replies(uploadedImageSchema) } }, (req) =>
    upload(req, 'avatar'),
  );

  // Logos, covers and pictures inside rich text, uploaded from the back office.
  app.post(
    '/api/file/upload/image',
    {
      config: { rule: perm(SITE_CODES.manager) },
      schema: {
        tags: ['file'],
        querystring: z.object({ purpose: z.enum(['logo', 'cover', 'content'], { error: '图片用途须为logo、cover或content' }) }),
        response: replies(uploadedImageSchema),
      },
    },
    (req) => upload(req, req.query.purpose),
  );

  // Registration attachments, transfer vouchers and issued invoices: private files.
  app.post(
    '/api/file/upload/document',
    {
      config: { rule: USER },
      schema: {
        tags: ['file'],
        querystring: z.object({ purpose: z.enum(service.DOCUMENT_PURPOSES, { error: '文件用途须为attachment、voucher、invoice、identity或objection' }) }),
        response: replies(uploadedFileSchema),
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const max = deps.config.documentMaxBytes;
      const part = await req.file({ limits: { files: 1, fileSize: max + 1 } });
      if (!part) throw badRequest('请选择要上传的文件', { file: '请选择要上传的文件' });
      return ok(await service.uploadDocument(userCtx(req), part.file, part.filename, req.query.purpose, max), '上传成功');
    },
  );

  /** Sends the file if the caller may read it: a private file anyone else may not read answers like a missing one. */
  async function download(req: FastifyRequest, reply: FastifyReply, fileUri: string) {
    const file = await service.readableFile(req.ctx, fileUri);
    if (file.visibility === 'public' && !service.isGated(file.purpose)) reply.header('cache-control', 'public, max-age=86400, immutable');
    else reply.header('cache-control', 'private, no-store');
    return sendStoredFile(deps, req, reply, { key: file.key, name: file.originalName, mime: file.mime, sha256: file.sha256 });
  }

  app.get(
    '/api/file/common/download',
    {
      config: { rule: PUBLIC },
      schema: { tags: ['file'], querystring: z.object({ fileUri: fileDownloadBody.shape.fileUri }), response: fileReply },
    },
    (req, reply) => download(req, reply, req.query.fileUri),
  );

  /*
   * Spec §7 Files: "a form-encoded POST download that returns a blob": the same download as a POST of `fileUri=…`,
   * with the GET's bytes, headers and access rules. Form bodies are parsed in this scope only; every other route
   * still refuses them (415).
   *
   * A POST is not a safe method, so the CSRF protection of http/auth.ts applies before the body is read: a browser
   * session must echo its CSRF token in the header, and an Origin of another site is refused (403). A form another
   * site makes the visitor's browser post carries neither, so it gets a 403, never a file; bearer tokens (the desktop
   * client) are not sent by browsers on their own and need no token.
   */
  app.register(async (child) => {
    const scope = child as unknown as App;
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_req, text, done) =>
      done(null, parseForm(text as string)),
    );
    scope.post(
      '/api/file/common/download',
      { config: { rule: PUBLIC }, schema: { tags: ['file'], body: fileDownloadBody, response: fileReply } },
      (req, reply) => download(req, reply, req.body.fileUri),
    );
  });
}

/** A download form is one short field: anything much longer is not one (413). */
const FORM_LIMIT = 4096;

/**
 * An `application/x-www-form-urlencoded` body as an object of its fields, without a prototype (a field named
 * `__proto__` is just a field); a field sent twice becomes a list, which no string field of a schema accepts.
 */
function parseForm(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : [seen, value].flat();
  }
  return fields;
}
