import { z } from 'zod';
import { EMAIL_MESSAGE, isValidEmail } from '../account.ts';
import { pageQuery } from './common.ts';
import { requiredText, text } from './fields.ts';

// ---- Organisations and partner applications ----------------------------------------------------------------

export const ORG_KINDS = { school: '学校', company: '企业' } as const;
export type OrgKind = keyof typeof ORG_KINDS;
const orgKind = z.enum(['school', 'company'], { error: '机构类型须为学校或企业' });

/** Landlines are allowed, so a contact phone is checked loosely: digits with the usual separators. */
const phoneText = z
  .string()
  .trim()
  .max(30, '联系电话不能超过30个字符')
  .regex(/^\+?[\d\s()-]{5,}$/, '联系电话格式不正确');
const requiredPhone = z.string({ error: '请输入联系电话' }).trim().min(1, '请输入联系电话').pipe(phoneText);
const optionalPhone = z.preprocess((v) => (typeof v === 'string' ? v.trim() || null : v), phoneText.nullable().optional());
const contactEmail = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || null : v),
  z.string().max(254).refine(isValidEmail, EMAIL_MESSAGE).nullable().optional(),
);

export const organisationBody = z.strictObject({
  name: requiredText(200, '机构名称'),
  kind: orgKind,
  contactName: text(50, '联系人'),
  contactPhone: optionalPhone,
  contactEmail,
});
export type OrganisationBody = z.infer<typeof organisationBody>;
export const organisationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(['school', 'company']),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  memberNum: z.number().int(),
  competitionNum: z.number().int(),
  createdAt: z.string(),
});
export type Organisation = z.infer<typeof organisationSchema>;

export const partnerApplyBody = organisationBody.extend({
  contactName: requiredText(50, '联系人'),
  contactPhone: requiredPhone,
  description: text(1000, '申请说明'),
});
export type PartnerApplyBody = z.infer<typeof partnerApplyBody>;
export const PARTNER_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export const partnerApplicationSchema = z.object({
  id: z.number().int(),
  orgName: z.string(),
  kind: z.enum(['school', 'company']),
  contactName: z.string(),
  contactPhone: z.string(),
  contactEmail: z.string().nullable(),
  description: z.string().nullable(),
  applicantId: z.number().int(),
  applicantName: z.string(),
  status: z.number().int(),
  reason: z.string().nullable(),
  orgId: z.number().int().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type PartnerApplication = z.infer<typeof partnerApplicationSchema>;
export const partnerAuditBody = z.strictObject({
  approve: z.boolean({ error: '请选择通过或驳回' }),
  reason: text(500, '原因'),
});
export const partnerListQuery = pageQuery.extend({ status: z.coerce.number().int().min(0).max(2).optional() });
