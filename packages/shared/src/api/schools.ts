import { z } from 'zod';
import { pageQuery } from './common.ts';

/**
 * Schools as records (issue 36): the platform's list of schools, imported from the Ministry of Education's published
 * list (学校名称, 学校标识码, 主管部门, 所在地, 办学层次) and edited by the platform; profiles and registration forms pick
 * a school from it (by name or pinyin initials), or write another where the competition allows.
 */
export const SCHOOL_KINDS = { undergraduate: '本科', vocational: '高职（专科）', secondary: '中学', other: '其他' } as const;
export type SchoolKind = keyof typeof SCHOOL_KINDS;
export const SCHOOL_KIND_KEYS = Object.keys(SCHOOL_KINDS) as [SchoolKind, ...SchoolKind[]];

/** 办学层次 of the Ministry's list (and the words people write) to a kind. */
export function schoolKindOf(level: string | null | undefined): SchoolKind | null {
  const v = (level ?? '').trim();
  if (!v) return null;
  if (/本科|大学|学院/.test(v)) return 'undergraduate';
  if (/专科|高职|职业/.test(v)) return 'vocational';
  if (/中学|高中|初中/.test(v)) return 'secondary';
  if (v === '其他' || v === 'other') return 'other';
  return (SCHOOL_KIND_KEYS as string[]).includes(v) ? (v as SchoolKind) : null;
}

/**
 * A school's name as records are matched by: spaces gone, full-width brackets and letters made half-width, letters
 * lower-case. "北京大学 " and "北京大学" are one school; "中国科学技术大学（研究生院）" and "中国科学技术大学(研究生院)" too.
 */
export function schoolNameKey(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/\s+/g, '')
    .replace(/[（【]/g, '(')
    .replace(/[）】]/g, ')')
    .toLowerCase();
}

/** What a registration form answers when its competition takes only the list's schools and the one written is not in it. */
export const SCHOOL_NOT_LISTED_TEXT = '请从学校名单中选择学校；名单中没有你的学校时，请联系主办方';

/** 学校标识码: the Ministry's 10-digit code. */
export const SCHOOL_CODE = /^\d{10}$/;

const text = (label: string, max: number) => z.string().trim().max(max, `${label}不能超过${max}个字`);
export const schoolBody = z.strictObject({
  name: z.string({ error: '请输入学校名称' }).trim().min(2, '请输入学校名称').max(100, '学校名称不能超过100个字'),
  code: z
    .string()
    .trim()
    .refine((v) => v === '' || SCHOOL_CODE.test(v), '学校标识码为10位数字')
    .nullish(),
  province: text('所在地', 50).nullish(),
  department: text('主管部门', 100).nullish(),
  kind: z.enum(SCHOOL_KIND_KEYS, { error: '请选择办学层次' }),
});
export type SchoolBody = z.infer<typeof schoolBody>;

export const schoolSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string().nullable(),
  province: z.string().nullable(),
  department: z.string().nullable(),
  kind: z.enum(SCHOOL_KIND_KEYS),
  /** Pinyin initials of the name (北京大学: bjdx), what the picker also searches. */
  initials: z.string(),
  /** Accounts whose profile names this school. */
  users: z.number().int(),
});
export type School = z.infer<typeof schoolSchema>;

/** `GET /api/system/school/page`. */
export const schoolPageQuery = pageQuery.extend({
  keyword: z.string().trim().max(50, '关键字过长').optional(),
  province: z.string().trim().max(50).optional(),
  kind: z.enum(SCHOOL_KIND_KEYS, { error: '办学层次不正确' }).optional(),
});
export type SchoolPageQuery = z.infer<typeof schoolPageQuery>;

/** `GET /api/school/options?keyword=`: up to 20 schools whose name, pinyin initials or code match, for a picker. */
export const schoolOptionsQuery = z.object({ keyword: z.string().trim().max(50, '关键字过长').default('') });
export const schoolOptionSchema = z.object({ id: z.number().int(), name: z.string(), province: z.string().nullable(), kind: z.enum(SCHOOL_KIND_KEYS) });
export type SchoolOption = z.infer<typeof schoolOptionSchema>;

/** `POST /api/system/school/import` (an .xlsx file): what was added and updated, and the rows refused with why. */
export const schoolImportReportSchema = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Accounts whose profile's free-text school is now linked to a record (the name equal after normalisation). */
  linked: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
});
export type SchoolImportReport = z.infer<typeof schoolImportReportSchema>;
