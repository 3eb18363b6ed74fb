import { z } from 'zod';
import { EMAIL_MESSAGE, isValidEmail } from '../account.ts';
import { selectedIds } from './batch.ts';
import { pageQuery } from './common.ts';
import { isoTime, requiredFileUri, requiredText, text } from './fields.ts';

export const INVOICE_TYPES = { normal: '增值税普通发票', special: '增值税专用发票' } as const;
export type InvoiceType = keyof typeof INVOICE_TYPES;
export const TITLE_KINDS = { personal: '个人', company: '单位' } as const;
export type TitleKind = keyof typeof TITLE_KINDS;

/** Unified social credit code (GB 32100-2015): 18 characters without I, O, Z, S, V. */
export const TAX_NO = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;
export const TAX_NO_MESSAGE = '纳税人识别号须为18位统一社会信用代码';

export const invoiceTitleBody = z
  .strictObject({
    kind: z.enum(['personal', 'company'], { error: '请选择抬头类型' }),
    name: requiredText(200, '发票抬头'),
    taxNo: z.preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() || null : v), z.string().regex(TAX_NO, TAX_NO_MESSAGE).nullable().optional()),
    bank: text(100, '开户银行'),
    bankAccount: z.preprocess(
      (v) => (typeof v === 'string' ? v.replace(/\s/g, '') || null : v),
      z
        .string()
        .regex(/^\d{6,30}$/, '银行账号须为6至30位数字')
        .nullable()
        .optional(),
    ),
    address: text(200, '注册地址'),
    phone: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || null : v),
      z
        .string()
        .regex(/^\+?[\d\s()-]{5,30}$/, '注册电话格式不正确')
        .nullable()
        .optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'company' && !v.taxNo) ctx.addIssue({ code: 'custom', path: ['taxNo'], message: '单位抬头须填写纳税人识别号' });
  });
export type InvoiceTitleBody = z.infer<typeof invoiceTitleBody>;

/** A title as replies carry it (response schemas: what a route may send; see `envelope` in common.ts). */
const titleFields = {
  kind: z.enum(['personal', 'company']),
  name: z.string(),
  taxNo: z.string().nullish(),
  bank: z.string().nullish(),
  bankAccount: z.string().nullish(),
  address: z.string().nullish(),
  phone: z.string().nullish(),
};
export const invoiceTitleSchema = z.object({ id: z.number().int(), ...titleFields, createdAt: z.string() });
export type InvoiceTitle = z.infer<typeof invoiceTitleSchema>;

export const invoiceApplyBody = z.strictObject({
  orderId: z.number({ error: '请选择订单' }).int().positive(),
  titleId: z.number({ error: '请选择发票抬头' }).int().positive(),
  type: z.enum(['normal', 'special'], { error: '请选择发票类型' }),
  email: z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), z.string().max(254).refine(isValidEmail, EMAIL_MESSAGE).nullable().optional()),
});
export type InvoiceApplyBody = z.infer<typeof invoiceApplyBody>;
/** A school's coordinator applies for one invoice of its 统一缴费 order: the same fields without the order. */
export const schoolInvoiceBody = invoiceApplyBody.omit({ orderId: true });
export type SchoolInvoiceBody = z.infer<typeof schoolInvoiceBody>;

export const INVOICE_STATUS = { pending: 0, issued: 1, rejected: 2 } as const;
export const INVOICE_STATUS_TEXT: Record<number, string> = { 0: '待开票', 1: '已开票', 2: '已驳回' };

export const invoiceSchema = z.object({
  id: z.number().int(),
  /** The team's order invoiced; null for a school's 统一缴费 invoice, which names its school order instead. */
  orderId: z.number().int().nullable(),
  schoolOrderId: z.number().int().nullable(),
  /** The order's number (a school order's starts with S). */
  orderNo: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  teamName: z.string(),
  userId: z.number().int(),
  username: z.string(),
  amount: z.number().int(),
  type: z.enum(['normal', 'special']),
  title: z.object(titleFields),
  email: z.string().nullable(),
  status: z.number().int(),
  invoiceNo: z.string().nullable(),
  fileUri: z.string().nullable(),
  reason: z.string().nullable(),
  issuedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceListQuery = pageQuery.extend({
  competitionId: z.coerce.number().int().positive().optional(),
  status: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(2).optional()),
  keyword: z.string().trim().max(100).optional(),
  /** Only these applications (comma-separated ids), e.g. to export a selection. */
  ids: selectedIds('发票申请编号格式不正确'),
  export: z.enum(['xlsx']).optional(),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

export const invoiceIssueBody = z.strictObject({
  invoiceNo: requiredText(50, '发票号码'),
  fileUri: requiredFileUri('请上传电子发票'),
});
export const invoiceRejectBody = z.strictObject({ reason: requiredText(500, '驳回原因') });

export const invoiceConfigBody = z
  .strictObject({
    enable: z.boolean(),
    issuerName: requiredText(200, '开票单位'),
    issuerTaxNo: z.string({ error: '请输入开票单位纳税人识别号' }).trim().toUpperCase().regex(TAX_NO, TAX_NO_MESSAGE),
    allowedTypes: z.array(z.enum(['normal', 'special'])).min(1, '请至少选择一种发票类型'),
    applyStart: isoTime.nullable().optional(),
    applyEnd: isoTime.nullable().optional(),
    notice: text(1000, '开票说明'),
  })
  .superRefine((v, ctx) => {
    if (v.applyStart && v.applyEnd && v.applyEnd <= v.applyStart) ctx.addIssue({ code: 'custom', path: ['applyEnd'], message: '申请截止时间须晚于开始时间' });
  });
export type InvoiceConfigBody = z.infer<typeof invoiceConfigBody>;
export const invoiceConfigSchema = z.object({
  enable: z.boolean(),
  issuerName: z.string(),
  issuerTaxNo: z.string(),
  allowedTypes: z.array(z.enum(['normal', 'special'])),
  applyStart: z.string().nullish(),
  applyEnd: z.string().nullish(),
  notice: z.string().nullish(),
  updatedAt: z.string().nullable(),
});
export type InvoiceConfig = z.infer<typeof invoiceConfigSchema>;
/** What a participant sees of the configuration: everything but the issuer's tax number. */
export const invoicePublicConfigSchema = invoiceConfigSchema.omit({ issuerTaxNo: true });
