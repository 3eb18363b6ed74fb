import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  answerUploadSchema,
  competitionIdParam,
  createdIdSchema,
  creatorBody,
  idParam,
  managedQuestionSchema,
  pageOf,
  publicQuestionSchema,
  questionBody,
  questionPageQuery,
  reviewBody,
  SCORER_MAX_BYTES,
  scorerSchema,
  scorerTrySchema,
} from '@contest/shared';
import { z } from 'zod';
import type { App, Deps } from '../../http/app-types.ts';
import { PUBLIC, perm } from '../../http/access.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { noDataReply, ok, page, replies } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';
import { idleLimit } from '../../http/socket.ts';

const MENU = perm(ADMIN_MENU_CODES.competition);
const EDIT = perm(ACTION_CODES.competitionEdit);

export function questionRoutes(app: App, deps: Deps) {
  const tags = ['question'];

  app.get(
    '/api/competition/question/public/list/:competitionId',
    { config: { rule: PUBLIC }, schema: { tags, params: competitionIdParam, response: replies(z.array(publicQuestionSchema)) } },
    async (req) => {
      return ok(await service.publicList(req.ctx, req.params.competitionId));
    },
  );
  app.get(
    '/api/competition/question/public/:id',
    { config: { rule: PUBLIC }, schema: { tags, params: idParam, response: replies(publicQuestionSchema) } },
    async (req) => {
      return ok(await service.publicQuestion(req.ctx, req.params.id));
    },
  );

  // Back office.
  app.get(
    '/api/competition/question/page',
    { config: { rule: MENU }, schema: { tags, querystring: questionPageQuery, response: replies(pageOf(managedQuestionSchema)) } },
    async (req) => {
      const { list, total } = await service.page(userCtx(req), req.query);
      return page(list, total, req.query);
    },
  );
  app.get(
    '/api/competition/question/list/:id',
    { config: { rule: MENU }, schema: { tags, params: idParam, response: replies(z.array(managedQuestionSchema)) } },
    async (req) => ok(await service.listOfCompetition(req.ctx, req.params.id)),
  );
  app.get(
    '/api/competition/question/check/:id',
    { config: { rule: MENU }, schema: { tags, params: idParam, response: replies(managedQuestionSchema) } },
    async (req) => ok(await service.check(req.ctx, req.params.id)),
  );
  app.post(
    '/api/competition/question/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: questionBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.create(userCtx(req), req.params.id, req.body), '赛题已创建'),
  );
  app.put(
    '/api/competition/question/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: questionBody, response: noDataReply } },
    async (req) => {
      await service.update(req.ctx, req.params.id, req.body);
      return ok(null, '赛题已保存');
    },
  );
  app.put(
    '/api/competition/question/:id/creator',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: creatorBody, response: noDataReply } },
    async (req) => {
      await service.setCreator(req.ctx, req.params.id, req.body.creatorId);
      return ok(null, '出题人已修改');
    },
  );
  app.put(
    '/api/competition/question/review/:id',
    { config: { rule: perm(ACTION_CODES.questionReview) }, schema: { tags, params: idParam, body: reviewBody, response: noDataReply } },
    async (req) => {
      await service.review(req.ctx, req.params.id, req.body.reviewed);
      return ok(null, req.body.reviewed ? '赛题已审核，参赛者可见' : '已撤回审核');
    },
  );
  app.delete('/api/competition/question/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.remove(req.ctx, req.params.id);
    return ok(null, '赛题已删除');
  });
  app.delete(
    '/api/competition/question/:id/file',
    { config: { rule: EDIT }, schema: { tags, params: idParam, querystring: z.object({ fileUri: z.string().max(200) }), response: noDataReply } },
    async (req) => {
      await service.removeFile(req.ctx, req.params.id, req.query.fileUri);
      return ok(null, '数据文件已删除');
    },
  );
  app.post(
    '/api/competition/question/:id/answer',
    { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(answerUploadSchema) } },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const max = deps.config.answerMaxBytes;
      const part = await req.file({ limits: { files: 1, fileSize: max + 1 } });
      if (!part) throw badRequest('请选择答案文件', { file: '请选择答案文件' });
      return ok(await service.uploadAnswer(userCtx(req), req.params.id, part.file, part.filename, max), '答案文件已上传');
    },
  );

  // The question's own scoring program (issue 23): its description, its upload, and a try on a prediction file.
  app.get('/api/question/scorer/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(scorerSchema.nullable()) } }, async (req) =>
    ok(await service.scorer(req.ctx, req.params.id)),
  );
  app.post('/api/question/scorer/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(scorerSchema) } }, async (req) => {
    if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
    const part = await req.file({ limits: { files: 1, fileSize: SCORER_MAX_BYTES + 1 } });
    if (!part) throw badRequest('请选择评分程序文件', { file: '请选择评分程序文件' });
    return ok(await service.uploadScorer(userCtx(req), req.params.id, part.file, part.filename), '评分程序已上传');
  });
  app.post('/api/question/scorer/try/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(scorerTrySchema) } }, async (req) => {
    if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
    const max = deps.config.testMaxBytes;
    const part = await req.file({ limits: { files: 1, fileSize: max + 1 } });
    if (!part) throw badRequest('请选择预测文件', { file: '请选择预测文件' });
    // Nothing is sent while the program runs (twice, up to its time limit each): the socket may stay silent meanwhile.
    idleLimit(req, 0);
    try {
      const result = await service.tryScorer(userCtx(req), req.params.id, part.file, max);
      return ok(result, result.ok ? '试运行完成' : '评分程序运行失败');
    } finally {
      idleLimit(req, deps.config.connectionTimeoutMs);
    }
  });
}
