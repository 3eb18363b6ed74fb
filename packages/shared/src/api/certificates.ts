import { z } from 'zod';
import { pageQuery } from './common.ts';
import { requiredText } from './fields.ts';

export const CERT_FIELDS = [
  'name',
  'team',
  'members',
  'school',
  'award',
  'question',
  'competition',
  'organizer',
  'certNo',
  'date',
  'wording',
  'qrcode',
] as const;
export type CertField = (typeof CERT_FIELDS)[number];
export const CERT_FIELD_NAMES: Record<CertField, string> = {
  name: '姓名',
  team: '队伍名称',
  members: '队伍成员',
  school: '学校',
  award: '奖项',
  question: '赛题',
  competition: '竞赛名称',
  organizer: '主办单位',
  certNo: '证书编号',
  date: '颁发日期',
  wording: '固定文字',
  qrcode: '验证二维码',
};
/** Sample values for the template editor's live preview. */
export const CERT_SAMPLE: Record<CertField, string> = {
  name: '张三',
  team: '数据先锋队',
  members: '张三、李四、王五',
  school: '华南师范大学',
  award: '一等奖',
  question: 'A题 客户流失预测',
  competition: '泰迪杯数据挖掘挑战赛',
  organizer: '泰迪杯竞赛组织委员会',
  certNo: '202600000001',
  date: '2026年11月21日',
  wording: '',
  qrcode: '',
};
/** A certificate's date as printed: the Beijing day of `d`, `2026年11月29日`. */
export function certDateText(d: Date): string {
  const b = new Date(d.getTime() + 8 * 3600_000);
  return `${b.getUTCFullYear()}年${b.getUTCMonth() + 1}月${b.getUTCDate()}日`;
}

/** The short verification code printed with the number (8 characters of this alphabet, printed as XXXX-XXXX). */
export const CERT_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const CERT_SAMPLE_CODE = '7KQ2-M9XD';
/** How a typed number or code is compared: case and spaces or dashes do not matter. */
export const normalizeCertInput = (s: string) => s.replace(/[\s\-‐-―－_]/g, '').toUpperCase();
/** What a field prints when its template gives no wording of its own: `{}` is the value. */
export const CERT_DEFAULT_TEXT: Partial<Record<CertField, string>> = {
  certNo: '证书编号：{}',
  members: '队伍成员：{}',
  team: '队伍：{}',
  wording: '特发此证，以资鼓励。',
};
/** The text a field prints: its wording with `{}` replaced by the value (nothing when the value is empty). */
export function certFieldText(f: Pick<CertFieldPlacement, 'field' | 'text'>, value: string): string {
  if (f.field === 'wording') return f.text ?? CERT_DEFAULT_TEXT.wording!;
  if (!value) return '';
  const pattern = f.text || '{}';
  return pattern.includes('{}') ? pattern.replace('{}', value) : value;
}

/** What the 证书编号 field's `{}` stands for: the number and, beside it, the short verification code. */
export const certNoValue = (certNo: string, code: string) => `${certNo}　验证码：${code}`;

export const CERT_ALIGNS = ['left', 'center', 'right'] as const;
export type CertAlign = (typeof CERT_ALIGNS)[number];
export const certFieldPlacementSchema = z.object({
  field: z.enum(CERT_FIELDS),
  /** Position of the field's anchor (its top-left corner, or top-centre / top-right as `align` says), in pixels of the page. */
  x: z.number().int(),
  y: z.number().int(),
  /** Font size in page pixels; for the QR code, its side. */
  size: z.number().int(),
  color: z.string(),
  align: z.enum(CERT_ALIGNS).optional(),
  /** The wording around the value, `{}` standing for it (e.g. 荣获{}); for 固定文字, the text itself. */
  text: z.string().optional(),
});
export type CertFieldPlacement = z.infer<typeof certFieldPlacementSchema>;

/** Layouts drawn by the server, with no background image: a frame and the usual wording. `backgroundUri` names them. */
export const CERT_BUILTIN_LAYOUTS = ['landscape', 'portrait'] as const;
export type CertBuiltinLayout = (typeof CERT_BUILTIN_LAYOUTS)[number];
export const CERT_BUILTIN_PREFIX = 'builtin:';
export const CERT_BUILTIN_NAMES: Record<CertBuiltinLayout, string> = { landscape: '内置模板 · A4横向', portrait: '内置模板 · A4纵向' };
/** Where each built-in layout draws the rule under its title (centre y and half its length), in page pixels. */
export const CERT_BUILTIN_RULE: Record<CertBuiltinLayout, { y: number; half: number }> = { landscape: { y: 118, half: 150 }, portrait: { y: 150, half: 120 } };
/** A4 in PDF points. */
export const CERT_BUILTIN_SIZE: Record<CertBuiltinLayout, { width: number; height: number }> = {
  landscape: { width: 842, height: 595 },
  portrait: { width: 595, height: 842 },
};
export const builtinLayoutOf = (uri: string | null | undefined): CertBuiltinLayout | null => {
  const name = uri?.startsWith(CERT_BUILTIN_PREFIX) ? uri.slice(CERT_BUILTIN_PREFIX.length) : null;
  return (CERT_BUILTIN_LAYOUTS as readonly string[]).includes(name ?? '') ? (name as CertBuiltinLayout) : null;
};
const F = (field: CertField, x: number, y: number, size: number, color: string, align: CertAlign = 'left', text?: string): CertFieldPlacement => ({
  field,
  x,
  y,
  size,
  color,
  align,
  ...(text !== undefined ? { text } : {}),
});
/** The fields each built-in layout starts with; the organiser may move, resize, reword or remove them. */
export const CERT_BUILTIN_FIELDS: Record<CertBuiltinLayout, CertFieldPlacement[]> = {
  landscape: [
    F('competition', 421, 72, 28, '#8b1a1a', 'center'),
    F('name', 110, 158, 24, '#222222', 'left', '{}：'),
    F('team', 150, 202, 15, '#333333', 'left', '所在队伍：{}'),
    F('members', 150, 228, 15, '#333333', 'left', '队伍成员：{}'),
    F('question', 150, 262, 17, '#222222', 'left', '在“{}”赛题中表现优异，荣获'),
    F('award', 421, 300, 40, '#c00000', 'center'),
    F('wording', 150, 366, 17, '#222222', 'left', '特发此证，以资鼓励。'),
    F('organizer', 732, 428, 17, '#222222', 'right'),
    F('date', 732, 456, 15, '#222222', 'right'),
    F('qrcode', 100, 408, 70, '#000000'),
    F('certNo', 100, 488, 10, '#555555', 'left', '证书编号：{}'),
  ],
  portrait: [
    F('competition', 297, 110, 24, '#8b1a1a', 'center'),
    F('name', 80, 230, 22, '#222222', 'left', '{}：'),
    F('team', 110, 276, 14, '#333333', 'left', '所在队伍：{}'),
    F('members', 110, 302, 14, '#333333', 'left', '队伍成员：{}'),
    F('question', 110, 340, 16, '#222222', 'left', '在“{}”赛题中表现优异，荣获'),
    F('award', 297, 392, 40, '#c00000', 'center'),
    F('wording', 110, 470, 16, '#222222', 'left', '特发此证，以资鼓励。'),
    F('organizer', 515, 580, 16, '#222222', 'right'),
    F('date', 515, 608, 14, '#222222', 'right'),
    F('qrcode', 80, 660, 80, '#000000'),
    F('certNo', 80, 752, 10, '#555555', 'left', '证书编号：{}'),
  ],
};

export const certificateTemplateSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  name: z.string(),
  /** An uploaded background's file key, or `builtin:landscape` / `builtin:portrait`. */
  backgroundUri: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  fields: z.array(certFieldPlacementSchema),
  updatedAt: z.string(),
});
export type CertificateTemplate = z.infer<typeof certificateTemplateSchema>;

/** `POST /api/review/certificate/cert/imgUrl`: the uploaded background's file key and its size in pixels. */
export const certBackgroundSchema = z.object({ uri: z.string(), width: z.number().int(), height: z.number().int() });
export type CertBackground = z.infer<typeof certBackgroundSchema>;

const placement = z.strictObject({
  field: z.enum(CERT_FIELDS, { error: '证书字段无效' }),
  x: z.number({ error: '横坐标须为数字' }).int('坐标须为整数').min(0, '坐标不能小于0').max(10000, '坐标过大'),
  y: z.number({ error: '纵坐标须为数字' }).int('坐标须为整数').min(0, '坐标不能小于0').max(10000, '坐标过大'),
  size: z.number({ error: '字号须为数字' }).int('字号须为整数').min(8, '字号至少为8').max(600, '字号至多为600'),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, '颜色须为#RRGGBB格式')
    .default('#000000'),
  align: z.enum(CERT_ALIGNS, { error: '对齐方式无效' }).optional(),
  text: z.string().max(100, '文字至多100个字符').optional(),
});
export const templateBody = z
  .strictObject({
    name: requiredText(50, '模板名称'),
    backgroundUri: z.string({ error: '请上传证书背景图' }).min(1, '请上传证书背景图').max(200),
    fields: z.array(placement).max(CERT_FIELDS.length),
  })
  .superRefine((v, c) => {
    const names = v.fields.map((f) => f.field);
    if (new Set(names).size !== names.length) c.addIssue({ code: 'custom', path: ['fields'], message: '每个字段只能放置一次' });
    if (!names.includes('name')) c.addIssue({ code: 'custom', path: ['fields'], message: '证书须包含姓名' });
    v.fields.forEach((f, i) => {
      if (f.text && f.field !== 'wording' && f.field !== 'qrcode' && !f.text.includes('{}')) {
        c.addIssue({ code: 'custom', path: ['fields', i, 'text'], message: `“${CERT_FIELD_NAMES[f.field]}”的文字须包含{}，表示字段的值` });
      }
    });
  });
export type TemplateBody = z.infer<typeof templateBody>;

/**
 * `POST /api/review/certificate/{competitionId}` (query): the template as query parameters, when no JSON body is sent.
 * `fields` is JSON text: the array of placements, or one placement per repeated `fields` parameter.
 */
export const templateQuery = z.object({
  name: z.string().optional(),
  backgroundUri: z.string().optional(),
  fields: z.union([z.string().max(20_000, '证书字段过长'), z.array(z.string().max(2_000, '证书字段过长')).max(CERT_FIELDS.length, '证书字段过多')]).optional(),
});
export type TemplateQuery = z.infer<typeof templateQuery>;

export const relationBody = z.strictObject({ templateId: z.number({ error: '请选择证书模板' }).int().positive('请选择证书模板') });

export const CERT_RUN_STATE = { idle: 0, running: 1, done: 2, failed: 3 } as const;
export const certificateRunSchema = z.object({
  questionId: z.number().int(),
  templateId: z.number().int().nullable(),
  state: z.number().int(),
  total: z.number().int(),
  done: z.number().int(),
  error: z.string().nullable(),
});
export type CertificateRun = z.infer<typeof certificateRunSchema>;

export const certificateSchema = z.object({
  id: z.number().int(),
  certNo: z.string(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  questionId: z.number().int(),
  questionTitle: z.string(),
  teamId: z.number().int(),
  teamName: z.string(),
  holderKind: z.enum(['member', 'teacher']),
  holderName: z.string(),
  school: z.string().nullable(),
  awardName: z.string(),
  createdAt: z.string(),
});
export type Certificate = z.infer<typeof certificateSchema>;

/** What the public verification page shows: enough to confirm a certificate, with the holder's name masked. */
export const certificateCheckSchema = z.object({
  certNo: z.string(),
  holderName: z.string(),
  competitionName: z.string(),
  questionTitle: z.string(),
  awardName: z.string(),
  createdAt: z.string(),
});
export type CertificateCheck = z.infer<typeof certificateCheckSchema>;

export const certPageQuery = pageQuery.extend({ keyword: z.string().trim().max(100).optional(), export: z.enum(['xlsx']).optional() });
export const certListQuery = z.object({
  competitionId: z.coerce.number({ error: '竞赛编号须为正整数' }).int('竞赛编号须为正整数').positive('竞赛编号须为正整数').optional(),
});
/** `GET upload/{questionId}`: one of the question's certificate uploads; without `fileUri`, its template's background. */
export const certUploadQuery = z.object({ fileUri: z.string().min(1, '请指定文件').max(200).optional() });
export const verifyQuery = z.object({ code: z.string().trim().max(64).default('') });
