import { z } from 'zod';
import {
  EMAIL_MESSAGE,
  USERNAME_MESSAGE,
  checkPasswordStrength,
  isValidEmail,
  isValidUsername,
} from '../account.ts';
import { isValidPhone } from '../validation/index.ts';

const optionalText = (schema: z.ZodString) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

export const phoneField = optionalText(
  z.string().trim().refine(isValidPhone, '手机号格式不正确'),
);
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
export interface AuthConfig {
  oidcEnabled: boolean;
  oidcName: string;
  /** Where the dropdown's account-security link goes (spec §2.2: an external link). */
  accountSecurityUrl: string;
}

export interface TokenReply {
  token: string;
  expiresAt: string;
}
