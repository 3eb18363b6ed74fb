import {
  schoolResultSchema,
  ACTION_CODES,
  ADMIN_MENU_CODES,
  competitionIdParam,
  disputeAnswerBody,
  disputeBody,
  disputePageQuery,
  disputeSchema,
  gradeOverviewSchema,
  gradePageQuery,
  gradeSchema,
  gradeSummarySchema,
  idParam,
  myGradeSchema,
  pageOf,
} from '@contest/shared';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { fileReply, ok, page, replies } from '../../http/reply.ts';
import { streamXlsx } from '../../http/xlsx.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const GRADES = perm(ADMIN_MENU_CODES.question);
const EDIT = perm(ACTION_CODES.gradeEdit);

/** Grades (spec §7 Works: calcFinalScore, confirmFinalScore, disputeScore and the grade export; awards are their own module). */
export function gradeRoutes(app: App) {
  const tags = ['grades'];
  app.get(
    '/api/review/works/grade/summary/:id',
    { config: { rule: GRADES }, schema: { tags, params: idParam, response: replies(gradeOverviewSchema) } },
    async (req) => ok(await service.gradeSummary(req.ctx, req.params.id)),
  );
  app.get(
    '/api/review/works/grade/schools/:id',
    { config: { rule: GRADES }, schema: { tags, params: idParam, response: replies(z.array(schoolResultSchema)) } },
    async (req) => ok(await service.resultsBySchool(req.ctx, req.params.id)),
  );
  app.get(
    '/api/review/works/grade/:id',
    { config: { rule: GRADES }, schema: { tags, params: idParam, querystring: gradePageQuery, response: replies(pageOf(gradeSchema)) } },
    async (req) => {
      const { list, total } = await service.gradePage(req.ctx, req.params.id, req.query);
      return page(list, total, req.query);
    },
  );
  app.post(
    '/api/review/works/calcFinalScore/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(gradeSummarySchema) } },
    async (req) => ok(await service.calculate(req.ctx, req.params.id), '成绩已计算'),
  );
  app.post(
    '/api/review/works/confirmFinalScore/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, response: replies(gradeSummarySchema) } },
    async (req) => ok(await service.confirm(req.ctx, req.params.id), '成绩已确认'),
  );
  // Spec §7 Works names two export bases for the grade workbook, `exportGrade/` and `review/exportGrade/`: one rule,
  // one handler, the same file under both.
  for (const url of ['/api/review/works/exportGrade/:id', '/api/review/works/review/exportGrade/:id']) {
    app.get(url, { config: { rule: GRADES }, schema: { tags, params: idParam, response: fileReply } }, async (req, reply) =>
      streamXlsx(reply, '成绩表.xlsx', '成绩', service.GRADE_COLUMNS, await service.exportBatches(userCtx(req), req.params.id)),
    );
  }

  app.get(
    '/api/review/works/myGrade/:competitionId',
    { config: { rule: USER }, schema: { tags, params: competitionIdParam, response: replies(z.array(myGradeSchema)) } },
    async (req) => ok(await service.myGrades(userCtx(req), req.params.competitionId)),
  );
  app.post(
    '/api/review/works/disputeScore/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: disputeBody, response: replies(disputeSchema) } },
    async (req) => ok(await service.fileDispute(userCtx(req), req.params.id, req.body.reason), '申诉已提交，请等待答复'),
  );
  app.get(
    '/api/review/works/dispute/page/:id',
    { config: { rule: GRADES }, schema: { tags, params: idParam, querystring: disputePageQuery, response: replies(pageOf(disputeSchema)) } },
    async (req) => {
      const { list, total } = await service.disputePage(req.ctx, req.params.id, req.query);
      return page(list, total, req.query);
    },
  );
  app.put(
    '/api/review/works/dispute/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: disputeAnswerBody, response: replies(disputeSchema) } },
    async (req) => ok(await service.answerDispute(userCtx(req), req.params.id, req.body), '申诉已答复'),
  );
}
