import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  createdIdSchema,
  idParam,
  organisationBody,
  organisationSchema,
  pageOf,
  pageQuery,
  partnerApplicationSchema,
  partnerApplyBody,
  partnerAuditBody,
  partnerListQuery,
} from '@contest/shared';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { noDataReply, ok, page, replies } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

export function orgRoutes(app: App) {
  const tags = ['organisation'];
  app.post(
    '/api/competition/partner/apply',
    { config: { rule: USER }, schema: { tags, body: partnerApplyBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.apply(userCtx(req), req.body), '申请已提交，请等待平台审核'),
  );
  app.get(
    '/api/competition/partner/mine',
    { config: { rule: USER }, schema: { tags, querystring: partnerListQuery, response: replies(pageOf(partnerApplicationSchema)) } },
    async (req) => {
      const { list, total } = await service.myApplications(userCtx(req), req.query);
      return page(list, total, req.query);
    },
  );
  app.get(
    '/api/competition/partner/page',
    { config: { rule: perm(ADMIN_MENU_CODES.partner) }, schema: { tags, querystring: partnerListQuery, response: replies(pageOf(partnerApplicationSchema)) } },
    async (req) => {
      const { list, total } = await service.listApplications(req.ctx, req.query);
      return page(list, total, req.query);
    },
  );
  app.put(
    '/api/competition/partner/audit/:id',
    { config: { rule: perm(ACTION_CODES.partnerAudit) }, schema: { tags, params: idParam, body: partnerAuditBody, response: noDataReply } },
    async (req) => {
      await service.audit(userCtx(req), req.params.id, req.body.approve, req.body.reason);
      return ok(null, req.body.approve ? '已通过申请' : '已驳回申请');
    },
  );

  const ORG_EDIT = perm(ACTION_CODES.organizationEdit);
  app.get(
    '/api/competition/organization/page',
    {
      config: { rule: perm(ADMIN_MENU_CODES.organization) },
      schema: { tags, querystring: pageQuery.extend({ keyword: z.string().trim().max(100).optional() }), response: replies(pageOf(organisationSchema)) },
    },
    async (req) => {
      const { list, total } = await service.listOrganisations(req.ctx, req.query);
      return page(list, total, req.query);
    },
  );
  app.post(
    '/api/competition/organization/',
    { config: { rule: ORG_EDIT }, schema: { tags, body: organisationBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.createOrganisation(req.ctx, req.body), '机构已创建'),
  );
  app.put(
    '/api/competition/organization/:id',
    { config: { rule: ORG_EDIT }, schema: { tags, params: idParam, body: organisationBody, response: noDataReply } },
    async (req) => {
      await service.updateOrganisation(req.ctx, req.params.id, req.body);
      return ok(null, '机构已保存');
    },
  );
  app.delete('/api/competition/organization/:id', { config: { rule: ORG_EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.deleteOrganisation(req.ctx, req.params.id);
    return ok(null, '机构已删除');
  });
}
