import { z } from 'zod';
import { EMAIL_MESSAGE, isValidEmail } from '../account.ts';
import { isCityOf, isProvince } from '../regions.ts';
import { isValidPhone, validateIdCard } from '../validation/index.ts';
import { CUSTOM_TEXT_MAX, isCustomField, presetFieldSchema, type PresetField, type RegFieldName } from './competitions.ts';
import { DEGREES } from '../eligibility.ts';
import { requiredText, text } from './fields.ts';
import { PAY_STATUS } from './orders.ts';
import { JUDGING } from './questions.ts';
import { REGISTER_STATUS, registerFlowSchema, registerSchema } from './registrations.ts';

// ---- Registration form (REG_SET preset) -----------------------------------------------------------------------

/** What a member filled in; `idCardNo` is only ever sent back masked. Only the fields the form asks for are kept. */
export const registrationInfoSchema = z.object({
  userName: z.string().nullish(),
  idCardNo: z.string().nullish(),
  tel: z.string().nullish(),
  email: z.string().nullish(),
  sex: z.literal([0, 1]).nullish(),
  atSchool: z.boolean().nullish(),
  organization: z.string().nullish(),
  /** The record of the platform's school list `organization` names (set by the server, issue 36), or none. */
  schoolId: z.number().int().nullish(),
  department: z.string().nullish(),
  speciality: z.string().nullish(),
  grade: z.string().nullish(),
  /** 学历 (eligibility.ts `DEGREES`): groups may follow the members' highest. */
  education: z.string().nullish(),
  province: z.string().nullish(),
  city: z.string().nullish(),
  address: z.string().nullish(),
  /** The answers to the organiser's own fields (`custom1`..`custom20`): text, the chosen option, or a file's URI. */
  extra: z.record(z.string(), z.string().nullable()).nullish(),
});
export type RegistrationInfo = z.infer<typeof registrationInfoSchema>;

const blankToNull = (v: unknown) => (typeof v === 'string' ? v.trim() || null : v === undefined ? null : v);
const present = (v: unknown) => v !== null && v !== undefined && v !== '';

function fieldSchema(name: Exclude<RegFieldName, 'region'>, label: string, required: boolean, today: Date): z.ZodType {
  const need = `请填写${label}`;
  const checked = (inner: z.ZodType) => z.preprocess(blankToNull, required ? inner.nullable().refine(present, need) : inner.nullable());
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
      return z.preprocess(
        (v) => (v === undefined || v === '' ? null : v),
        required
          ? z.union([z.literal(0), z.literal(1)], { error: '请选择性别' })
          : z.union([z.literal(0), z.literal(1)], { error: '性别须为0（男）或1（女）' }).nullable(),
      );
    case 'atSchool':
      return z.preprocess(
        (v) => (v === undefined || v === '' ? null : v),
        required ? z.boolean({ error: '请选择是否在校' }) : z.boolean({ error: '是否在校须为是或否' }).nullable(),
      );
    case 'education': {
      const inner = z.string().refine((v) => (DEGREES as readonly string[]).includes(v), `请从选项中选择${label}`);
      return z.preprocess(blankToNull, required ? inner.nullable().refine(present, `请选择${label}`) : inner.nullable());
    }
    case 'address':
      return checked(z.string().max(200, `${label}不能超过200个字符`));
    case 'userName':
      return checked(z.string().max(50, `${label}不能超过50个字符`));
    default:
      return checked(z.string().max(100, `${label}不能超过100个字符`));
  }
}

/** A registration file: the URI an upload answered (`attachment/<id>`). */
export const REG_FILE_URI = /^[a-z0-9-]+\/[0-9a-f-]+$/;

/** One of the organiser's own fields: a text up to 500 characters, one of the options, or an uploaded file. */
function customFieldSchema(f: PresetField): z.ZodType {
  const required = f.otherParams.required;
  const inner =
    f.type === 'choice'
      ? z.string().refine((v) => (f.options ?? []).includes(v), `请从选项中选择${f.label}`)
      : f.type === 'file'
        ? z.string().regex(REG_FILE_URI, `${f.label}无效，请重新上传`)
        : z.string().max(CUSTOM_TEXT_MAX, `${f.label}不能超过${CUSTOM_TEXT_MAX}个字符`);
  const need = f.type === 'choice' ? `请选择${f.label}` : f.type === 'file' ? `请上传${f.label}` : `请填写${f.label}`;
  return z.preprocess(blankToNull, required ? inner.nullable().refine(present, need) : inner.nullable());
}

/**
 * The schema of a registration form built from the competition's REG_SET field list: only the chosen fields are
 * kept, required ones must be filled, each is checked by the shared validators (spec §5 messages for ID numbers).
 * `region` stands for the two keys `province` and `city`, which must name a GB/T 2260 province and one of its cities.
 */
export function registrationFormSchema(fields: readonly PresetField[], today: Date = new Date()) {
  const shape: Record<string, z.ZodType> = {};
  const extra: Record<string, z.ZodType> = {};
  let region: PresetField | undefined;
  for (const f of fields) {
    if (isCustomField(f.name)) extra[f.name] = customFieldSchema(f);
    else if (f.name === 'region') region = f;
    else shape[f.name] = fieldSchema(f.name, f.label, f.otherParams.required, today);
  }
  if (Object.keys(extra).length) shape.extra = z.preprocess((v) => v ?? {}, z.object(extra, { error: '自定义字段格式不正确' }));
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

export const teamMemberSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  /** Display name: the form's name if given, else the account name. */
  name: z.string(),
  leader: z.boolean(),
  info: registrationInfoSchema,
  createdAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teacherBody = z.strictObject({
  name: requiredText(50, '老师姓名'),
  phone: z.preprocess(blankToNull, z.string().refine(isValidPhone, '老师手机号格式不正确').nullable()),
  organization: text(100, '老师所在单位'),
  title: text(50, '老师职称'),
});
export type TeacherBody = z.infer<typeof teacherBody>;
export const teamTeacherSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string().nullable(),
  organization: z.string().nullable(),
  title: z.string().nullable(),
});
export type TeamTeacher = z.infer<typeof teamTeacherSchema>;
export const updateTeacherBody = z.strictObject({ teacherList: z.array(teacherBody).max(10, '指导老师最多10人') });

export const INVITATION_STATUS = { pending: 0, agreed: 1, refused: 2, cancelled: 3 } as const;
export const INVITATION_STATUS_TEXT: Record<number, string> = { 0: '待回复', 1: '已同意', 2: '已拒绝', 3: '已撤回' };
export const teamInvitationSchema = z.object({
  id: z.number().int(),
  teamId: z.number().int(),
  teamName: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  inviterName: z.string(),
  /**
   * The invitee, in the invitee's own list. In the leader's list: null, and `inviteeName` is the username or phone
   * number the leader typed, since who owns an account is not told before they join.
   */
  inviteeId: z.number().int().nullable(),
  inviteeName: z.string(),
  status: z.number().int(),
  createdAt: z.string(),
});
export type TeamInvitation = z.infer<typeof teamInvitationSchema>;

/** `POST /api/team/member/invitation`: the invitation, by the account as the leader typed it (its lookup key). */
export const invitationSentSchema = z.object({ id: z.number().int(), account: z.string() });

export const teamSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  teamNo: z.string(),
  name: z.string(),
  individual: z.boolean(),
  leaderId: z.number().int(),
  memberList: z.array(teamMemberSchema),
  teacherList: z.array(teamTeacherSchema),
  /** The question the team chose, with how its result is made (questions.ts `JUDGING`): which tabs it goes through. */
  choiceQuestionList: z.array(z.object({ questionId: z.number().int(), title: z.string(), judging: z.enum(JUDGING) })),
  /** Only the leader sees the pending invitations and the join code. */
  invitationList: z.array(teamInvitationSchema),
  joinCode: z.string().nullable(),
  register: registerSchema.nullable(),
  /** Team rules of the competition, so the page can show the seats left. */
  minMembers: z.number().int(),
  maxMembers: z.number().int(),
  maxTeachers: z.number().int(),
  /** The team's group (eligibility.ts), or null where the competition has none. */
  groupName: z.string().nullable(),
  /** The school the team is counted under (its leader's), where the competition's rules speak of schools. */
  schoolName: z.string().nullable(),
  /** Team changes lock once the registration window has closed. */
  locked: z.boolean(),
  createdAt: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

/** `GET /api/team/competition/{id}/detail`: the caller's team or, with none, the invitations waiting for the caller. */
export const teamDetailSchema = z.object({ team: teamSchema.nullable(), invitations: z.array(teamInvitationSchema) });
export type TeamDetail = z.infer<typeof teamDetailSchema>;

/** `POST /api/team/register/{competitionId}`: the new team, its registration and, for a fee, the order to pay. */
export const teamRegisteredSchema = z.object({ teamId: z.number().int(), registerId: z.number().int(), orderId: z.number().int().nullable() });

/** `GET /api/team/team/{id}`: a team as a join link or an invitation shows it to the invitee, with the form to fill. */
export const joinViewSchema = z.object({
  id: z.number().int(),
  teamNo: z.string(),
  name: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  leaderName: z.string(),
  memberNum: z.number().int(),
  maxMembers: z.number().int(),
  locked: z.boolean(),
  member: z.boolean(),
  invitationId: z.number().int().nullable(),
  /** Joining is kept for people who completed 实名认证. */
  realName: z.boolean(),
  fieldList: z.array(presetFieldSchema),
});
export type JoinView = z.infer<typeof joinViewSchema>;

/** `GET /api/team/register/{id}`: a registration with its team and its history. */
export const registerDetailSchema = registerSchema.extend({ team: teamSchema, flows: z.array(registerFlowSchema) });
export type RegisterDetail = z.infer<typeof registerDetailSchema>;

/**
 * Why the team cannot choose a question yet, or null: its registration must be approved and, for a competition with a
 * fee, paid. The server refuses with this sentence and the site's choice tab shows it on the disabled button.
 */
export function choiceRefusal(register: { status: number; payStatus: number | null } | null | undefined, fee: number): string | null {
  if (register?.status !== REGISTER_STATUS.approved) return '报名审核通过后才能选题';
  if (fee > 0 && register.payStatus !== PAY_STATUS.paid) return '请先完成缴费再选题';
  return null;
}

const attachmentList = z.array(z.string().max(200).regex(REG_FILE_URI, '附件无效，请重新上传')).max(5, '附件最多5个').default([]);

/** `POST /api/team/register/{competitionId}`: the registrant's own form plus the team (or individual entry). */
export const teamRegisterBody = z.strictObject({
  individual: z.boolean().default(false),
  teamName: text(50, '队伍名称'),
  /** The group the team enters, where the competition's groups are chosen (eligibility.ts). */
  groupName: text(20, '组别'),
  info: z.record(z.string(), z.unknown()).default({}),
  attachments: attachmentList,
});
export type TeamRegisterBody = z.infer<typeof teamRegisterBody>;

/** `PUT /api/team/update/{id}`: the leader renames the team, corrects the form or the attachments. */
export const teamUpdateBody = z.strictObject({
  teamName: text(50, '队伍名称'),
  groupName: text(20, '组别'),
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

export const choiceBody = z.strictObject({ questionId: z.number({ error: '请选择赛题' }).int().positive() });
