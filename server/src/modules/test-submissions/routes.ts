import {
  ACTION_CODES,
  cancelSubmissionBody,
  disqualifyBody,
  idParam,
  questionSubmissionsQuery,
  questionSubmissionsSchema,
  duplicatesSchema,
  leaderboardQuery,
  leaderboardSchema,
  myTestsSchema,
  publishBody,
  rescoreProgressSchema,
  scoringFailureSchema,
  scoringQueueSchema,
  selectBody,
  testSubmittedSchema,
} from '@contest/shared';
import { z } from 'zod';
import type { App, Deps } from '../../http/app-types.ts';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { fileReply, noDataReply, ok, replies } from '../../http/reply.ts';
import { contentDisposition } from '../../http/send-file.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const questionIdParam = z.object({ questionId: z.coerce.number().int().positive('编号须为正整数') });

/** Test (prediction) submissions, scored automatically, and the leaderboards. */
export function testSubmissionRoutes(app: App, deps: Deps) {
  const tags = ['test'];

  app.post(
    '/api/review/test/:questionId',
    { config: { rule: USER }, schema: { tags, params: questionIdParam, response: replies(testSubmittedSchema) } },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const max = deps.config.testMaxBytes;
      const part = await req.file({ limits: { files: 1, fileSize: max + 1 } });
      if (!part) throw badRequest('请选择测试文件', { file: '请选择测试文件' });
      return ok(await service.submit(userCtx(req), req.params.questionId, part.file, part.filename, max), '测试文件已提交，正在排队评分');
    },
  );
  // A sample prediction file with every id of the test set (issue 33).
  app.get(
    '/api/review/test/sample/:questionId',
    { config: { rule: USER }, schema: { tags, params: questionIdParam, response: fileReply } },
    async (req, reply) => {
      const body = await service.sampleFile(deps, userCtx(req), req.params.questionId);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', contentDisposition('sample_submission.csv')).send(body);
    },
  );
  app.get(
    '/api/review/test/list/:questionId',
    { config: { rule: USER }, schema: { tags, params: questionIdParam, response: replies(myTestsSchema) } },
    async (req) => ok(await service.listMine(userCtx(req), req.params.questionId)),
  );
  app.put(
    '/api/review/test/select/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: selectBody, response: noDataReply } },
    async (req) => {
      await service.select(userCtx(req), req.params.id, req.body.selected);
      return ok(null, req.body.selected ? '已选为最终结果' : '已取消选择');
    },
  );
  app.get(
    '/api/review/test/leaderboard/:questionId',
    { config: { rule: PUBLIC }, schema: { tags, params: questionIdParam, querystring: leaderboardQuery, response: replies(leaderboardSchema) } },
    async (req) => ok(await service.leaderboard(req.ctx, req.params.questionId, req.query)),
  );
  app.put(
    '/api/review/test/publish/:questionId',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: questionIdParam, body: publishBody, response: noDataReply } },
    async (req) => {
      await service.publish(req.ctx, req.params.questionId, req.body.published);
      return ok(null, req.body.published ? '私榜已公布' : '已撤回私榜');
    },
  );
  // The organisers' view of a question's submissions, and their 取消成绩 / 恢复 of a submission or a team (issue 33).
  app.get(
    '/api/review/test/submissions/:questionId',
    {
      config: { rule: perm(ACTION_CODES.competitionEdit) },
      schema: { tags, params: questionIdParam, querystring: questionSubmissionsQuery, response: replies(questionSubmissionsSchema) },
    },
    async (req) => ok(await service.questionSubmissions(req.ctx, req.params.questionId, req.query)),
  );
  app.get(
    '/api/review/test/duplicates/:questionId',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: questionIdParam, response: replies(duplicatesSchema) } },
    async (req) => ok(await service.duplicates(req.ctx, req.params.questionId)),
  );
  app.put(
    '/api/review/test/cancel/:id',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: idParam, body: cancelSubmissionBody, response: noDataReply } },
    async (req) => {
      await service.cancelSubmission(userCtx(req), req.params.id, req.body);
      return ok(null, req.body.cancelled ? '已取消该提交的成绩' : '已恢复该提交的成绩');
    },
  );
  app.put(
    '/api/review/test/disqualify/:questionId',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: questionIdParam, body: disqualifyBody, response: noDataReply } },
    async (req) => {
      await service.disqualifyTeam(userCtx(req), req.params.questionId, req.body);
      return ok(null, req.body.disqualified ? '已取消该队伍的成绩' : '已恢复该队伍的成绩');
    },
  );
  app.get(
    '/api/review/test/rescore/:questionId',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: questionIdParam, response: replies(rescoreProgressSchema) } },
    async (req) => ok(await service.rescoring(req.ctx, req.params.questionId)),
  );
  app.get(
    '/api/review/test/queue/:id',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: idParam, response: replies(scoringQueueSchema) } },
    async (req) => ok(await service.competitionQueue(req.ctx, req.params.id)),
  );
  app.get(
    '/api/review/test/failures/:id',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: idParam, response: replies(z.array(scoringFailureSchema)) } },
    async (req) => ok(await service.competitionFailures(req.ctx, req.params.id)),
  );
  // Every settled submission of the question scored again in the background (after its answer file was corrected, say);
  // the progress is the GET above, and the boards show the submissions done so far.
  app.post(
    '/api/question/rescore/:id',
    { config: { rule: perm(ACTION_CODES.competitionEdit) }, schema: { tags, params: idParam, response: replies(rescoreProgressSchema) } },
    async (req) => {
      const progress = await service.rescoreAll(userCtx(req), req.params.id);
      return ok(progress, progress.total ? `已开始重新评分（共${progress.total}个提交）` : '该赛题还没有需要评分的测试提交');
    },
  );
}
