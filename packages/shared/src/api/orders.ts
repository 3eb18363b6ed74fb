import { z } from 'zod';
import { selectedIds } from './batch.ts';
import { pageQuery } from './common.ts';
import { requiredFileUri, requiredText } from './fields.ts';

export const PAY_STATUS = { unpaid: 0, paid: 1, closed: 2, refunded: 3 } as const;
export const PAY_STATUS_TEXT: Record<number, string> = { 0: '待支付', 1: '已支付', 2: '已关闭', 3: '已退款' };
export const PAY_METHOD_TEXT: Record<number, string> = { 1: '微信支付', 2: '支付宝', 3: '集体缴费', 4: '工商银行转账', 5: '建设银行转账', 6: '其他方式' };

export const orderSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  /** The team's school and group (issue 36). */
  schoolName: z.string().nullish(),
  groupName: z.string().nullish(),
  userId: z.number().int(),
  username: z.string(),
  /** Fen. */
  amount: z.number().int(),
  payStatus: z.number().int(),
  payMethod: z.number().int().nullable(),
  tradeNo: z.string().nullable(),
  payerOrg: z.string().nullable(),
  voucher: z.string().nullable(),
  paidAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  refundReason: z.string().nullable(),
  /** A notification arrived for this order after it was closed: money to give back. */
  refundFlag: z.boolean(),
  /** Paid (or free): the team may see the competition's paid content. */
  competitionVisible: z.boolean(),
  /** The competition lets paying teams apply for an invoice of its fee. */
  invoiceEnable: z.boolean(),
  /** The school's 统一缴费 order paying for it, if any: then the team neither pays, closes nor invoices it. */
  schoolOrderNo: z.string().nullable(),
  createdAt: z.string(),
});
export type Order = z.infer<typeof orderSchema>;

/** A team order that is part of a school's 统一缴费 order moves only with it. */
export const schoolPaysText = (schoolOrderNo: string) => `该订单已由学校统一缴费（订单号 ${schoolOrderNo}），请等待学校院校负责人支付`;

/** A school's 统一缴费 order (issue 36): one payment for many of its teams' orders, and one invoice. */
export const schoolOrderSchema = z.object({
  id: z.number().int(),
  /** Starts with S: what the gateway or the transfer's note names. */
  orderNo: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  schoolId: z.number().int(),
  schoolName: z.string(),
  userId: z.number().int(),
  username: z.string(),
  /** Fen: the sum of its teams' orders. */
  amount: z.number().int(),
  teamCount: z.number().int(),
  payStatus: z.number().int(),
  payMethod: z.number().int().nullable(),
  tradeNo: z.string().nullable(),
  voucher: z.string().nullable(),
  paidAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  refundReason: z.string().nullable(),
  refundFlag: z.boolean(),
  invoiceEnable: z.boolean(),
  /** INVOICE_STATUS of its invoice application, if one is pending or issued. */
  invoiceStatus: z.number().int().nullable(),
  /** Each team's own order in it: PAY_STATUS (a team refunded alone, e.g. refused after its school paid, reads 3). */
  teams: z.array(
    z.object({
      teamId: z.number().int(),
      teamNo: z.string(),
      teamName: z.string(),
      orderNo: z.string(),
      amount: z.number().int(),
      payStatus: z.number().int(),
    }),
  ),
  createdAt: z.string(),
});
export type SchoolOrder = z.infer<typeof schoolOrderSchema>;

/** Finance's list of school orders. */
export const schoolOrderListQuery = pageQuery.extend({
  competitionId: z.coerce.number().int().positive().optional(),
  payStatus: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(3).optional()),
  keyword: z.string().trim().max(100).optional(),
});
export type SchoolOrderListQuery = z.infer<typeof schoolOrderListQuery>;

/** `PUT /api/order/batch/payment`: the orders marked paid, and those skipped as not waiting for payment. */
export const batchPaymentResultSchema = z.object({ paid: z.array(z.number().int()), skipped: z.array(z.number().int()) });

export const orderListQuery = pageQuery.extend({
  competitionId: z.coerce.number().int().positive().optional(),
  payStatus: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(3).optional()),
  payMethod: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(6).optional()),
  /** `1`: only transfers waiting for finance to confirm (unpaid, voucher uploaded). */
  waiting: z.enum(['1']).optional(),
  keyword: z.string().trim().max(100).optional(),
  /** Only these orders (comma-separated ids), e.g. to export a selection. */
  ids: selectedIds('订单编号格式不正确'),
  export: z.enum(['xlsx']).optional(),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

export const batchPaymentBody = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1, '请选择订单').max(500, '一次最多500个订单'),
  payerOrg: requiredText(200, '缴费单位'),
  voucher: requiredFileUri('请上传缴费凭证'),
});
export const refundBody = z.strictObject({ reason: requiredText(500, '退款原因') });
export const voucherBody = z.strictObject({
  payMethod: z.union([z.literal(4), z.literal(5), z.literal(6)], { error: '请选择转账方式' }),
  voucher: requiredFileUri('请上传转账凭证'),
});
export type VoucherBody = z.infer<typeof voucherBody>;
