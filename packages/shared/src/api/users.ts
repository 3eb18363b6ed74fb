import { z } from 'zod';
import { EMAIL_MESSAGE, isValidEmail } from '../account.ts';
import { emailField, passwordField, phoneField, registerBody } from './auth.ts';
import { pageQuery } from './common.ts';
import { roleRefSchema } from './roles.ts';

export const userListQuery = pageQuery.extend({
  keyword: z.string().trim().max(100, '关键字过长').optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
  roleId: z.coerce.number().int().positive().optional(),
  orgId: z.coerce.number().int().positive().optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;

export const userListItemSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  userName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  status: z.number().int(),
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  roles: z.array(roleRefSchema),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

export const userStatusBody = z.strictObject({
  status: z.union([z.literal(0), z.literal(1)], { error: '状态须为0（停用）或1（启用）' }),
});
export const resetPasswordBody = z.strictObject({ password: passwordField });
export const userRolesBody = z.strictObject({
  roleIds: z.array(z.number().int().positive(), { error: '请选择角色' }).max(20, '角色过多'),
});
export const userOrgBody = z.strictObject({
  orgId: z.number().int().positive().nullable(),
});
/**
 * `POST /api/system/user`: the administrator's 新增用户: an account as sign-up makes it (name, password, phone, email),
 * with a real name, an organisation and roles (the participant's when none is given).
 */
export const createUserBody = registerBody.extend({
  userName: z.string({ error: '姓名须为文本' }).trim().max(50, '姓名至多50个字').optional(),
  orgId: userOrgBody.shape.orgId.optional(),
  roleIds: userRolesBody.shape.roleIds.optional(),
});
export type CreateUserBody = z.infer<typeof createUserBody>;

/** The current user's fields (spec §3 "Current user info"), plus account fields. */
export const userInfoSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  faceImg: z.string().nullable(),
  area: z.string().nullable(),
  userName: z.string().nullable(),
  birthday: z.string().nullable(),
  sex: z.union([z.literal(0), z.literal(1)]).nullable(),
  education: z.string().nullable(),
  admissionDate: z.string().nullable(),
  atSchool: z.boolean().nullable(),
  organization: z.string().nullable(),
  /** The school record `organization` names, or null (a school not in the platform's list). */
  schoolId: z.number().int().nullable(),
  department: z.string().nullable(),
  speciality: z.string().nullable(),
  grade: z.string().nullable(),
  studentIdCard: z.string().nullable(),
  province: z.string().nullable(),
  city: z.string().nullable(),
  address: z.string().nullable(),
  company: z.string().nullable(),
  position: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  roles: z.array(roleRefSchema),
  /** The caller acts for the platform: sees and picks every organisation (PLATFORM_PERMISSION), not only its own. */
  platform: z.boolean(),
  /** The account proved its email (the one above) by a link. */
  emailVerified: z.boolean(),
  /** The account proved its phone (the one above) by an SMS code. */
  phoneVerified: z.boolean(),
  /** The account has a password (one made by an SMS code or single sign-on may not): 设置密码 rather than 修改密码. */
  hasPassword: z.boolean(),
  /** The account completed 实名认证: its 姓名 (userName) is the proved name and cannot be edited. */
  realNameVerified: z.boolean(),
  /** The WeChat bound to the account (its nickname, or 微信用户), or null. */
  wechat: z.string().nullable(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

const text = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v), z.string().max(max, `不能超过${max}个字符`).nullable().optional());
const date = z.preprocess(
  (v) => (v === '' ? null : v),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式须为YYYY-MM-DD')
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), '日期不存在')
    .nullable()
    .optional(),
);

/** What a user may change of their own profile (`PUT /api/team/userinfo/`). */
export const userInfoUpdateBody = z.strictObject({
  faceImg: text(500),
  area: text(50),
  userName: text(50),
  birthday: date,
  sex: z
    .union([z.literal(0), z.literal(1)], { error: '性别须为0（男）或1（女）' })
    .nullable()
    .optional(),
  education: text(50),
  admissionDate: date,
  atSchool: z.boolean({ error: '是否在校须为是或否' }).nullable().optional(),
  organization: text(100),
  /** The school picked from the platform's list (its name becomes `organization`); null with `organization` for another. */
  schoolId: z.number({ error: '请从名单中选择学校' }).int().positive('请从名单中选择学校').nullable().optional(),
  department: text(100),
  speciality: text(100),
  grade: text(50),
  studentIdCard: text(50),
  province: text(50),
  city: text(50),
  address: text(200),
  company: text(100),
  position: text(100),
  phone: phoneField.nullable(),
  email: emailField.nullable(),
});
export type UserInfoUpdateBody = z.infer<typeof userInfoUpdateBody>;

/** A token from a link sent by email (`/verify-email?token=…`, `/reset-password?token=…`). */
const linkToken = z
  .string({ error: '链接无效' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{20,100}$/, '链接无效');
/** `POST /api/account/email/verify`: the token of the verification link. */
export const emailVerifyBody = z.strictObject({ token: linkToken });
/** What 忘记密码 answers, whether or not the address has an account (so that it tells nobody which addresses do). */
export const FORGOT_ANSWER = '如果该邮箱已验证并绑定了账号，重置密码的邮件已经发出，请在15分钟内点击邮件中的链接';

/** `POST /api/account/password/forgot`: the verified email of the account whose password was forgotten. */
export const passwordForgotBody = z.strictObject({
  email: z.string({ error: '请输入邮箱' }).trim().min(1, '请输入邮箱').refine(isValidEmail, EMAIL_MESSAGE),
});
/** `POST /api/account/password/reset`: the link's token and the new password. */
export const passwordResetBody = z.strictObject({ token: linkToken, password: passwordField });
export type PasswordResetBody = z.infer<typeof passwordResetBody>;
