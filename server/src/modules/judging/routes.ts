import { SITE_CODES, idParam, reviewTaskSchema, reviewWorkDetailSchema, reviewWorkSchema, reviewWorksQuery, scoreBody } from '@contest/shared';
import { z } from 'zod';
import type { App, Deps } from '../../http/app-types.ts';
import { perm } from '../../http/access.ts';
import { userCtx } from '../../http/auth.ts';
import { fileReply, ok, replies } from '../../http/reply.ts';
import { sendStoredFile } from '../../http/send-file.ts';
import * as service from './service.ts';

const JUDGE = perm(SITE_CODES.review);

/** The review centre of the judges: their tasks, the works assigned to them, the downloads and the scores. */
export function judgingRoutes(app: App, deps: Deps) {
  const tags = ['review'];

  app.get('/api/review/center/tasks', { config: { rule: JUDGE }, schema: { tags, response: replies(z.array(reviewTaskSchema)) } }, async (req) =>
    ok(await service.tasks(userCtx(req))),
  );
  app.get(
    '/api/review/center/works',
    { config: { rule: JUDGE }, schema: { tags, querystring: reviewWorksQuery, response: replies(z.array(reviewWorkSchema)) } },
    async (req) => ok(await service.judgeWorks(userCtx(req), req.query.questionId)),
  );
  app.get(
    '/api/review/center/works/:id',
    { config: { rule: JUDGE }, schema: { tags, params: idParam, response: replies(reviewWorkDetailSchema) } },
    async (req) => ok(await service.judgeWork(userCtx(req), req.params.id)),
  );
  app.get('/api/review/center/works/:id/download', { config: { rule: JUDGE }, schema: { tags, params: idParam, response: fileReply } }, async (req, reply) =>
    sendStoredFile(deps, req, reply, await service.judgeDownload(userCtx(req), req.params.id)),
  );
  // Spec §7 Works `PUT /{id}`: a judge saves (or submits) the scores of an assigned work.
  app.put(
    '/api/review/works/:id',
    { config: { rule: JUDGE }, schema: { tags, params: idParam, body: scoreBody, response: replies(reviewWorkDetailSchema) } },
    async (req) => ok(await service.saveScore(userCtx(req), req.params.id, req.body), req.body.submit ? '评分已提交' : '草稿已保存'),
  );
}
