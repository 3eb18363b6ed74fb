import { z } from 'zod';
import type { MenuCode } from '../enums.ts';
import { mainlandCheckDigit, validateIdCard } from '../validation/index.ts';
import { pageQuery } from './common.ts';

/**
 * 实名认证 (issue 35): a person proves their name with a document. A mainland 居民身份证 is checked at once against the
 * public-security register through the platform's provider (name and number agree, disagree, or the number has no
 * record); a passport or a 港澳台 document is reviewed by the platform from a photo. One document proves one account.
 */
export const REAL_NAME_DOC_TYPES = {
  idCard: '居民身份证',
  residencePermit: '港澳台居民居住证',
  hkMacauPermit: '港澳居民来往内地通行证',
  taiwanPermit: '台湾居民来往大陆通行证',
  passport: '护照',
} as const;
export type RealNameDocType = keyof typeof REAL_NAME_DOC_TYPES;
export const REAL_NAME_DOC_KEYS = Object.keys(REAL_NAME_DOC_TYPES) as [RealNameDocType, ...RealNameDocType[]];
/** Checked by the provider at once; every other document waits for the platform's review of its photo. */
export const autoChecked = (docType: RealNameDocType) => docType === 'idCard';

/** Where a person stands: never tried (or a failed check), waiting for review, verified, or refused by a reviewer. */
export const REAL_NAME_STATES = { none: '未认证', pending: '审核中', verified: '已实名', rejected: '未通过' } as const;
export type RealNameState = keyof typeof REAL_NAME_STATES;

/** Provider checks an account may ask for a day (each one costs the platform money). */
export const REAL_NAME_CHECKS_PER_DAY = 5;

export const REAL_NAME_TEXT = {
  taken:
    '该证件已用于另一个账号的实名认证，一个证件只能认证一个账号。如果那是你的账号，请在登录页点“忘记密码”，用该账号验证过的手机号或邮箱找回；无法找回时请联系平台客服。',
  mismatch: '姓名与身份证号不一致，请核对后重试',
  noRecord: '未查询到该身份证号的登记信息，请核对号码；仍无法通过时可改用人工审核（选择其他证件类型并上传证件照片）',
  unavailable: '实名核验服务暂时不可用，请稍后再试',
  already: '你已完成实名认证，如需更改请联系平台客服',
  waiting: '你的实名认证正在人工审核中，请等待审核结果',
  photo: '请上传证件照片（人像信息页）',
} as const;

/** Mainland numbers (居民身份证 and 港澳台居民居住证) on GB 11643: 18 characters, or the legacy 15 digits. */
const MAINLAND = /^(\d{17}[\dX]|\d{15})$/;
const DOC_PATTERNS: Record<Exclude<RealNameDocType, 'idCard' | 'residencePermit'>, RegExp> = {
  // 回乡证: H or M and 8 digits (2013 on), or and 10 digits (older booklets).
  hkMacauPermit: /^[HM](\d{8}|\d{10})$/,
  // 台胞证: 8 digits (2015 on), or 10 characters of the older booklets.
  taiwanPermit: /^(\d{8}|\d{10}|[A-Z]\d{9})$/,
  passport: /^[A-Z0-9]{5,17}$/,
};

/**
 * A document number as the register keeps it: spaces, brackets and dashes gone, letters upper-case (a lower-case x is
 * the check character X), and a 15-digit mainland number of before 1999 written as its 18-digit form (born in the
 * 1900s: "19" is put before the year, then the check character is computed).
 */
export function normaliseDocNumber(docType: RealNameDocType, raw: string): string {
  const n = raw.replace(/[\s()（）-]/g, '').toUpperCase();
  if ((docType === 'idCard' || docType === 'residencePermit') && /^\d{15}$/.test(n)) {
    const first17 = `${n.slice(0, 6)}19${n.slice(6)}`;
    return first17 + mainlandCheckDigit(first17);
  }
  return n;
}

/** What is wrong with a document number of this type, or null. */
export function docNumberError(docType: RealNameDocType, raw: string, today: Date = new Date()): string | null {
  const n = raw.replace(/[\s()（）-]/g, '').toUpperCase();
  if (!n) return '请输入证件号码';
  if (docType === 'idCard' || docType === 'residencePermit') {
    if (!MAINLAND.test(n)) return '证件号码应为18位（或旧版15位）';
    const msg = validateIdCard(n, today);
    if (msg) return msg;
    const region = n.slice(0, 2);
    if (docType === 'residencePermit' && !['81', '82', '83'].includes(region)) return '港澳台居民居住证号码以810000、820000或830000开头';
    if (docType === 'idCard' && ['81', '82', '83'].includes(region)) return '这是港澳台居民居住证号码，请选择“港澳台居民居住证”';
    return null;
  }
  return DOC_PATTERNS[docType].test(n) ? null : `${REAL_NAME_DOC_TYPES[docType]}号码格式不正确`;
}

/** What the register holds under one key: mainland numbers share one space whatever document carries them. */
export const docKeyText = (docType: RealNameDocType, normalised: string) =>
  docType === 'idCard' || docType === 'residencePermit' ? `CN:${normalised}` : `${docType}:${normalised}`;

const realName = z
  .string({ error: '请输入姓名' })
  .trim()
  .min(2, '姓名至少2个字')
  .max(30, '姓名不能超过30个字')
  .regex(/^[\p{Script=Han}A-Za-z·• .'-]+$/u, '姓名只能包含汉字、字母、间隔号“·”和空格');

/** `POST /api/account/realname`: the document; a document the platform reviews comes with its photo (`fileUri`). */
export const realNameBody = z
  .strictObject({
    docType: z.enum(REAL_NAME_DOC_KEYS, { error: '请选择证件类型' }),
    name: realName,
    number: z.string({ error: '请输入证件号码' }).trim().max(40, '证件号码过长'),
    fileUri: z.string().max(200).nullish(),
  })
  .superRefine((v, ctx) => {
    const msg = docNumberError(v.docType, v.number);
    if (msg) ctx.addIssue({ code: 'custom', path: ['number'], message: msg });
    if (!autoChecked(v.docType) && !v.fileUri) ctx.addIssue({ code: 'custom', path: ['fileUri'], message: REAL_NAME_TEXT.photo });
  });
export type RealNameBody = z.infer<typeof realNameBody>;

/** `GET /api/account/realname`: the account's standing and its latest attempt. */
export const realNameViewSchema = z.object({
  state: z.enum(Object.keys(REAL_NAME_STATES) as [RealNameState, ...RealNameState[]]),
  docType: z.enum(REAL_NAME_DOC_KEYS).nullable(),
  name: z.string().nullable(),
  numberMask: z.string().nullable(),
  /** Why the latest attempt failed or was refused. */
  reason: z.string().nullable(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** Whether a 居民身份证 is checked at once (a provider or the simulator is set up); otherwise it is reviewed too. */
  autoCheck: z.boolean(),
  checksLeft: z.number().int(),
});
export type RealNameView = z.infer<typeof realNameViewSchema>;

/** `GET /api/system/realname/list`: the platform's review queue (state `pending` by default) and its history. */
export const realNameListQuery = pageQuery.extend({
  state: z.enum(['pending', 'verified', 'rejected', 'all'], { error: '状态不正确' }).default('pending'),
  keyword: z.string().trim().max(50, '关键字过长').optional(),
});
export type RealNameListQuery = z.infer<typeof realNameListQuery>;
export const realNameRowSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  docType: z.enum(REAL_NAME_DOC_KEYS),
  name: z.string(),
  numberMask: z.string(),
  method: z.enum(['auto', 'manual']),
  state: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type RealNameRow = z.infer<typeof realNameRowSchema>;
/** `GET /api/system/realname/:id`: one attempt with the whole number and its photo, for the reviewer (the look is audited). */
export const realNameDetailSchema = realNameRowSchema.extend({ number: z.string(), fileUri: z.string().nullable(), fileMime: z.string().nullable() });
export type RealNameDetail = z.infer<typeof realNameDetailSchema>;
/** `POST /api/system/realname/:id/audit`: pass, or refuse with the reason the person is shown. */
export const realNameAuditBody = z
  .strictObject({ pass: z.boolean({ error: '请选择审核结果' }), reason: z.string().trim().max(200, '原因不能超过200字').optional() })
  .refine((v) => v.pass || Boolean(v.reason), { path: ['reason'], message: '请填写不通过的原因' });
export type RealNameAuditBody = z.infer<typeof realNameAuditBody>;

/** The menus whose action a competition may keep for verified people, and what that action is. */
export const REAL_NAME_MENUS = {
  REG_SET: '报名或加入队伍',
  QUES_AND_DATA: '下载赛题数据',
  SUBMIT_WORKS: '提交作品',
  SUBMIT_TEST: '提交测试结果',
} as const satisfies Partial<Record<MenuCode, string>>;
export type RealNameMenu = keyof typeof REAL_NAME_MENUS;
export const isRealNameMenu = (code: string): code is RealNameMenu => code in REAL_NAME_MENUS;

/** What a person not yet verified is told when a competition keeps `menu`'s action for verified people. */
export const realNameRequiredText = (menu: RealNameMenu) => `本竞赛要求完成实名认证后才能${REAL_NAME_MENUS[menu]}，请先到“个人中心 → 实名认证”完成认证`;
/** What a team is told when some of its members are not verified and the competition asks all of them to be. */
export const teamRealNameText = (menu: RealNameMenu, names: string[]) =>
  `本竞赛要求全体队员完成实名认证后才能${REAL_NAME_MENUS[menu]}，未认证的队员：${names.join('、')}`;
