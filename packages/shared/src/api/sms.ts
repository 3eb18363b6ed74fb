import { z } from 'zod';
import { isValidPhone } from '../validation/index.ts';
import { passwordField } from './auth.ts';
import { userInfoSchema } from './users.ts';

/** Text messages and the codes they carry (issue 35). */

export const SMS_CODE_TTL_MINUTES = 10;
export const SMS_CODE_TRIES = 5;
/** What sending a code answers for a purpose that needs an account (a reset), whether or not the phone has one. */
export const SMS_CODE_ANSWER = '如果该手机号已验证并绑定了账号，验证码已发送，10分钟内有效';
export const SMS_CODE_SENT = '验证码已发送，10分钟内有效';
export const SMS_CODE_WRONG = '验证码错误或已失效，请重新获取';

const phone = z.string({ error: '请输入手机号' }).trim().min(1, '请输入手机号').max(20, '手机号格式不正确').refine(isValidPhone, '手机号格式不正确');
const code = z
  .string({ error: '请输入验证码' })
  .trim()
  .regex(/^\d{6}$/, '验证码为6位数字');

/** The ALTCHA proof of work a browser solved before asking for a code: its payload, base64 of JSON. */
export const altchaField = z.string({ error: '请先完成安全验证' }).min(1, '请先完成安全验证').max(4000, '安全验证无效');

/** `GET /api/auth/altcha`: a challenge signed by the server (ALTCHA v2, proof of work). */
export const altchaChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().optional(),
});
export type AltchaChallenge = z.infer<typeof altchaChallengeSchema>;

/**
 * `POST /api/auth/sms/code`: a code for signing in (an unknown phone gets an account when it signs in) or for resetting a
 * forgotten password (sent only to a phone an account verified; the answer is the same either way).
 */
export const smsCodeBody = z.strictObject({ phone, purpose: z.enum(['login', 'reset'], { error: '验证码用途不正确' }), altcha: altchaField });
export type SmsCodeBody = z.infer<typeof smsCodeBody>;
/** `POST /api/account/phone/code`: a code proving the signed-in account's phone. */
export const phoneCodeBody = z.strictObject({ phone, altcha: altchaField });
/** `POST /api/auth/sms/login`: the phone and its code. */
export const smsLoginBody = z.strictObject({ phone, code });
/** `POST /api/account/password/reset/sms`: the phone, its code and the new password. */
export const smsResetBody = z.strictObject({ phone, code, password: passwordField });
/** `POST /api/account/phone/verify`: the phone and its code. */
export const phoneVerifyBody = z.strictObject({ phone, code });
/** `POST /api/account/password/set`: the first password of an account made by an SMS code. */
export const setPasswordBody = z.strictObject({ password: passwordField });

/** `POST /api/auth/sms/login`: the signed-in user, and whether the phone's account was made just now. */
export const smsLoginReplySchema = z.object({ user: userInfoSchema, created: z.boolean() });
export type SmsLoginReply = z.infer<typeof smsLoginReplySchema>;

export const SMS_PROVIDERS = { aliyun: '阿里云短信', tencent: '腾讯云短信' } as const;
export type SmsProviderKey = keyof typeof SMS_PROVIDERS;
export const SMS_TEMPLATE_LABELS = { code: '验证码', notice: '通知', reminder: '截止提醒' } as const;

const templateId = (label: string) => z.string().trim().max(50, `${label}模板ID过长`);
const settingsText = (max: number) => z.string().trim().max(max, `不能超过${max}个字符`);

/** `PUT /api/system/sms/config`: the platform's SMS provider. A secret left empty keeps the stored one. */
export const smsConfigBody = z.strictObject({
  provider: z.enum(['aliyun', 'tencent'], { error: '请选择短信服务商' }),
  enable: z.boolean(),
  accessKeyId: settingsText(100),
  accessKeySecret: settingsText(200).optional(),
  signName: settingsText(30),
  sdkAppId: settingsText(30).optional(),
  templates: z.strictObject({ code: templateId('验证码'), notice: templateId('通知'), reminder: templateId('提醒') }),
});
export type SmsConfigBody = z.infer<typeof smsConfigBody>;

export const smsConfigViewSchema = z.object({
  provider: z.enum(['aliyun', 'tencent']),
  enable: z.boolean(),
  accessKeyId: z.string(),
  /** `已设置（…abcd）`, or null when none is stored. */
  accessKeySecret: z.string().nullable(),
  signName: z.string(),
  sdkAppId: z.string(),
  templates: z.object({ code: z.string(), notice: z.string(), reminder: z.string() }),
  /** The parameters each purpose's template receives, in Tencent's {1}, {2}… order (Aliyun's ${name}). */
  templateParams: z.object({ code: z.array(z.string()), notice: z.array(z.string()), reminder: z.array(z.string()) }),
  updatedAt: z.string().nullable(),
  /** Outside production with SMS_SIMULATOR on: the simulator's keys, to fill in, and where its messages are shown. */
  simulator: z
    .object({
      aliyun: z.object({ accessKeyId: z.string(), accessKeySecret: z.string() }),
      tencent: z.object({ secretId: z.string(), secretKey: z.string(), sdkAppId: z.string() }),
      page: z.string(),
    })
    .nullable(),
});
export type SmsConfigView = z.infer<typeof smsConfigViewSchema>;

/** `POST /api/system/sms/test`: a test text to this phone, sent at once with the saved settings. */
export const smsTestBody = z.strictObject({ phone });
export const smsTestReplySchema = z.object({ providerMessageId: z.string() });
