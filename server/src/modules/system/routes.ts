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
import { sql } from 'kysely';
import type { Deps } from '../../context.ts';
import { PUBLIC, USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { ok, page, replies } from '../../http/reply.ts';
import { countLiveSessions } from '../auth/index.ts';
import { countOrganisations, organisationOptions } from '../orgs/index.ts';
import { countRoles } from '../roles/index.ts';
import { countUsers } from '../users/index.ts';
import { todo, unfinishedJudges } from './todo.ts';
import { userCtx } from '../../http/auth.ts';
import * as policy from '../../policy.ts';

export function systemRoutes(app: App, deps: Deps) {
  app.get('/api/health', { config: { rule: PUBLIC }, schema: { tags: ['system'], response: { ...replies(healthSchema), 503: envelope(healthSchema.nullable()) } } }, async (_req, reply) => {
    try {
      await sql`select 1`.execute(deps.db);
      return ok({ status: 'ok' as const, database: deps.dialect });
    } catch {
      reply.code(503);
      return { status: 503, message: '数据库不可用', data: { status: 'down' as const, database: deps.dialect } };
    }
  });

  /** The back-office route list the caller may open (spec §2.3: path, name, children, redirect, alwaysShow, meta, hidden, component). */
  app.get('/api/system/menu/routers', { config: { rule: USER }, schema: { tags: ['system'], response: replies(z.array(adminRouteSchema)) } }, async (req) =>
    ok(accessibleRoutes(ADMIN_ROUTES, [...userCtx(req).actor.permissions])),
  );

  app.get('/api/system/dashboard', { config: { rule: perm(SITE_CODES.manager) }, schema: { tags: ['system'], response: replies(dashboardSchema) } }, async (req) => {
    const now = req.ctx.clock.now().toISOString();
    // Scoped as every organiser view is: the platform sees all, an organiser its own organisation (none: zeros).
    const orgId = policy.orgScope(userCtx(req));
    const [users, roles, orgs, sessions] = await Promise.all([
      countUsers(deps.db, orgId),
      countRoles(deps.db, orgId),
      orgId === undefined ? countOrganisations(deps.db) : Promise.resolve(null),
      countLiveSessions(deps.db, now, orgId),
    ]);
    return ok({ scope: orgId === undefined ? ('platform' as const) : ('organisation' as const), ...users, roles, organisations: orgs, sessions });
  });

  /** What waits for the caller (the back-office home page's to-do list), scoped by organisation. */
  app.get('/api/system/todo', { config: { rule: perm(SITE_CODES.manager) }, schema: { tags: ['system'], response: replies(todoSchema) } }, async (req) => ok(await todo(userCtx(req))));
  /** The to-do 未完成评审的专家 as a list: each judge and question with works not yet submitted, in the caller's organisation. */
  app.get('/api/system/todo/judges', { config: { rule: perm(ADMIN_MENU_CODES.reviewAssign) }, schema: { tags: ['system'], querystring: unfinishedJudgesQuery, response: replies(pageOf(unfinishedJudgeSchema)) } }, async (req) => {
    const { list, total } = await unfinishedJudges(userCtx(req), req.query);
    return page(list, total, req.query);
  });

  app.get('/api/system/org/options', { config: { rule: perm(ADMIN_MENU_CODES.user) }, schema: { tags: ['system'], response: replies(z.array(orgOptionSchema)) } }, async () =>
    ok(await organisationOptions(deps.db)),
  );
}
