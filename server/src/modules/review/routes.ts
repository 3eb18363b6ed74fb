import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  assignmentPageQuery,
  expertBody,
  expertPageQuery,
  idParam,
  judgesBody,
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
} from '@contest/shared';
import { z } from 'zod';
import type { App } from '../../http/app-types.ts';
import { perm } from '../../http/access.ts';
import { fileReply, noDataReply, ok, page, replies } from '../../http/reply.ts';
import { streamXlsx } from '../../http/xlsx.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const RULES = perm(ADMIN_MENU_CODES.reviewRules);
const EXPERTS = perm(ADMIN_MENU_CODES.reviewExpert);
const ASSIGN = perm(ADMIN_MENU_CODES.reviewAssign);
const keywordQuery = z.object({ keyword: z.string().trim().max(100).optional() });
const judgeParams = z.object({ id: z.coerce.number().int().positive(), userId: z.coerce.number().int().positive() });

/** Review rules, the expert pool, each question's judges and the assignment of works to them. */
export function reviewRoutes(app: App) {
  const tags = ['review'];

  app.get('/api/review/rules/:id', { config: { rule: RULES }, schema: { tags, params: idParam, response: replies(reviewRuleSchema) } }, async (req) =>
    ok(await service.getRule(req.ctx, req.params.id)),
  );
  app.put(
    '/api/review/rules/:id',
    { config: { rule: perm(ACTION_CODES.reviewRulesEdit) }, schema: { tags, params: idParam, body: reviewRuleBody, response: replies(reviewRuleSchema) } },
    async (req) => ok(await service.saveRule(req.ctx, req.params.id, req.body), '评审规则已保存'),
  );

  app.get(
    '/api/review/expert/page',
    { config: { rule: EXPERTS }, schema: { tags, querystring: expertPageQuery, response: replies(pageOf(expertSchema)) } },
    async (req) => {
      const { list, total } = await service.expertPage(req.ctx, req.query);
      return page(list, total, req.query);
    },
  );
  app.post(
    '/api/review/expert',
    { config: { rule: perm(ACTION_CODES.expertEdit) }, schema: { tags, body: newExpertBody, response: replies(expertSchema) } },
    async (req) => ok(await service.addExpert(userCtx(req), req.body), '专家已加入专家库'),
  );
  app.put(
    '/api/review/expert/:id',
    { config: { rule: perm(ACTION_CODES.expertEdit) }, schema: { tags, params: idParam, body: expertBody, response: replies(expertSchema) } },
    async (req) => ok(await service.updateExpert(req.ctx, req.params.id, req.body)),
  );
  app.delete(
    '/api/review/expert/:id',
    { config: { rule: perm(ACTION_CODES.expertEdit) }, schema: { tags, params: idParam, response: noDataReply } },
    async (req) => {
      await service.removeExpert(req.ctx, req.params.id);
      return ok(null, '专家已移出专家库');
    },
  );

  app.get(
    '/api/review/judge/:id',
    { config: { rule: ASSIGN }, schema: { tags, params: idParam, response: replies(z.array(questionJudgeSchema)) } },
    async (req) => ok(await service.questionJudges(req.ctx, req.params.id)),
  );
  app.get(
    '/api/review/judge/candidates/:id',
    { config: { rule: ASSIGN }, schema: { tags, params: idParam, querystring: keywordQuery, response: replies(z.array(expertSchema)) } },
    async (req) => ok(await service.judgeCandidates(req.ctx, req.params.id, req.query.keyword)),
  );
  app.post(
    '/api/review/judge/:id',
    { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: idParam, body: judgesBody, response: replies(z.array(questionJudgeSchema)) } },
    async (req) => ok(await service.addJudges(req.ctx, req.params.id, req.body.userIds), '评审专家已添加'),
  );
  app.delete(
    '/api/review/judge/:id/:userId',
    { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: judgeParams, response: noDataReply } },
    async (req) => {
      await service.removeJudge(req.ctx, req.params.id, req.params.userId);
      return ok(null, '已从评审名单中移除');
    },
  );

  // Spec §7 Works `POST /{id}`: assigns the question's works to its judges.
  app.post(
    '/api/review/works/:id',
    { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: idParam, querystring: assignQuery, response: replies(assignResultSchema) } },
    async (req) => {
      const result = await service.autoAssign(req.ctx, req.params.id, req.query.early === '1');
      return ok(
        result,
        result.short.length ? `已分配${result.created}份评审任务，${result.short.length}份作品的可选专家不足` : `已分配${result.created}份评审任务`,
      );
    },
  );
  app.get(
    '/api/review/assign/page/:id',
    { config: { rule: ASSIGN }, schema: { tags, params: idParam, querystring: assignmentPageQuery, response: replies(pageOf(assignmentSchema)) } },
    async (req, reply) => {
      if (req.query.export) {
        const { columns, batches } = await service.scoreSheet(req.ctx, req.params.id, req.query);
        return streamXlsx(reply, '评审明细.xlsx', '评审明细', columns, batches);
      }
      const { list, total, rule } = await service.assignmentPage(req.ctx, req.params.id, req.query);
      return page(service.toAssignmentList(rule, list), total, req.query);
    },
  );
  app.put(
    '/api/review/assign/:id',
    { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: idParam, body: reassignBody, response: replies(assignmentSchema) } },
    async (req) => ok(await service.reassign(req.ctx, req.params.id, req.body.judgeId), '已转派'),
  );
  app.post(
    '/api/review/assign/reopen/:id',
    { config: { rule: perm(ACTION_CODES.assignEdit) }, schema: { tags, params: idParam, response: replies(assignmentSchema) } },
    async (req) => ok(await service.reopen(req.ctx, req.params.id), '评分已重新打开，专家可修改后再次提交'),
  );
  // Every judge's scores of the question, one row per assignment and a column per criterion.
  app.get('/api/review/works/review/export/:id', { config: { rule: ASSIGN }, schema: { tags, params: idParam, response: fileReply } }, async (req, reply) => {
    const { columns, batches } = await service.scoreSheet(req.ctx, req.params.id);
    return streamXlsx(reply, '评审明细.xlsx', '评审明细', columns, batches);
  });
}
