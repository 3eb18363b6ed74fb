import { ACTION_CODES, ARCHIVE_MAX_MB, cloneBody, createdIdSchema, editionSchema, idParam, importQuery, importReportSchema } from '@contest/shared';
import { z } from 'zod';
import { PUBLIC, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { userCtx } from '../../http/auth.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { fileReply, ok, replies } from '../../http/reply.ts';
import { readCache } from '../../http/read-cache.ts';
import { sendZip } from '../../http/zip.ts';
import * as service from './service.ts';

const EDIT = perm(ACTION_CODES.competitionEdit);

export function editionRoutes(app: App) {
  const tags = ['competition'];
  const visitorReads = readCache(['competitions'], 1_000);
  app.post(
    '/api/competition/clone/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: cloneBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.cloneEdition(userCtx(req), req.params.id, req.body), '新一届已创建（草稿）'),
  );
  // 往届: every edition of the competition's line.
  app.get(
    '/api/competition/editions/public/:id',
    { config: { rule: PUBLIC }, schema: { tags, params: idParam, response: replies(z.array(editionSchema)) } },
    // A visitor's 往届 (the editions that were online) is the same for every visitor: kept a second.
    async (req) =>
      ok(
        await (req.ctx.actor
          ? service.editions(req.ctx, req.params.id)
          : visitorReads(req.ctx, `editions ${req.params.id}`, () => service.editions(req.ctx, req.params.id))),
      ),
  );
  app.get('/api/competition/export/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: fileReply } }, async (req, reply) => {
    const a = await service.archiveOf(req.ctx, req.params.id);
    const json = (v: unknown) => Buffer.from(`${JSON.stringify(v, null, 2)}\n`);
    return sendZip(
      req,
      reply,
      a.fileName,
      [
        { name: 'manifest.json', open: async () => json(a.manifest) },
        { name: 'report.json', open: async () => json(a.report) },
        ...a.files.map((f) => ({ name: `files/${f.sha}`, open: () => req.ctx.storage.get(f.key) })),
      ],
      async () => undefined,
    );
  });
  app.post(
    '/api/competition/import',
    { config: { rule: EDIT }, schema: { tags, querystring: importQuery, response: replies(importReportSchema) } },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传竞赛包');
      const part = await req.file({ limits: { files: 1, fileSize: ARCHIVE_MAX_MB * 1024 * 1024 + 1 } });
      if (!part) throw badRequest('请选择竞赛包文件', { file: '请选择竞赛包文件' });
      const report = await service.importArchive(userCtx(req), part.file, req.query);
      return ok(report, '竞赛已导入（草稿）');
    },
  );
}
