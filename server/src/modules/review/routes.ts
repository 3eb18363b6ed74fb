import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  ASSIGNMENT_STATUS_TEXT,
  assignmentPageQuery,
  expertBody,
  expertPageQuery,
  idParam,
  judgesBody,
  maxTotal,
  newExpertBody,
  reassignBody,
  reviewRuleBody,
  assignQuery,
  assignResultSchema,
  assignmentSchema,
  expertSchema,
  pageOf,
  questionJudgeSchema,
  reviewRuleSchema,
  type AssignmentPageQuery,
  type CriterionScore,
} from '@contest/shared';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { App, Ctx } from '../../http/app-types.ts';
import { perm } from '../../http/access.ts';
import { fileReply, noDataReply, ok, page, replies } from '../../http/reply.ts';
import { beijingTime, streamXlsx, type Column } from '../../http/xlsx.ts';
import { exportBatches } from '../../db/batches.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const RULES = perm(ADMIN_MENU_CODES.reviewRules);
const EXPERTS = perm(ADMIN_MENU_CODES.reviewExpert);
const ASSIGN = perm(ADMIN_MENU_CODES.reviewAssign);
const keywordQuery = z.object({ keyword: z.string().trim().max(100).optional() });
const judgeParams = z.object({ id: z.coerce.number().int().positive(), userId: z.coerce.number().int().positive() });

/**
 * The scores of a question's assignments (those the filters keep) as xlsx: a row per assignment, a column per
 * criterion. Every assignment, read a page at a time in the list's order and streamed (no cap).
 */
async function exportScores(ctx: Ctx, questionId: number, reply: FastifyReply, q: AssignmentPageQuery) {
  const size = exportBatches.size;
  const first = await service.assignmentPage(ctx, questionId, { ...q, page: 1, limit: size }, size);
  const { list, rule } = first;
  type Row = (typeof list)[number];
  const scoreOf = (r: Row, id: string) => (JSON.parse(r.scoresJson) as CriterionScore[]).find((s) => s.criterionId === id)?.score ?? '';
  const columns: Column<Row>[] = [
    { header: '队伍编号', value: (r) => r.teamNo },
    { header: '队伍名称', value: (r) => r.teamName, width: 24 },
    { header: '作品编号', value: (r) => r.code },
    { header: '评审专家', value: (r) => r.judgeName ?? r.judgeUsername },
    { header: '状态', value: (r) => ASSIGNMENT_STATUS_TEXT[r.status] ?? '' },
    { header: '复评', value: (r) => (r.rereview ? '是' : ''), width: 8 },
    ...rule.criteria.map((c): Column<Row> => ({ header: `${c.name}（满分${c.maxScore}）`, value: (r) => scoreOf(r, c.id) })),
    { header: `总分（满分${maxTotal(rule.criteria)}）`, value: (r) => r.total ?? '' },
    { header: '总评', value: (r) => r.comment ?? '', width: 40 },
    { header: '提交时间', value: (r) => beijingTime(r.submittedAt), width: 20 },
  ];
  async function* pages() {
    let rows = list;
    for (let page = 2; ; page++) {
      if (rows.length) yield rows;
      if (rows.length < size) return;
      rows = (await service.assignmentPage(ctx, questionId, { ...q, page, limit: size }, size)).list;
    }
  }
  return streamXlsx(reply, '评审明细.xlsx', '评审明细', columns, pages());
}

/** Review rules, the expert pool, each question's judges and the assignment of works to them. */
export function reviewRoutes(app: App) {
  const tags = ['review'];

  app.get('/api/review/rules/:id', { config: { rule: RULES }, schema: { tags, params: idParam, response: replies(reviewRuleSchema) } }, async (req) => ok(await service.getRule(req.ctx, req.params.id)));
  app.put('/api/review/rules/:id', { config: { rule: perm(ACTION_CODES.reviewRulesEdit) }, schema: { tags, params: idParam, body: reviewRuleBody, response: replies(reviewRuleSchema) } }, async (req) =>
    ok(await service.saveRule(req.ctx, req.params.id, req.body), '评审规则已保存'),
  );

  app.get('/api/review/expert/page', { config: { rule: EXPERTS }, schema: { tags, querystring: expertPageQuery, response: replies(pageOf(expertSchema)) } }, async (req) => {
    const { list, total } = await service.expertPage(req.ctx, req.query);
    return page(list, total, req.query);
  });
  app.post('/api/review/expert', { config: { rule: perm(ACTION_CODES.expertEdit) }, schema: { tags, body: newExpertBody, response: replies(expertSchema) } }, async (req) => ok(await service.addExpert(userCtx(req), req.body), '专家已加入专家库'));
  app.put('/api/review/expert/:id', { config: { rule: perm(ACTION_CODES.expertEdit) }, schema: { tags, params: idParam, body: expertBody, response: replies(expertSchema) } }, async (req) =>
    ok(await service.updateExpert(req.ctx, req.params.id, req.body)),
  );
  app.delete('/api/review/expert/:id', { config: { rule: perm(ACTION_CODES.expertEdit) }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.removeExpert(req.ctx, req.params.id);
    return ok(null, '专家已移出专家库');
  });

  app.get('/api/review/judge/:id', { config: { rule: ASSIGN }, schema: { tags, params: idParam, response: replies(z.array(questionJudgeSchema)) } }, async (req) => ok(await service.questionJudges(req.ctx, req.params.id)));
  app.get('/api/review/judge/candidates/:id', { config: { rule: ASSIGN }, schema: { tags, params: idParam, querystring: keywordQuery, response: replies(z.array(expertSchema)) } }, async (req) =>
    ok(await service.judgeCandidates(req.ctx, req.params.id, req.query.keyword)),
  );
  app.post('/api/review/judge/:id', { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: idParam, body: judgesBody, response: replies(z.array(questionJudgeSchema)) } }, async (req) =>
    ok(await service.addJudges(req.ctx, req.params.id, req.body.userIds), '评审专家已添加'),
  );
  app.delete('/api/review/judge/:id/:userId', { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: judgeParams, response: noDataReply } }, async (req) => {
    await service.removeJudge(req.ctx, req.params.id, req.params.userId);
    return ok(null, '已从评审名单中移除');
  });

  // Spec §7 Works `POST /{id}`: assigns the question's works to its judges.
  app.post('/api/review/works/:id', { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: idParam, querystring: assignQuery, response: replies(assignResultSchema) } }, async (req) => {
    const result = await service.autoAssign(req.ctx, req.params.id, req.query.early === '1');
    return ok(result, result.short.length ? `已分配${result.created}份评审任务，${result.short.length}份作品的可选专家不足` : `已分配${result.created}份评审任务`);
  });
  app.get('/api/review/assign/page/:id', { config: { rule: ASSIGN }, schema: { tags, params: idParam, querystring: assignmentPageQuery, response: replies(pageOf(assignmentSchema)) } }, async (req, reply) => {
    if (req.query.export) return exportScores(req.ctx, req.params.id, reply, req.query);
    const { list, total, rule } = await service.assignmentPage(req.ctx, req.params.id, req.query);
    return page(service.toAssignmentList(rule, list), total, req.query);
  });
  app.put('/api/review/assign/:id', { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: idParam, body: reassignBody, response: replies(assignmentSchema) } }, async (req) =>
    ok(await service.reassign(req.ctx, req.params.id, req.body.judgeId), '已转派'),
  );
  app.post('/api/review/assign/reopen/:id', { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: idParam, response: replies(assignmentSchema) } }, async (req) =>
    ok(await service.reopen(req.ctx, req.params.id), '评分已重新打开，专家可修改后再次提交'),
  );
  // Every judge's scores of the question, one row per assignment and a column per criterion.
  app.get('/api/review/works/review/export/:id', { config: { rule: ASSIGN }, schema: { tags, params: idParam, response: fileReply } }, async (req, reply) =>
    exportScores(req.ctx, req.params.id, reply, { page: 1, limit: exportBatches.size }),
  );
}
