import {
  ACTION_CODES,
  ROSTER_COLUMNS,
  rosterQuery,
  rosterReportSchema,
  coordinatorBody,
  coordinatorSchema,
  coordinatorTeamsQuery,
  createdIdSchema,
  idParam,
  myCoordinationSchema,
  registerFlowBody,
  schoolDashboardSchema,
  schoolInvoiceBody,
  schoolOrderBody,
  schoolOrderSchema,
  payBody,
  payResultSchema,
  voucherBody,
} from '@contest/shared';
import { publicOrigin } from '../../http/origin.ts';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { userCtx } from '../../http/auth.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { fileReply, noDataReply, ok, replies } from '../../http/reply.ts';
import { streamXlsx } from '../../http/xlsx.ts';
import { sendZip, zipSegment } from '../../http/zip.ts';
import * as service from './service.ts';

/** School coordinators (院校负责人): appointed by organisers and the platform, acting for their school only. */
export function coordinatorRoutes(app: App) {
  const tags = ['coordinators'];
  /** A roster of a few thousand people is well under 2 MB. */
  const ROSTER_MAX_BYTES = 5 * 1024 * 1024;
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
  // The roster: its template, and importing it (all or nothing, or the teams without a bad row).
  app.get('/api/school/coordinator/template', { config: { rule: USER }, schema: { tags, response: fileReply } }, async (_req, reply) =>
    streamXlsx(
      reply,
      '学生与队伍导入模板.xlsx',
      '名单',
      ROSTER_COLUMNS.map((header, i) => ({ header, value: (r: string[]) => r[i] ?? '', width: i === 4 ? 22 : 14 })),
      [
        [
          ['数据先锋队', '队长', '张三', '13800000001', '', '本科', ''],
          ['数据先锋队', '队员', '李四', '13800000002', '', '本科', ''],
        ],
      ],
    ),
  );
  app.post(
    '/api/school/coordinator/import/:competitionId',
    { config: { rule: USER }, schema: { tags, params: competitionParam, querystring: rosterQuery, response: replies(rosterReportSchema) } },
    async (req) => {
      if (!req.isMultipart()) throw new AppError(415, '请以表单方式上传文件');
      const part = await req.file({ limits: { files: 1, fileSize: ROSTER_MAX_BYTES + 1 } });
      if (!part) throw badRequest('请选择要导入的Excel文件', { file: '请选择要导入的Excel文件' });
      const r = await service.importTeams(userCtx(req), req.params.competitionId, req.query.schoolId, req.query.mode, part.file, ROSTER_MAX_BYTES);
      const message = r.imported
        ? `导入完成：${r.teams}支队伍、${r.members}人${r.accountsCreated ? `（新建账号${r.accountsCreated}个）` : ''}${r.errors.length ? `；${r.errors.length}行有错误，${r.skippedTeams.length}支队伍未导入` : ''}`
        : `未导入：${r.errors.length}行有错误，请修改后重新导入`;
      return ok(r, message);
    },
  );
  // Every certificate of the school's teams in the competition, as one zip (a folder per team).
  app.get(
    '/api/school/coordinator/certificates/:competitionId',
    { config: { rule: USER }, schema: { tags, params: competitionParam, querystring: coordinatorTeamsQuery, response: fileReply } },
    async (req, reply) => {
      const { fileName, rows } = await service.certificates(userCtx(req), req.params.competitionId, req.query.schoolId);
      const entries = rows.map((r) => ({
        name: `${zipSegment(`${r.teamNo}-${r.teamName}`)}/${zipSegment(`${r.holderName}-${r.awardName}-证书${r.certNo}.pdf`)}`,
        open: () => req.ctx.storage.get(r.fileKey),
      }));
      return sendZip(req, reply, fileName, entries, async () => undefined);
    },
  );
  app.post(
    '/api/school/coordinator/audit/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: registerFlowBody, response: noDataReply } },
    async (req) => {
      await service.audit(userCtx(req), req.params.id, req.body.action, req.body.reason);
      return ok(null, req.body.action === 'approve' ? '学校审核已通过' : '已驳回');
    },
  );

  // 统一缴费: one order for many of the school's teams, paid online or by transfer, and one invoice of it.
  app.get(
    '/api/school/coordinator/orders/:competitionId',
    { config: { rule: USER }, schema: { tags, params: competitionParam, querystring: coordinatorTeamsQuery, response: replies(z.array(schoolOrderSchema)) } },
    async (req) => ok(await service.schoolOrders(userCtx(req), req.params.competitionId, req.query.schoolId)),
  );
  app.post(
    '/api/school/coordinator/order/:competitionId',
    {
      config: { rule: USER },
      schema: { tags, params: competitionParam, querystring: coordinatorTeamsQuery, body: schoolOrderBody, response: replies(createdIdSchema) },
    },
    async (req) => ok(await service.openSchoolOrder(userCtx(req), req.params.competitionId, req.query.schoolId, req.body.teamIds), '统一缴费订单已创建'),
  );
  app.put('/api/school/coordinator/order/close/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.closeSchoolOrder(userCtx(req), req.params.id);
    return ok(null, '订单已关闭，所含队伍的订单可由队伍自行支付');
  });
  app.put(
    '/api/school/coordinator/order/voucher/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: voucherBody, response: noDataReply } },
    async (req) => {
      await service.schoolVoucher(userCtx(req), req.params.id, req.body);
      return ok(null, '转账凭证已提交，请等待财务确认');
    },
  );
  app.post(
    '/api/school/coordinator/order/pay/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: payBody, response: replies(payResultSchema) } },
    async (req) => ok(await service.paySchoolOrder(userCtx(req), req.params.id, req.body.method, publicOrigin(req.ctx.config, req))),
  );
  app.post(
    '/api/school/coordinator/order/invoice/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: schoolInvoiceBody, response: replies(createdIdSchema) } },
    async (req) => ok(await service.schoolInvoice(userCtx(req), req.params.id, req.body), '发票申请已提交'),
  );
}
