import {
  ADMIN_MENU_CODES,
  PAY_METHOD_TEXT,
  PAY_STATUS_TEXT,
  batchPaymentBody,
  batchPaymentResultSchema,
  batchResultSchema,
  batchResultText,
  createdIdSchema,
  fenToYuan,
  idParam,
  orderConfirmBatchBody,
  orderListQuery,
  orderSchema,
  pageOf,
  refundBody,
  schoolOrderListQuery,
  schoolOrderSchema,
  voucherBody,
  type Order,
} from '@contest/shared';
import { z } from 'zod';
import { USER, perm } from '../../http/access.ts';
import type { App } from '../../http/app-types.ts';
import { noDataReply, ok, page, replies } from '../../http/reply.ts';
import { beijingTime, streamXlsx, type Column } from '../../http/xlsx.ts';
import { withoutOrg } from '../../http/reply.ts';
import * as service from './service.ts';
import { userCtx } from '../../http/auth.ts';

const MENU = perm(ADMIN_MENU_CODES.order);
const EDIT = perm(service.FINANCE_EDIT);

const EXPORT_COLUMNS: Column<Order>[] = [
  { header: '订单号', value: (o) => o.orderNo, width: 24 },
  { header: '竞赛', value: (o) => o.competitionName, width: 30 },
  { header: '队伍编号', value: (o) => o.teamNo },
  { header: '队伍名称', value: (o) => o.teamName, width: 24 },
  { header: '下单人', value: (o) => o.username },
  { header: '金额（元）', value: (o) => fenToYuan(o.amount) },
  { header: '状态', value: (o) => PAY_STATUS_TEXT[o.payStatus] ?? '' },
  { header: '支付方式', value: (o) => (o.payMethod ? (PAY_METHOD_TEXT[o.payMethod] ?? '') : '') },
  { header: '缴费单位', value: (o) => o.payerOrg, width: 24 },
  { header: '交易号', value: (o) => o.tradeNo, width: 28 },
  { header: '下单时间', value: (o) => beijingTime(o.createdAt), width: 20 },
  { header: '支付时间', value: (o) => beijingTime(o.paidAt), width: 20 },
  { header: '退款原因', value: (o) => o.refundReason, width: 24 },
  { header: '学校', value: (o) => o.schoolName ?? '', width: 24 },
  { header: '组别', value: (o) => o.groupName ?? '' },
];

export function orderRoutes(app: App) {
  const tags = ['order'];

  app.get(
    '/api/order/person/page',
    { config: { rule: USER }, schema: { tags, querystring: orderListQuery, response: replies(pageOf(orderSchema)) } },
    async (req) => {
      const { list, total } = await service.listPerson(userCtx(req), req.query);
      return page(list.map(withoutOrg), total, req.query);
    },
  );
  app.get(
    '/api/order/list',
    { config: { rule: MENU }, schema: { tags, querystring: orderListQuery, response: replies(pageOf(orderSchema)) } },
    async (req, reply) => {
      if (req.query.export) return streamXlsx(reply, '订单列表.xlsx', '订单', EXPORT_COLUMNS, service.exportManage(userCtx(req), req.query));
      const { list, total } = await service.listManage(userCtx(req), req.query);
      return page(list.map(withoutOrg), total, req.query);
    },
  );
  app.put(
    '/api/order/batch/payment',
    { config: { rule: EDIT }, schema: { tags, body: batchPaymentBody, response: replies(batchPaymentResultSchema) } },
    async (req) => {
      const result = await service.batchPayment(userCtx(req), req.body);
      return ok(result, `已确认${result.paid.length}个订单缴费${result.skipped.length ? `，${result.skipped.length}个订单不是待支付状态，已跳过` : ''}`);
    },
  );
  app.get(
    '/api/order/getOrderByTeamNo/:teamNo',
    { config: { rule: USER }, schema: { tags, params: z.object({ teamNo: z.string().max(30) }), response: replies(orderSchema) } },
    async (req) => ok(withoutOrg(await service.byTeamNo(userCtx(req), req.params.teamNo))),
  );
  app.post('/api/order/team/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: replies(createdIdSchema) } }, async (req) =>
    ok(await service.reopen(userCtx(req), req.params.id), '订单已创建'),
  );
  app.put('/api/order/close/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.close(userCtx(req), req.params.id);
    return ok(null, '订单已关闭');
  });
  app.put('/api/order/voucher/:id', { config: { rule: USER }, schema: { tags, params: idParam, body: voucherBody, response: noDataReply } }, async (req) => {
    await service.submitVoucher(userCtx(req), req.params.id, req.body);
    return ok(null, '转账凭证已提交，请等待财务确认');
  });
  app.put(
    '/api/order/confirm/batch',
    { config: { rule: EDIT }, schema: { tags, body: orderConfirmBatchBody, response: replies(batchResultSchema) } },
    async (req) => {
      const result = await service.confirmBatch(userCtx(req), req.body);
      return ok(result, batchResultText('确认收款', result));
    },
  );
  app.put('/api/order/confirm/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.confirm(req.ctx, req.params.id);
    return ok(null, '已确认收款');
  });
  app.put('/api/order/refund/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, body: refundBody, response: noDataReply } }, async (req) => {
    await service.refund(req.ctx, req.params.id, req.body.reason);
    return ok(null, '已退款');
  });
  // 统一缴费: the schools' orders, each paying for many teams; finance confirms their transfers.
  app.get(
    '/api/order/school/list',
    { config: { rule: MENU }, schema: { tags, querystring: schoolOrderListQuery, response: replies(pageOf(schoolOrderSchema)) } },
    async (req) => {
      const { list, total } = await service.listSchoolOrders(userCtx(req), req.query);
      return page(list.map(withoutOrg), total, req.query);
    },
  );
  app.put('/api/order/school/confirm/:id', { config: { rule: EDIT }, schema: { tags, params: idParam, response: noDataReply } }, async (req) => {
    await service.confirmSchoolOrder(req.ctx, req.params.id);
    return ok(null, '已确认收款，所含队伍的订单均已支付');
  });
  app.put(
    '/api/order/school/refund/:id',
    { config: { rule: EDIT }, schema: { tags, params: idParam, body: refundBody, response: noDataReply } },
    async (req) => {
      await service.refundSchoolOrder(req.ctx, req.params.id, req.body.reason);
      return ok(null, '已退款，所含队伍的订单均已退款');
    },
  );
  app.get('/api/order/:id', { config: { rule: USER }, schema: { tags, params: idParam, response: replies(orderSchema) } }, async (req) =>
    ok(withoutOrg(await service.readOrder(userCtx(req), req.params.id))),
  );
}
