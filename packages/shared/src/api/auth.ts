import { z } from 'zod';
import { EMAIL_MESSAGE, USERNAME_MESSAGE, checkPasswordStrength, isValidEmail, isValidUsername } from '../account.ts';
import { isValidPhone } from '../validation/index.ts';

const optionalText = (schema: z.ZodString) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

export const phoneField = optionalText(z.string().trim().refine(isValidPhone, '手机号格式不正确'));
export const emailField = optionalText(z.string().trim().refine(isValidEmail, EMAIL_MESSAGE));
/** Every password a person sets (register, change, an administrator's reset): the one rule, shared with the forms. */
export const passwordField = z.string({ error: '请输入密码' }).superRefine((v, c) => {
  const problem = checkPasswordStrength(v);
  if (problem) c.addIssue({ code: 'custom', message: problem });
});

export const registerBody = z.strictObject({
  username: z.string({ error: '请输入用户名' }).refine(isValidUsername, USERNAME_MESSAGE),
  password: passwordField,
  phone: phoneField,
  email: emailField,
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.strictObject({
  username: z.string({ error: '请输入用户名' }).min(1, '请输入用户名').max(100, '用户名过长'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(200, '密码过长'),
});
export type LoginBody = z.infer<typeof loginBody>;

export const changePasswordBody = z.strictObject({
  oldPassword: z.string({ error: '请输入原密码' }).min(1, '请输入原密码').max(200, '密码过长'),
  newPassword: passwordField,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** Public sign-in options the login page needs. */
export const authConfigSchema = z.object({
  oidcEnabled: z.boolean(),
  oidcName: z.string(),
  /** The platform sends email (SMTP_URL is set): verifying an email and 忘记密码 are offered. */
  mailEnabled: z.boolean(),
  /** The platform sends text messages (an SMS provider is enabled): 短信验证码登录 and resetting by SMS are offered. */
  smsEnabled: z.boolean(),
  /** 微信扫码登录 is offered (an open platform application, or the development simulator). */
  wechatEnabled: z.boolean(),
  /** Where the dropdown's account-security link goes (spec §2.2: an external link). */
  accountSecurityUrl: z.string(),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

/** `POST /api/auth/token`: a bearer token for the desktop client. */
export const tokenReplySchema = z.object({ token: z.string(), expiresAt: z.string() });
export type TokenReply = z.infer<typeof tokenReplySchema>;

/** `POST /api/auth/register`: the new account. */
export const registeredSchema = z.object({ id: z.number().int(), username: z.string() });
export type Registered = z.infer<typeof registeredSchema>;

/** `GET /api/auth/sessions`: one live session of the caller (the account page's devices). */
export const authSessionSchema = z.object({
  kind: z.enum(['browser', 'token']),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  /** The session of this very request. */
  current: z.boolean(),
});
export type AuthSession = z.infer<typeof authSessionSchema>;

/** `POST /api/auth/sessions/revokeOthers`: how many other sessions were ended. */
export const revokedSchema = z.object({ revoked: z.number().int() });
