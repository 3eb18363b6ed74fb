import { z } from 'zod';
import { EMAIL_MESSAGE, isValidEmail } from '../account.ts';
import { isCityOf, isProvince } from '../regions.ts';
import { isValidPhone, validateIdCard } from '../validation/index.ts';
import type { PresetField, RegFieldName } from './catalogue.ts';
import { selectedIds } from './batch.ts';
import { pageQuery } from './common.ts';
import { requiredFileUri, requiredText, text } from './fields.ts';

// ---- Registration form (REG_SET preset) -----------------------------------------------------------------------

/** What a member filled in; `idCardNo` is only ever sent back masked. */
export type RegistrationInfo = {
  userName?: string | null;
  idCardNo?: string | null;
  tel?: string | null;
  email?: string | null;
  sex?: 0 | 1 | null;
  atSchool?: boolean | null;
  organization?: string | null;
  department?: string | null;
  speciality?: string | null;
  grade?: string | null;
  province?: string | null;
  city?: string | null;
  address?: string | null;
};

const blankToNull = (v: unknown) => (typeof v === 'string' ? v.trim() || null : v === undefined ? null : v);
const present = (v: unknown) => v !== null && v !== undefined && v !== '';

function fieldSchema(name: Exclude<RegFieldName, 'region'>, label: string, required: boolean, today: Date): z.ZodType {
  const need = `请填写${label}`;
  const checked = (inner: z.ZodType) =>
    z.preprocess(blankToNull, required ? inner.nullable().refine(present, need) : inner.nullable());
  switch (name) {
    case 'idCardNo':
      return z.preprocess(
        blankToNull,
        z
          .string()
          .nullable()
          .superRefine((v, ctx) => {
            if (v === null && !required) return;
            const message = validateIdCard(v, today);
            if (message) ctx.addIssue({ code: 'custom', message });
          })
          .transform((v) => v?.toUpperCase() ?? null),
      );
    case 'tel':
      return checked(z.string().refine(isValidPhone, '手机号格式不正确'));
    case 'email':
      return checked(z.string().max(254).refine(isValidEmail, EMAIL_MESSAGE));
    case 'sex':
      return z.preprocess((v) => (v === undefined || v === '' ? null : v), required
        ? z.union([z.literal(0), z.literal(1)], { error: '请选择性别' })
        : z.union([z.literal(0), z.literal(1)], { error: '性别须为0（男）或1（女）' }).nullable());
    case 'atSchool':
      return z.preprocess((v) => (v === undefined || v === '' ? null : v), required
        ? z.boolean({ error: '请选择是否在校' })
        : z.boolean({ error: '是否在校须为是或否' }).nullable());
    case 'address':
      return checked(z.string().max(200, `${label}不能超过200个字符`));
    case 'userName':
      return checked(z.string().max(50, `${label}不能超过50个字符`));
    default:
      return checked(z.string().max(100, `${label}不能超过100个字符`));
  }
}

/**
 * The schema of a registration form built from the competition's REG_SET field list: only the chosen fields are
 * kept, required ones must be filled, each is checked by the shared validators (spec §5 messages for ID numbers).
 * `region` stands for the two keys `province` and `city`, which must name a GB/T 2260 province and one of its cities.
 */
export function registrationFormSchema(fields: readonly PresetField[], today: Date = new Date()) {
  const shape: Record<string, z.ZodType> = {};
  let region: PresetField | undefined;
  for (const f of fields) {
    if (f.name === 'region') region = f;
    else shape[f.name] = fieldSchema(f.name, f.label, f.otherParams.required, today);
  }
  if (region) {
    shape.province = z.preprocess(blankToNull, z.string().nullable());
    shape.city = z.preprocess(blankToNull, z.string().nullable());
  }
  const required = region?.otherParams.required ?? false;
  return z.object(shape).superRefine((v, ctx) => {
    if (!region) return;
    const province = v.province as string | null;
    const city = v.city as string | null;
    if (!province && !city && !required) return;
    if (!province || !isProvince(province)) ctx.addIssue({ code: 'custom', path: ['province'], message: '请选择所在省份' });
    else if (!city || !isCityOf(province, city)) ctx.addIssue({ code: 'custom', path: ['city'], message: '请选择所在城市' });
  }) as z.ZodType<RegistrationInfo>;
}

// ---- Teams ---------------------------------------------------------------------------------------------------

export interface TeamMember {
  userId: number;
  username: string;
  /** Display name: the form's name if given, else the account name. */
  name: string;
  leader: boolean;
  info: RegistrationInfo;
  createdAt: string;
}

export const teacherBody = z.strictObject({
  name: requiredText(50, '老师姓名'),
  phone: z.preprocess(blankToNull, z.string().refine(isValidPhone, '老师手机号格式不正确').nullable()),
  organization: text(100, '老师所在单位'),
  title: text(50, '老师职称'),
});
export type TeacherBody = z.infer<typeof teacherBody>;
export interface TeamTeacher extends TeacherBody {
  id: number;
}
export const updateTeacherBody = z.strictObject({ teacherList: z.array(teacherBody).max(10, '指导老师最多10人') });

export const INVITATION_STATUS = { pending: 0, agreed: 1, refused: 2, cancelled: 3 } as const;
export const INVITATION_STATUS_TEXT: Record<number, string> = { 0: '待回复', 1: '已同意', 2: '已拒绝', 3: '已撤回' };
export interface TeamInvitation {
  id: number;
  teamId: number;
  teamName: string;
  competitionId: number;
  competitionName: string;
  inviterName: string;
  /**
   * The invitee, in the invitee's own list. In the leader's list: null, and `inviteeName` is the username or phone
   * number the leader typed, since who owns an account is not told before they join.
   */
  inviteeId: number | null;
  inviteeName: string;
  status: number;
  createdAt: string;
}

export const REGISTER_STATUS = { pending: 0, approved: 1, rejected: 2 } as const;
export const REGISTER_STATUS_TEXT: Record<number, string> = { 0: '待审核', 1: '审核通过', 2: '审核驳回' };

export interface RegisterFlow {
  id: number;
  action: 'submit' | 'resubmit' | 'approve' | 'reject';
  actorName: string;
  fromStatus: number | null;
  toStatus: number;
  reason: string | null;
  createdAt: string;
}

export interface Register {
  id: number;
  competitionId: number;
  competitionName: string;
  teamId: number;
  teamNo: string;
  teamName: string;
  individual: boolean;
  userId: number;
  username: string;
  status: number;
  reason: string | null;
  orderId: number | null;
  payStatus: number | null;
  memberNum: number;
  attachments: { fileUri: string; name: string; size: number }[];
  createdAt: string;
  updatedAt: string;
}

export interface Team {
  id: number;
  competitionId: number;
  teamNo: string;
  name: string;
  individual: boolean;
  leaderId: number;
  memberList: TeamMember[];
  teacherList: TeamTeacher[];
  choiceQuestionList: { questionId: number; title: string }[];
  /** Only the leader sees the pending invitations and the join code. */
  invitationList: TeamInvitation[];
  joinCode: string | null;
  register: Register | null;
  /** Team rules of the competition, so the page can show the seats left. */
  minMembers: number;
  maxMembers: number;
  maxTeachers: number;
  /** Team changes lock once the registration window has closed. */
  locked: boolean;
  createdAt: string;
}

/**
 * Why the team cannot choose a question yet, or null: its registration must be approved and, for a competition with a
 * fee, paid. The server refuses with this sentence and the site's choice tab shows it on the disabled button.
 */
export function choiceRefusal(register: { status: number; payStatus: number | null } | null | undefined, fee: number): string | null {
  if (register?.status !== REGISTER_STATUS.approved) return '报名审核通过后才能选题';
  if (fee > 0 && register.payStatus !== PAY_STATUS.paid) return '请先完成缴费再选题';
  return null;
}

const attachmentList = z.array(z.string().max(200).regex(/^[a-z0-9-]+\/[0-9a-f-]+$/, '附件无效，请重新上传')).max(5, '附件最多5个').default([]);

/** `POST /api/team/register/{competitionId}`: the registrant's own form plus the team (or individual entry). */
export const teamRegisterBody = z.strictObject({
  individual: z.boolean().default(false),
  teamName: text(50, '队伍名称'),
  info: z.record(z.string(), z.unknown()).default({}),
  attachments: attachmentList,
});
export type TeamRegisterBody = z.infer<typeof teamRegisterBody>;

/** `PUT /api/team/update/{id}`: the leader renames the team, corrects the form or the attachments. */
export const teamUpdateBody = z.strictObject({
  teamName: text(50, '队伍名称'),
  info: z.record(z.string(), z.unknown()).optional(),
  attachments: attachmentList.optional(),
});
export type TeamUpdateBody = z.infer<typeof teamUpdateBody>;

export const invitationBody = z.strictObject({
  teamId: z.number({ error: '请选择队伍' }).int().positive(),
  /** Username or phone number of the person invited. */
  account: requiredText(64, '被邀请人的用户名或手机号'),
});

/** `POST /api/team/member/agree/{teamId}`: by a pending invitation, or by the team's join code from the link. */
export const agreeQuery = z.object({ code: z.string().trim().max(64).optional() });
export const agreeBody = z.strictObject({ info: z.record(z.string(), z.unknown()).default({}) }).default({ info: {} });

export const batchUpdateMemberBody = z.strictObject({
  teamId: z.number({ error: '请选择队伍' }).int().positive(),
  memberList: z
    .array(z.strictObject({ userId: z.number().int().positive(), info: z.record(z.string(), z.unknown()) }))
    .min(1, '请至少修改一名队员')
    .max(20),
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

// ---- Orders --------------------------------------------------------------------------------------------------

export const PAY_STATUS = { unpaid: 0, paid: 1, closed: 2, refunded: 3 } as const;
export const PAY_STATUS_TEXT: Record<number, string> = { 0: '待支付', 1: '已支付', 2: '已关闭', 3: '已退款' };
export const PAY_METHOD_TEXT: Record<number, string> = { 1: '微信支付', 2: '支付宝', 3: '集体缴费', 4: '工商银行转账', 5: '建设银行转账', 6: '其他方式' };

export interface Order {
  id: number;
  orderNo: string;
  competitionId: number;
  competitionName: string;
  teamId: number;
  teamNo: string;
  teamName: string;
  userId: number;
  username: string;
  /** Fen. */
  amount: number;
  payStatus: number;
  payMethod: number | null;
  tradeNo: string | null;
  payerOrg: string | null;
  voucher: string | null;
  paidAt: string | null;
  closedAt: string | null;
  refundedAt: string | null;
  refundReason: string | null;
  /** A notification arrived for this order after it was closed: money to give back. */
  refundFlag: boolean;
  /** Paid (or free): the team may see the competition's paid content. */
  competitionVisible: boolean;
  createdAt: string;
}

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
