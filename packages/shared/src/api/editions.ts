import { z } from 'zod';
import { eligibilitySchema } from '../eligibility.ts';
import { MENU_CODES } from '../enums.ts';
import { certFieldPlacementSchema } from './certificates.ts';
import { presetFieldSchema } from './competitions.ts';
import { EVALUATION_METRICS, JUDGING } from './questions.ts';
import { AGGREGATIONS, criterionSchema } from './review.ts';

/**
 * Every year again (issue 38): a competition copied as its next edition (复制为新一届), the editions of one line (往届),
 * and a competition's settings carried to another platform as one archive (a JSON manifest with a version, plus the
 * files). Copying and the archive read and write the same settings: what one carries, the other does.
 */

/** The parts of a competition an organiser may tick when copying it; people, teams, orders, works, grades and certificates never are. */
export const EDITION_PARTS = {
  pages: '页面与竞赛信息（封面、简介、竞赛信息、参赛指南、训练平台）',
  stages: '竞赛阶段',
  presets: '菜单设置与报名表',
  questions: '赛题及评分设置、答案文件、评分程序、查重设置',
  review: '评审规则与奖项设置',
  certificates: '证书模板',
  fees: '报名费、缴费与发票设置',
  notices: '草稿通知（发给本竞赛参赛者的）',
} as const;
export type EditionPart = keyof typeof EDITION_PARTS;
export const EDITION_PART_KEYS = Object.keys(EDITION_PARTS) as EditionPart[];
/** What a part needs copied with it: review rules and award levels belong to questions. */
export const PART_NEEDS: Partial<Record<EditionPart, EditionPart>> = { review: 'questions' };

/** Why these parts cannot be copied together (a part without the one it needs), or null: the dialog's rule and the server's. */
export function partsRefusal(parts: readonly EditionPart[]): string | null {
  for (const [part, needs] of Object.entries(PART_NEEDS) as [EditionPart, EditionPart][]) {
    if (parts.includes(part) && !parts.includes(needs)) return `复制“${EDITION_PARTS[part].split('（')[0]}”须同时复制“${EDITION_PARTS[needs].split('（')[0]}”`;
  }
  return null;
}

/** `POST /api/competition/clone/{id}`. */
export const cloneBody = z
  .strictObject({
    name: z.string({ error: '请输入新一届的名称' }).trim().min(1, '请输入新一届的名称').max(100, '名称不能超过100个字'),
    /** Every date moves by this many years and days. */
    shiftYears: z.number({ error: '请填写顺延的年数' }).int('年数须为整数').min(0, '年数不能为负').max(10, '最多顺延10年'),
    shiftDays: z.number({ error: '请填写顺延的天数' }).int('天数须为整数').min(-366, '天数须在-366到366之间').max(366, '天数须在-366到366之间'),
    parts: z.array(z.enum(EDITION_PART_KEYS as [EditionPart, ...EditionPart[]], { error: '复制内容不正确' })).max(EDITION_PART_KEYS.length),
  })
  .superRefine((v, c) => {
    if (v.shiftYears === 0 && v.shiftDays === 0)
      c.addIssue({ code: 'custom', path: ['shiftDays'], message: '请设置日期顺延的时间，新一届的日期不能与本届相同' });
    const refusal = partsRefusal(v.parts);
    if (refusal) c.addIssue({ code: 'custom', path: ['parts'], message: refusal });
  });
export type CloneBody = z.infer<typeof cloneBody>;

const DAY_MS = 24 * 3600_000;

/**
 * A date moved by whole years (the same day of the month; 29 February becomes 28 February) and then by days. Dates are
 * ISO strings in UTC; the result keeps the time of day.
 */
export function shiftDate(iso: string, years: number, days: number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const month = d.getUTCMonth();
  d.setUTCFullYear(d.getUTCFullYear() + years);
  if (d.getUTCMonth() !== month) d.setUTCDate(0);
  return new Date(d.getTime() + days * DAY_MS).toISOString();
}
/** How many days a date moves under a shift (what the checklist says). */
export const shiftedDays = (iso: string, years: number, days: number) =>
  Math.round((new Date(shiftDate(iso, years, days)).getTime() - new Date(iso).getTime()) / DAY_MS);

const CN_DIGITS = '零一二三四五六七八九';
function cnToNumber(s: string): number | null {
  if (!/^[零一二三四五六七八九十]+$/.test(s)) return null;
  if (!s.includes('十')) return s.length === 1 ? CN_DIGITS.indexOf(s) : null;
  const [tens, ones] = s.split('十');
  if (tens.length > 1 || (ones ?? '').length > 1) return null;
  return (tens ? CN_DIGITS.indexOf(tens) : 1) * 10 + (ones ? CN_DIGITS.indexOf(ones) : 0);
}
function numberToCn(n: number): string {
  if (n < 10) return CN_DIGITS[n];
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  return `${tens === 1 ? '' : CN_DIGITS[tens]}十${ones ? CN_DIGITS[ones] : ''}`;
}

/**
 * The name the next edition is offered: its years moved on (2025 → 2026) and its 第N届 counted up (第十届 → 第十一届,
 * 第9届 → 第10届); a name with neither gets “（新一届）”.
 */
export function nextEditionName(name: string, years = 1): string {
  let changed = false;
  let next = name.replace(/(?<!\d)(19|20)\d{2}(?!\d)/g, (y) => {
    changed = true;
    return String(Number(y) + years);
  });
  next = next.replace(/第([0-9]{1,3}|[零一二三四五六七八九十]{1,3})届/g, (whole, n: string) => {
    if (/^\d+$/.test(n)) {
      changed = true;
      return `第${Number(n) + 1}届`;
    }
    const v = cnToNumber(n);
    if (v === null || v >= 99) return whole;
    changed = true;
    return `第${numberToCn(v + 1)}届`;
  });
  return (changed ? next : `${name}（新一届）`).slice(0, 100);
}

/** One edition of a line, as 往届 lists them: oldest first, numbered from 1. */
export const editionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** 1 for the line's first edition. */
  edition: z.number().int(),
  /** AUDIT_STATUS. */
  auditStatus: z.number().int(),
  regStartTime: z.string(),
  endTime: z.string(),
  /** The competition asked about. */
  current: z.boolean(),
});
export type Edition = z.infer<typeof editionSchema>;

// ---- The archive ------------------------------------------------------------------------------------------------------

export const ARCHIVE_FORMAT = 'contest-platform/competition';
export const ARCHIVE_VERSION = 1;
/** The largest archive taken at import (the answer files and programs it carries are bounded on their own too). */
export const ARCHIVE_MAX_MB = 200;

/** A file the manifest names by its SHA-256, stored in the archive as `files/<sha256>`. */
const fileRef = z.string().regex(/^[0-9a-f]{64}$/, '文件引用不正确');
/** A certificate background the platform itself has (`builtin:landscape`): no file to carry. */
export const builtinBackground = z.string().regex(/^builtin:[a-z0-9-]+$/, '内置背景不正确');
export const isBuiltin = (key: string) => key.startsWith('builtin:');
const iso = z.string().max(40);
const text = (max: number) => z.string().max(max).nullable();

/** JSON text that must parse and hold what `schema` says (the platform's own rule for the setting). */
const jsonOf = (schema: z.ZodType, what: string, max = 100_000) =>
  z
    .string()
    .max(max)
    .superRefine((v, c) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        c.addIssue({ code: 'custom', message: `${what}不是有效的JSON` });
        return;
      }
      const r = schema.safeParse(parsed);
      if (!r.success) c.addIssue({ code: 'custom', message: `${what}有误：${r.error.issues[0]?.message ?? ''}` });
    });
const count = (max: number) => z.number().int().min(0).max(max);

/** A carried notice's target: this competition's participants (narrowed by state at most), never named people or everyone. */
const notNamed = z.strictObject({
  scope: z.literal('competition', { error: '只能导入发给本竞赛参赛者的通知' }),
  registerStatus: z.enum(['pending', 'approved', 'rejected']).nullable().optional(),
  payStatus: z.enum(['paid', 'unpaid']).nullable().optional(),
  works: z.enum(['submitted', 'missing']).nullable().optional(),
});

export const archiveFileSchema = z.strictObject({
  name: z.string().max(255),
  mime: z.string().max(100),
  size: z.number().int().min(0),
  visibility: z.enum(['public', 'private']),
  purpose: z.string().max(40),
});

export const archiveQuestionSchema = z.strictObject({
  title: z.string().max(200),
  content: text(200_000),
  sort: z.number().int(),
  judging: z.enum(JUDGING),
  metric: z.enum(EVALUATION_METRICS).nullable(),
  idColumn: text(100),
  targetColumn: text(100),
  publicPercent: z.number().int().min(1).max(99).nullable(),
  dailyLimit: count(1000).nullable(),
  salt: text(100),
  answerFile: fileRef.nullable(),
  answerRows: count(1_000_000_000).nullable(),
  positiveLabel: text(100),
  topK: count(1000).nullable(),
  splitRule: z.enum(['keyed', 'sha256']),
  higherIsBetter: z.literal([0, 1]).nullable(),
  timeLimitSec: count(3600).nullable(),
  metricName: text(100),
  scorer: fileRef.nullable(),
  similarityFlag: count(100),
  similarityHold: count(100),
  files: z
    .array(z.strictObject({ file: fileRef, sort: z.number().int() }))
    .max(100)
    .refine((fs) => new Set(fs.map((f) => f.file)).size === fs.length, '同一赛题的数据文件重复'),
  exclusions: z.array(z.strictObject({ file: fileRef, fileName: z.string().max(255), chars: z.number().int(), reason: text(200) })).max(100),
  review: z
    .strictObject({
      criteriaJson: jsonOf(z.array(criterionSchema).max(50), '评审标准'),
      judgesPerWork: z.number().int().min(1).max(20),
      aggregation: z.enum(AGGREGATIONS),
      reviewWeight: z.number().min(0).max(100),
      testWeight: z.number().min(0).max(100),
      blind: z.literal([0, 1]),
      disputeDays: count(365),
    })
    .nullable(),
  awards: z
    .array(
      z.strictObject({ name: z.string().min(1).max(50), sort: z.number().int(), rankFrom: count(1_000_000).nullable(), rankTo: count(1_000_000).nullable() }),
    )
    .max(50),
});

/** `manifest.json` of a competition archive. */
export const archiveManifestSchema = z.strictObject({
  format: z.literal(ARCHIVE_FORMAT, { error: '不是本平台导出的竞赛包' }),
  version: z.literal(ARCHIVE_VERSION, { error: `竞赛包版本不受支持（本平台读取第 ${ARCHIVE_VERSION} 版）` }),
  competition: z.strictObject({
    name: z.string().min(1).max(100),
    brand: z.strictObject({ name: z.string().max(100), shortName: z.string().max(100) }),
    type: text(100),
    cover: fileRef.nullable(),
    summary: text(2000),
    introduce: text(200_000),
    information: text(200_000),
    guide: text(200_000),
    trainingUrl: z
      .string()
      .max(500)
      .regex(/^(https?|ftp):\/\//, '训练平台地址须以http://、https://或ftp://开头')
      .nullable(),
    regStartTime: iso,
    regEndTime: iso,
    endTime: iso,
    allowIndividual: z.literal([0, 1]),
    minMembers: z.number().int().min(1).max(50),
    maxMembers: z.number().int().min(1).max(50),
    maxTeachers: count(20),
    fee: count(100_000_000),
    invoiceEnable: z.literal([0, 1]),
    worksMaxMb: z.number().int().min(1).max(10_240),
    worksTypes: z.string().max(200),
    eligibilityJson: jsonOf(eligibilitySchema, '参赛资格规则', 20_000).nullable(),
  }),
  stages: z.array(z.strictObject({ name: z.string().max(100), startDate: iso, endDate: iso.nullable(), sort: z.number().int() })).max(50),
  presets: z
    .array(
      z.strictObject({
        menuCode: z.enum(MENU_CODES),
        name: z.string().max(50),
        enable: z.literal([0, 1]),
        enableStartTime: iso.nullable(),
        enableEndTime: iso.nullable(),
        /** The position in `stages` of the stage whose end is its deadline. */
        deadlineStage: z.number().int().min(0).nullable(),
        fieldList: jsonOf(z.array(presetFieldSchema).max(100), '报名表'),
        realName: z.literal([0, 1]),
      }),
    )
    .max(MENU_CODES.length)
    // A competition has each of its menus once (none: a new competition's defaults).
    .refine(
      (ps) => ps.length === 0 || (ps.length === MENU_CODES.length && new Set(ps.map((p) => p.menuCode)).size === MENU_CODES.length),
      '菜单设置须包含全部菜单，且各一次',
    ),
  questions: z.array(archiveQuestionSchema).max(100),
  certificateTemplates: z
    .array(
      z.strictObject({
        name: z.string().min(1).max(50),
        background: z.union([fileRef, builtinBackground]),
        width: z.number().int().min(1).max(20_000),
        height: z.number().int().min(1).max(20_000),
        fieldsJson: jsonOf(z.array(certFieldPlacementSchema).max(50), '证书字段'),
      }),
    )
    .max(50),
  notices: z
    .array(
      z.strictObject({
        kind: z.literal(0),
        title: z.string().min(1).max(200),
        content: text(200_000),
        /** The target with the competition left out: always this competition's participants, narrowed or not. */
        targetJson: jsonOf(notNamed, '通知对象', 10_000),
        publishAt: iso.nullable(),
        byEmail: z.literal([0, 1]),
        bySms: z.literal([0, 1]),
      }),
    )
    .max(200),
  /** Every file named above, by SHA-256. */
  files: z.record(fileRef, archiveFileSchema),
});
export type ArchiveManifest = z.infer<typeof archiveManifestSchema>;

/** `POST /api/competition/import?brandId=&orgId=`: the brand to import into (else matched by name), the organisation (the platform's choice). */
export const importQuery = z.object({
  brandId: z.coerce.number().int().positive('品牌不正确').optional(),
  orgId: z.coerce.number().int().positive('组织不正确').optional(),
});
export type ImportQuery = z.infer<typeof importQuery>;

/** `POST /api/competition/import`: the draft made, and what the archive did not carry or could not be matched here. */
export const importReportSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  files: z.number().int(),
  notCarried: z.array(z.string()),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** `GET /api/competition/export/{id}` answers with a zip; this is the list of what was left out, also in the zip as `report.json`. */
export const ARCHIVE_NEVER_CARRIED =
  '不随竞赛包迁移：参赛者、队伍、订单与缴费记录、提交、作品、成绩、证书，评审专家与出题人等人员，平台的支付商户与密钥、发票开票方信息（由目标平台自行配置）。';
