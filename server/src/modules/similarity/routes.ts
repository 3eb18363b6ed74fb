import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  idParam,
  similarityDecisionBody,
  similarityOverviewSchema,
  similarityPairSchema,
  similaritySettingsBody,
} from '@contest/shared';
import { z } from 'zod';
import { perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { userCtx } from '../../http/auth.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { fileReply, ok, replies } from '../../http/reply.ts';
import { sendStoredFile } from '../../http/send-file.ts';
import * as service from './service.ts';

const READ = perm(ADMIN_MENU_CODES.competition);
const EDIT = perm(ACTION_CODES.assignEdit);
const decisionBody = similarityDecisionBody.extend({ teamId: z.number().int().positive() });

/** 查重 of a question's written works (issue 37): the organiser's list, a pair side by side, thresholds, exclusions, decisions. */
export function similarityRoutes(app: App) {
  const tags = ['similarity'];
  app.get(
    '/api/review/similarity/:id',
    { config: { rule: READ }, schema: { tags, params: idParam, response: replies(similarityOverviewSchema) } },
    async (req) => ok(await service.overview(req.ctx, req.params.id)),
  );
  app.put(
    '/api/review/similarity/settings/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: similaritySettingsBody, response: replies(similarityOverviewSchema) } },
    async (req) => ok(await service.saveSettings(userCtx(req), req.params.id, req.body), '查重阈值已保存'),
  );
  app.post(
    '/api/review/similarity/run/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(similarityOverviewSchema) } },
    async (req) => ok(await service.requestRun(userCtx(req), req.params.id), '查重已开始'),
  );
  app.post(
    '/api/review/similarity/exclusion/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(similarityOverviewSchema) } },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const part = await req.file({ limits: { files: 1, fileSize: 50 * 1024 * 1024 + 1 } });
      if (!part) throw badRequest('请选择文件', { file: '请选择文件' });
      return ok(await service.addExclusion(userCtx(req), req.params.id, part.file, part.filename), '排除文件已上传');
    },
  );
  app.delete(
    '/api/review/similarity/exclusion/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(similarityOverviewSchema) } },
    async (req) => ok(await service.removeExclusion(userCtx(req), req.params.id), '排除文件已删除'),
  );
  app.get(
    '/api/review/similarity/pair/:id',
    { config: { rule: READ }, schema: { tags, params: idParam, response: replies(similarityPairSchema) } },
    async (req) => ok(await service.pair(req.ctx, req.params.id)),
  );
  app.get(
    '/api/review/similarity/report/:id',
    { config: { rule: READ }, schema: { tags, params: idParam, querystring: z.object({ teamId: z.coerce.number().int().positive() }), response: fileReply } },
    async (req, reply) => sendStoredFile(req.ctx, req, reply, await service.reportFile(req.ctx, req.params.id, req.query.teamId)),
  );
  app.put(
    '/api/review/similarity/decision/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: decisionBody, response: replies(similarityOverviewSchema) } },
    async (req) => ok(await service.decide(userCtx(req), req.params.id, req.body), '处理结果已保存'),
  );
}
