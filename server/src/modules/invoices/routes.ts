import {
  ACTION_CODES,
  ADMIN_MENU_CODES,
  batchResultText,
  invoiceRejectBatchBody,
  INVOICE_STATUS_TEXT,
  INVOICE_TYPES,
  TITLE_KINDS,
  fenToYuan,
  idParam,
  invoiceApplyBody,
  invoiceConfigBody,
  invoiceIssueBody,
  invoiceListQuery,
  invoiceRejectBody,
  invoiceTitleBody,
  batchResultSchema,
  createdIdSchema,
  invoiceConfigSchema,
  invoicePublicConfigSchema,
  invoiceSchema,
  invoiceTitleSchema,
  pageOf,
  type Invoice,
} from '@contest/shared';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { noDataReply, ok, page, replies } from '../../http/reply.ts';
import { beijingTime, streamXlsx, type Column } from '../../http/xlsx.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const EXPORT_COLUMNS: Column<Invoice>[] = [
  { header: '订单号', value: (i) => i.orderNo, width: 24 },
  { header: '竞赛', value: (i) => i.competitionName, width: 30 },
  { header: '队伍', value: (i) => i.teamName, width: 20 },
  { header: '申请人', value: (i) => i.username },
  { header: '金额（元）', value: (i) => fenToYuan(i.amount) },
  { header: '发票类型', value: (i) => INVOICE_TYPES[i.type], width: 18 },
  { header: '抬头类型', value: (i) => TITLE_KINDS[i.title.kind] },
  { header: '发票抬头', value: (i) => i.title.name, width: 30 },
  { header: '纳税人识别号', value: (i) => i.title.taxNo ?? null, width: 22 },
  { header: '接收邮箱', value: (i) => i.email, width: 24 },
  { header: '状态', value: (i) => INVOICE_STATUS_TEXT[i.status] ?? '' },
  { header: '发票号码', value: (i) => i.invoiceNo, width: 20 },
  { header: '申请时间', value: (i) => beijingTime(i.createdAt), width: 20 },
];

export function invoiceRoutes(app: App) {
  const tags = ['invoice'];

  // Each user's invoice titles.
  app.get('/api/invoice/title/list', { config: { rule: USER }, schema: { tags, response: replies(z.array(invoiceTitleSchema)) } }, async (req) =>
    ok(await service.listTitles(userCtx(req))),
  );
  app.post('/api/invoice/title', { config: { rule: USER }, schema: { tags, body: invoiceTitleBody, response: replies(createdIdSchema) } }, async (req) =>
    ok(await service.createTitle(userCtx(req), req.body), '发票抬头已保存'),
  );
  app.put(
    '/api/invoice/title/:id',
    { config: { rule: USER }, schema: { tags, params: idParam, body: invoiceTitleBody, response: noDataReply } },
    async (req) => {
      await service.updateTitle(userCtx(req), req.params.id, req.body);
      return ok(null, '发票抬头已保存');
    },
  );
  app.delete('/api/invoice/title/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.deleteTitle(userCtx(req), req.params.id);
    return ok(null, '发票抬头已删除');
  });

  // Applications.
  app.get('/api/invoice/config/public', { config: { rule: USER }, schema: { tags, response: replies(invoicePublicConfigSchema) } }, async (req) => {
    const { issuerTaxNo: _t, ...config } = await service.readConfig(req.ctx);
    return ok(config);
  });
  app.post('/api/invoice/apply', { config: { rule: USER }, schema: { tags, body: invoiceApplyBody, response: replies(createdIdSchema) } }, async (req) =>
    ok(await service.apply(userCtx(req), req.body), '发票申请已提交'),
  );
  app.get(
    '/api/invoice/person/page',
    { config: { rule: USER }, schema: { tags, querystring: invoiceListQuery, response: replies(pageOf(invoiceSchema)) } },
    async (req) => {
      const { list, total } = await service.listPerson(userCtx(req), req.query);
      return page(list, total, req.query);
    },
  );

  // Finance.
  app.get(
    '/api/invoice/list',
    { config: { rule: perm(ADMIN_MENU_CODES.invoice) }, schema: { tags, querystring: invoiceListQuery, response: replies(pageOf(invoiceSchema)) } },
    async (req, reply) => {
      if (req.query.export) return streamXlsx(reply, '发票列表.xlsx', '发票', EXPORT_COLUMNS, service.exportManage(userCtx(req), req.query));
      const { list, total } = await service.listManage(userCtx(req), req.query);
      return page(list, total, req.query);
    },
  );
  app.put(
    '/api/invoice/issue/:id',
    { config: { rule: perm(ACTION_CODES.invoiceEdit) }, schema: { tags, params: idParam, body: invoiceIssueBody, response: noDataReply } },
    async (req) => {
      await service.issue(req.ctx, req.params.id, req.body);
      return ok(null, '发票已开具');
    },
  );
  app.put(
    '/api/invoice/reject/batch',
    { config: { rule: perm(ACTION_CODES.invoiceEdit) }, schema: { tags, body: invoiceRejectBatchBody, response: replies(batchResultSchema) } },
    async (req) => {
      const result = await service.rejectBatch(userCtx(req), req.body);
      return ok(result, batchResultText('驳回', result));
    },
  );
  app.put(
    '/api/invoice/reject/:id',
    { config: { rule: perm(ACTION_CODES.invoiceEdit) }, schema: { tags, params: idParam, body: invoiceRejectBody, response: noDataReply } },
    async (req) => {
      await service.reject(req.ctx, req.params.id, req.body.reason);
      return ok(null, '已驳回发票申请');
    },
  );
  app.get(
    '/api/invoice/config',
    { config: { rule: perm(ADMIN_MENU_CODES.invoiceConfig) }, schema: { tags, response: replies(invoiceConfigSchema) } },
    async (req) => ok(await service.readConfig(req.ctx)),
  );
  app.put(
    '/api/invoice/config',
    { config: { rule: perm(ACTION_CODES.invoiceConfigEdit) }, schema: { tags, body: invoiceConfigBody, response: noDataReply } },
    async (req) => {
      await service.saveConfig(userCtx(req), req.body);
      return ok(null, '发票配置已保存');
    },
  );
}
