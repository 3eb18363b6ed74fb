import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  createdIdSchema,
  idParam,
  pageOf,
  schoolBody,
  schoolImportReportSchema,
  schoolOptionSchema,
  schoolOptionsQuery,
  schoolPageQuery,
  schoolSchema,
} from '@contest/shared';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { userCtx } from '../../http/auth.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { noDataReply, ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';

/** The largest school list accepted (the Ministry's, about 3,000 schools, is under 300 kB). */
const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export function schoolRoutes(app: App) {
  const tags = ['schools'];
  // What a picker offers as people type (a profile, a registration form).
  app.get(
    '/api/school/options',
    { config: { rule: USER }, schema: { tags, querystring: schoolOptionsQuery, response: replies(z.array(schoolOptionSchema)) } },
    async (req) => ok(await service.options(req.ctx, req.query.keyword)),
  );
  app.get(
    '/api/system/school/page',
    { config: { rule: perm(ADMIN_MENU_CODES.school) }, schema: { tags, querystring: schoolPageQuery, response: replies(pageOf(schoolSchema)) } },
    async (req) => ok(await service.page(req.ctx, req.query)),
  );
  app.post(
    '/api/system/school',
    { config: { rule: perm(ACTION_CODES.schoolEdit) }, schema: { tags, body: schoolBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.create(userCtx(req), req.body), '学校已添加'),
  );
  app.put(
    '/api/system/school/:id',
    { config: { rule: perm(ACTION_CODES.schoolEdit) }, schema: { tags, params: idParam, body: schoolBody, response: noDataReply } },
    async (req) => {
      await service.update(userCtx(req), req.params.id, req.body);
      return ok(null, '学校已保存');
    },
  );
  app.delete(
    '/api/system/school/:id',
    { config: { rule: perm(ACTION_CODES.schoolEdit) }, schema: { tags, params: idParam, response: noDataReply } },
    async (req) => {
      await service.remove(userCtx(req), req.params.id);
      return ok(null, '学校已删除');
    },
  );
  app.post(
    '/api/system/school/import',
    { config: { rule: perm(ACTION_CODES.schoolEdit) }, schema: { tags, response: replies(schoolImportReportSchema) } },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const part = await req.file({ limits: { files: 1, fileSize: IMPORT_MAX_BYTES + 1 } });
      if (!part) throw badRequest('请选择要导入的Excel文件', { file: '请选择要导入的Excel文件' });
      const report = await service.importList(userCtx(req), part.file, IMPORT_MAX_BYTES);
      return ok(report, `导入完成：新增${report.added}所，更新${report.updated}所${report.errors.length ? `，${report.errors.length}行未导入` : ''}`);
    },
  );
}
