import { z } from 'zod';
import { selectedIds } from './batch.ts';
import { pageQuery } from './common.ts';
import { text } from './fields.ts';
import { PAY_STATUS } from './orders.ts';

export const REGISTER_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export const REGISTER_STATUS_TEXT: Record<number, string> = { 0: '待审核', 1: '审核通过', 2: '审核驳回' };
/** The school's level of 两级审核 (issue 36): its coordinator (院校负责人) reviews first. */
export const SCHOOL_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export const SCHOOL_STATUS_TEXT: Record<number, string> = { 0: '待学校审核', 1: '学校已通过', 2: '学校已驳回' };
export const SCHOOL_FIRST_TEXT = '该报名须先经学校（院校负责人）审核通过';

export const registerFlowSchema = z.object({
  id: z.number().int(),
  action: z.enum(['submit', 'resubmit', 'approve', 'reject', 'schoolApprove', 'schoolReject']),
  actorName: z.string(),
  fromStatus: z.number().int().nullable(),
  toStatus: z.number().int(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type RegisterFlow = z.infer<typeof registerFlowSchema>;

/** A registration's attachment: a private file of the registrant's. */
export const attachmentSchema = z.object({ fileUri: z.string(), name: z.string(), size: z.number().int() });

export const registerSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  individual: z.boolean(),
  /** The school the team is counted under (its leader's) and its group (issue 36). */
  schoolName: z.string().nullish(),
  groupName: z.string().nullish(),
  userId: z.number().int(),
  username: z.string(),
  status: z.number().int(),
  reason: z.string().nullable(),
  /** 两级审核 (issue 36): null without a school level; else `SCHOOL_STATUS`, and the school's reason when it refused. */
  schoolStatus: z.number().int().nullish(),
  schoolReason: z.string().nullish(),
  orderId: z.number().int().nullable(),
  payStatus: z.number().int().nullable(),
  memberNum: z.number().int(),
  attachments: z.array(attachmentSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Register = z.infer<typeof registerSchema>;

/** A registration without a fee, or whose order is paid: one a batch approves (an unpaid one is approved alone, warned). */
export const paidOrFree = (r: Pick<Register, 'orderId' | 'payStatus'>) => r.orderId === null || r.payStatus === PAY_STATUS.paid;

/** `GET /api/team/register/item/{competitionId}`: the caller's registration with its history. */
export const myRegisterSchema = registerSchema.extend({ flows: z.array(registerFlowSchema) });
/** `GET /api/team/register/{competitionId}/attachments`: each attachment with the registration and team it came with. */
export const registerAttachmentSchema = attachmentSchema.extend({
  registerId: z.number().int(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
});

export const registerFlowBody = z
  .strictObject({
    action: z.enum(['approve', 'reject'], { error: '请选择通过或驳回' }),
    reason: text(500, '驳回原因'),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'reject' && !v.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: '请填写驳回原因' });
  });

export const registerListQuery = pageQuery.extend({
  competitionId: z.coerce.number().int().positive().optional(),
  status: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(2).optional()),
  keyword: z.string().trim().max(100).optional(),
  /** Only these registrations (comma-separated ids), e.g. to export a selection. */
  ids: selectedIds('报名编号格式不正确'),
  export: z.enum(['xlsx']).optional(),
});
export type RegisterListQuery = z.infer<typeof registerListQuery>;

export const attachmentsQuery = z.object({ teamId: z.coerce.number().int().positive().optional() });
