import {
  ADMIN_MENU_CODES,
  attachmentsQuery,
  batchResultSchema,
  batchResultText,
  competitionIdParam,
  idParam,
  myRegisterSchema,
  pageOf,
  PAY_STATUS_TEXT,
  REGISTER_STATUS_TEXT,
  registerAttachmentSchema,
  registerBatchBody,
  registerFlowBody,
  registerListQuery,
  registerSchema,
  type Register,
} from '@contest/shared';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { noDataReply, ok, page, replies, withoutOrg } from '../../http/reply.ts';
import { beijingTime, streamXlsx, type Column } from '../../http/xlsx.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const MENU = perm(ADMIN_MENU_CODES.register);

const EXPORT_COLUMNS: Column<Register>[] = [
  { header: '报名编号', value: (r) => r.id, width: 10 },
  { header: '竞赛', value: (r) => r.competitionName, width: 30 },
  { header: '队伍编号', value: (r) => r.teamNo },
  { header: '队伍名称', value: (r) => r.teamName, width: 24 },
  { header: '参赛方式', value: (r) => (r.individual ? '个人' : '团队') },
  { header: '人数', value: (r) => r.memberNum, width: 8 },
  { header: '报名人', value: (r) => r.username },
  { header: '审核状态', value: (r) => REGISTER_STATUS_TEXT[r.status] ?? '' },
  { header: '驳回原因', value: (r) => r.reason, width: 30 },
  { header: '缴费状态', value: (r) => (r.payStatus === null ? '免费' : (PAY_STATUS_TEXT[r.payStatus] ?? '')) },
  { header: '报名时间', value: (r) => beijingTime(r.createdAt), width: 20 },
  { header: '学校', value: (r) => r.schoolName ?? '', width: 24 },
  { header: '组别', value: (r) => r.groupName ?? '' },
];

export function registrationRoutes(app: App) {
  const tags = ['register'];

  app.get(
    '/api/team/register/list',
    { config: { rule: MENU }, schema: { tags, querystring: registerListQuery, response: replies(pageOf(registerSchema)) } },
    async (req, reply) => {
      if (req.query.export) return streamXlsx(reply, '报名列表.xlsx', '报名', EXPORT_COLUMNS, service.exportList(userCtx(req), req.query));
      const { list, total } = await service.list(userCtx(req), req.query);
      return page(list.map(withoutOrg), total, req.query);
    },
  );
  app.get(
    '/api/team/register/item/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, response: replies(myRegisterSchema.nullable()) } },
    async (req) => ok(await service.mine(userCtx(req), req.params.id)),
  );
  app.post(
    '/api/team/register/flow/batch',
    { config: { rule: perm(service.AUDIT) }, schema: { tags, body: registerBatchBody, response: replies(batchResultSchema) } },
    async (req) => {
      const result = await service.flowBatch(userCtx(req), req.body);
      return ok(result, batchResultText(req.body.action === 'approve' ? '通过' : '驳回', result));
    },
  );
  app.post(
    '/api/team/register/flow/:id',
    { config: { rule: perm(service.AUDIT) }, schema: { tags, params: idParam, body: registerFlowBody, response: noDataReply } },
    async (req) => {
      await service.flow(userCtx(req), req.params.id, req.body.action, req.body.reason);
      return ok(null, req.body.action === 'approve' ? '已审核通过' : '已驳回');
    },
  );
  app.get(
    '/api/team/register/:competitionId/attachments',
    {
      config: { rule: MENU },
      schema: { tags, params: competitionIdParam, querystring: attachmentsQuery, response: replies(z.array(registerAttachmentSchema)) },
    },
    async (req) => ok(await service.attachments(req.ctx, req.params.competitionId, req.query.teamId)),
  );
}
