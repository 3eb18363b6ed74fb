import {
  ACTION_CODES,
  coordinatorBody,
  coordinatorSchema,
  coordinatorTeamsQuery,
  createdIdSchema,
  idParam,
  myCoordinationSchema,
  registerFlowBody,
  schoolDashboardSchema,
} from '@contest/shared';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { userCtx } from '../../http/auth.ts';
import { noDataReply, ok, replies } from '../../http/reply.ts';
import * as service from './service.ts';

/** School coordinators (院校负责人): appointed by organisers and the platform, acting for their school only. */
export function coordinatorRoutes(app: App) {
  const tags = ['coordinators'];
  const EDIT = perm(ACTION_CODES.competitionEdit);
  const competitionParam = z.object({ competitionId: z.coerce.number().int().positive() });

  app.get(
    '/api/competition/coordinator/:competitionId',
    { config: { rule: EDIT }, schema: { tags, params: competitionParam, response: replies(z.array(coordinatorSchema)) } },
    async (req) => ok(await service.list(userCtx(req), req.params.competitionId)),
  );
  app.post(
    '/api/competition/coordinator/:competitionId',
    { config: { rule: EDIT }, schema: { tags, params: competitionParam, body: coordinatorBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.appoint(userCtx(req), req.params.competitionId, req.body), '已指定院校负责人'),
  );
  app.delete('/api/competition/coordinator/item/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.revoke(userCtx(req), req.params.id);
    return ok(null, '已取消院校负责人');
  });

  // The coordinator's own: object-level checks in the service (an appointment covering the school and competition).
  app.get('/api/school/coordinator/mine', { config: { rule: USER }, schema: { tags, response: replies(myCoordinationSchema) } }, async (req) =>
    ok(await service.mine(userCtx(req))),
  );
  app.get(
    '/api/school/coordinator/teams/:competitionId',
    { config: { rule: USER }, schema: { tags, params: competitionParam, querystring: coordinatorTeamsQuery, response: replies(schoolDashboardSchema) } },
    async (req) => ok(await service.dashboard(userCtx(req), req.params.competitionId, req.query.schoolId)),
  );
  app.post(
    '/api/school/coordinator/audit/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: registerFlowBody, response: noDataReply } },
    async (req) => {
      await service.audit(userCtx(req), req.params.id, req.body.action, req.body.reason);
      return ok(null, req.body.action === 'approve' ? '学校审核已通过' : '已驳回');
    },
  );
}
