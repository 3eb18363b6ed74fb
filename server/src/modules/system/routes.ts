import {
  ADMIN_MENU_CODES,
  ADMIN_ROUTES,
  SITE_CODES,
  accessibleRoutes,
  adminRouteSchema,
  dashboardSchema,
  envelope,
  healthSchema,
  orgOptionSchema,
  pageOf,
  todoSchema,
  unfinishedJudgeSchema,
  unfinishedJudgesQuery,
} from '@contest/shared';
import { z } from 'zod';
import type { App, Deps } from '../../http/app-types.ts';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import { ok, page, replies } from '../../http/reply.ts';
import { userCtx } from '../../http/auth.ts';
import * as service from './service.ts';

export function systemRoutes(app: App, deps: Deps) {
  app.get(
    '/api/health',
    { config: { rule: PUBLIC }, schema: { tags: ['system'], response: { ...replies(healthSchema), 503: envelope(healthSchema.nullable()) } } },
    async (_req, reply) => {
      if (await service.databaseUp(deps)) return ok({ status: 'ok' as const, database: deps.dialect });
      reply.code(503);
      return { status: 503, message: '数据库不可用', data: { status: 'down' as const, database: deps.dialect } };
    },
  );

  /** The back-office route list the caller may open (spec §2.3: path, name, children, redirect, alwaysShow, meta, hidden, component). */
  app.get('/api/system/menu/routers', { config: { rule: USER }, schema: { tags: ['system'], response: replies(z.array(adminRouteSchema)) } }, async (req) =>
    ok(accessibleRoutes(ADMIN_ROUTES, [...userCtx(req).actor.permissions])),
  );

  app.get(
    '/api/system/dashboard',
    { config: { rule: perm(SITE_CODES.manager) }, schema: { tags: ['system'], response: replies(dashboardSchema) } },
    async (req) => ok(await service.dashboard(userCtx(req))),
  );

  /** What waits for the caller (the back-office home page's to-do list), scoped by organisation. */
  app.get('/api/system/todo', { config: { rule: perm(SITE_CODES.manager) }, schema: { tags: ['system'], response: replies(todoSchema) } }, async (req) =>
    ok(await service.todo(userCtx(req))),
  );
  /** The to-do 未完成评审的专家 as a list: each judge and question with works not yet submitted, in the caller's organisation. */
  app.get(
    '/api/system/todo/judges',
    {
      config: { rule: perm(ADMIN_MENU_CODES.reviewAssign) },
      schema: { tags: ['system'], querystring: unfinishedJudgesQuery, response: replies(pageOf(unfinishedJudgeSchema)) },
    },
    async (req) => {
      const { list, total } = await service.unfinishedJudges(userCtx(req), req.query);
      return page(list, total, req.query);
    },
  );

  app.get(
    '/api/system/org/options',
    { config: { rule: perm(ADMIN_MENU_CODES.user) }, schema: { tags: ['system'], response: replies(z.array(orgOptionSchema)) } },
    async (req) => ok(await service.orgOptions(req.ctx)),
  );
}
