import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  approveResultSchema,
  auditReplyQuery,
  competitionBody,
  competitionDetailSchema,
  competitionIdParam,
  competitionListEntrySchema,
  createdIdSchema,
  idParam,
  manageListQuery,
  pageOf,
  presetBatchBody,
  reopenQuery,
  presetBody,
  presetSchema,
  publicListQuery,
  readinessSchema,
  stageBody,
  stageSchema,
  type Competition,
} from '@contest/shared';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PUBLIC, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { readCache } from '../../http/read-cache.ts';
import { noDataReply, ok, page, replies, sendJson } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const EDIT = perm(ACTION_CODES.competitionEdit);
const AUDIT = perm(ACTION_CODES.competitionAudit);

/**
 * The tables the public list and a competition's page are read from (questions and review_rules: a competition's phase,
 * lifecycle.ts, follows the state of its grades).
 */
const PUBLIC_TABLES = [
  'competitions',
  'brands',
  'organisations',
  'competition_types',
  'teams',
  'team_members',
  'competition_stages',
  'competition_presets',
  'questions',
  'review_rules',
];
/** How stale another instance may see the public list and pages (ARCHITECTURE.md §9: read throughput). */
const PUBLIC_TTL_MS = 1_000;

export function competitionRoutes(app: App) {
  const tags = ['competition'];
  const publicReads = readCache(PUBLIC_TABLES, PUBLIC_TTL_MS);
  /**
   * A read of one competition's page. Only an online competition's is cached, as only then is it the same for everyone;
   * another is read afresh, for its organisers and the platform only.
   */
  const pageRead = async <T>(req: FastifyRequest, reply: FastifyReply, key: string, id: number, load: (c: Competition) => Promise<T>) => {
    const json = await publicReads(req.ctx, key, async () => {
      const competition = await service.onlineCompetition(req.ctx, id);
      return competition ? JSON.stringify(ok(await load(competition))) : null;
    });
    return json !== null ? sendJson(reply, json) : ok(await load(await service.readableCompetition(req.ctx, id)));
  };

  app.get(
    '/api/competition/public/list',
    { config: { rule: PUBLIC }, schema: { tags, querystring: publicListQuery, response: replies(pageOf(competitionListEntrySchema)) } },
    async (req, reply) => {
      const json = await publicReads(req.ctx, `list ${JSON.stringify(req.query)}`, async () => {
        const { list, total } = await service.listPublic(req.ctx, req.query);
        return JSON.stringify(page(list, total, req.query));
      });
      return sendJson(reply, json);
    },
  );
  app.get(
    '/api/competition/public/:id',
    { config: { rule: PUBLIC }, schema: { tags, params: idParam, response: replies(competitionDetailSchema) } },
    async (req, reply) => pageRead(req, reply, `competition ${req.params.id}`, req.params.id, (competition) => service.competitionPage(req.ctx, competition)),
  );
  app.get(
    '/api/competition/listAuth',
    {
      config: { rule: perm(ADMIN_MENU_CODES.competition) },
      schema: { tags, querystring: manageListQuery, response: replies(pageOf(competitionListEntrySchema)) },
    },
    async (req) => {
      const { list, total } = await service.listAuth(userCtx(req), req.query);
      return page(list, total, req.query);
    },
  );
  app.get(
    '/api/competition/list',
    {
      config: { rule: perm(ADMIN_MENU_CODES.competitionAudit) },
      schema: { tags, querystring: manageListQuery, response: replies(pageOf(competitionListEntrySchema)) },
    },
    async (req) => {
      const { list, total } = await service.listAll(req.ctx, req.query);
      return page(list, total, req.query);
    },
  );
  app.post('/api/competition/', { config: { rule: EDIT }, schema: { tags, body: competitionBody, response: replies(createdIdSchema) } }, async (req) =>
    ok(await service.create(userCtx(req), req.body), '竞赛已创建'),
  );
  app.put(
    '/api/competition/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, querystring: reopenQuery, body: competitionBody, response: noDataReply } },
    async (req) => {
      await service.update(req.ctx, req.params.id, req.body, req.query.reopen === '1');
      return ok(null, '竞赛已保存');
    },
  );
  app.put('/api/competition/publish/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.publish(req.ctx, req.params.id);
    return ok(null, '已提交审核');
  });
  // What the competition still lacks before audit: read like the editor's other reads, of a competition the caller manages.
  app.get(
    '/api/competition/readiness/:id',
    { config: { rule: perm(ADMIN_MENU_CODES.competition) }, schema: { tags, params: idParam, response: replies(readinessSchema) } },
    async (req) => ok(await service.readiness(req.ctx, req.params.id)),
  );
  // A copied edition's organiser says its dates or fee are rechecked (the checklist's 已复核).
  app.put(
    '/api/competition/recheck/:id',
    {
      config: { rule: EDIT },
      schema: {
        tags,
        params: idParam,
        querystring: z.object({ key: z.enum(['dates', 'fee'], { error: '复核项不正确' }) }),
        response: replies(readinessSchema),
      },
    },
    async (req) => ok(await service.recheck(req.ctx, req.params.id, req.query.key), '已标记为已复核'),
  );
  app.put('/api/competition/audit/:id', { config: { rule: AUDIT }, schema: { tags, params: idParam, response: replies(approveResultSchema) } }, async (req) => {
    const result = await service.approve(req.ctx, req.params.id);
    const n = result.questionsApproved.length;
    return ok(result, n ? `审核通过，竞赛已上线，${n} 道赛题一并审核通过` : '审核通过，竞赛已上线');
  });
  app.put(
    '/api/competition/audit/reply/:id',
    { config: { rule: AUDIT }, schema: { tags, params: idParam, querystring: auditReplyQuery, response: noDataReply } },
    async (req) => {
      await service.reject(req.ctx, req.params.id, req.query.reply);
      return ok(null, '已驳回');
    },
  );
  app.delete('/api/competition/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.remove(req.ctx, req.params.id);
    return ok(null, '竞赛已删除');
  });
  app.post('/api/competition/:id/off', { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.off(req.ctx, req.params.id);
    return ok(null, '竞赛已下线');
  });
  app.post('/api/competition/:id/on', { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.on(req.ctx, req.params.id);
    return ok(null, '竞赛已上线');
  });

  // Stages.
  app.get(
    '/api/competition/stages/public/list/:competitionId',
    { config: { rule: PUBLIC }, schema: { tags, params: competitionIdParam, response: replies(z.array(stageSchema)) } },
    async (req) => {
      return ok(await service.stagesOf(req.ctx, req.params.competitionId));
    },
  );
  app.post(
    '/api/competition/stages/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, querystring: reopenQuery, body: stageBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.addStage(req.ctx, req.params.id, req.body, req.query.reopen === '1'), '阶段已添加'),
  );
  app.put(
    '/api/competition/stages/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, querystring: reopenQuery, body: stageBody, response: noDataReply } },
    async (req) => {
      await service.editStage(req.ctx, req.params.id, req.body, req.query.reopen === '1');
      return ok(null, '阶段已保存');
    },
  );
  app.delete(
    '/api/competition/stages/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, querystring: reopenQuery, response: noDataReply } },
    async (req) => {
      await service.removeStage(req.ctx, req.params.id, req.query.reopen === '1');
      return ok(null, '阶段已删除');
    },
  );

  // Menu presets.
  app.get(
    '/api/competition/preset/public/list/:id',
    { config: { rule: PUBLIC }, schema: { tags, params: idParam, response: replies(z.array(presetSchema)) } },
    async (req, reply) => pageRead(req, reply, `presets ${req.params.id}`, req.params.id, (competition) => service.presetsOf(req.ctx, competition)),
  );
  app.get(
    '/api/competition/preset/public/:id',
    { config: { rule: PUBLIC }, schema: { tags, params: idParam, response: replies(presetSchema) } },
    async (req) => {
      return ok(await service.presetOf(req.ctx, req.params.id));
    },
  );
  app.post(
    '/api/competition/preset/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, querystring: reopenQuery, body: presetBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.savePreset(req.ctx, req.params.id, req.body, req.query.reopen === '1'), '菜单设置已保存'),
  );
  // All the menus of the editor's one form in one request: saved together or not at all.
  app.put(
    '/api/competition/preset/batch/:competitionId',
    {
      config: { rule: EDIT },
      schema: { tags, params: competitionIdParam, querystring: reopenQuery, body: presetBatchBody, response: replies(z.array(presetSchema)) },
    },
    async (req) => ok(await service.savePresets(req.ctx, req.params.competitionId, req.body, req.query.reopen === '1'), '菜单设置已保存'),
  );
  app.put(
    '/api/competition/preset/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, querystring: reopenQuery, body: presetBody, response: noDataReply } },
    async (req) => {
      await service.editPreset(req.ctx, req.params.id, req.body, req.query.reopen === '1');
      return ok(null, '菜单设置已保存');
    },
  );

  // Team statistics.
  app.get(
    '/api/team/statistics/public/statisticsTeamNum/:competitionId',
    { config: { rule: PUBLIC }, schema: { tags: ['team'], params: competitionIdParam, response: replies(z.number().int()) } },
    async (req) => {
      return ok(await service.teamNum(req.ctx, req.params.competitionId));
    },
  );
  app.get(
    '/api/team/statistics/public/statisticsMemberNum/:competitionId',
    { config: { rule: PUBLIC }, schema: { tags: ['team'], params: competitionIdParam, response: replies(z.number().int()) } },
    async (req, reply) =>
      pageRead(req, reply, `memberNum ${req.params.competitionId}`, req.params.competitionId, (competition) => service.memberNum(req.ctx, competition)),
  );
}
