import { z } from 'zod';
import { MENU_CODES, type MenuCode } from '../enums.ts';
import { pageQuery } from './common.ts';
import { isRealNameMenu } from './real-names.ts';
import { DEFAULT_ELIGIBILITY, eligibilityReplySchema, eligibilitySchema, type Eligibility } from '../eligibility.ts';
import { fileUri, html, isoTime, requiredText, sort, text, url } from './fields.ts';
import { PHASES, WINDOW_KINDS, publicStatus, type CompetitionPhase, type PhaseCode } from '../lifecycle.ts';

// ---- Competitions ------------------------------------------------------------------------------------------

/** Where a competition is in its audit workflow (spec §7 actions publish, audit, audit reply, off, on). */
export const AUDIT_STATUS = { draft: 0, pending: 1, rejected: 2, online: 3, offline: 4 } as const;
export type AuditStatus = (typeof AUDIT_STATUS)[keyof typeof AUDIT_STATUS];
export const AUDIT_STATUS_TEXT: Record<number, string> = { 0: '草稿', 1: '待审核', 2: '已驳回', 3: '已上线', 4: '已下线' };

/** The public list's status (spec §4), from the one lifecycle's dates (lifecycle.ts). */
export function competitionStatus(c: { regStartTime: string; regEndTime: string; endTime: string }, now: Date): 1 | 2 | 3 | 4 {
  return publicStatus(c, now);
}

export const competitionBody = z
  .strictObject({
    name: requiredText(100, '竞赛名称'),
    brandId: z.number({ error: '请选择品牌' }).int().positive('请选择品牌'),
    typeId: z.number().int().positive().nullable().optional(),
    orgId: z.number().int().positive().nullable().optional(),
    cover: fileUri,
    summary: text(500, '竞赛简介'),
    introduce: html('竞赛介绍'),
    information: html('竞赛信息'),
    guide: html('赛前指导'),
    trainingUrl: url,
    regStartTime: isoTime,
    regEndTime: isoTime,
    endTime: isoTime,
    allowIndividual: z.boolean().default(true),
    minMembers: z.number({ error: '最少人数须为整数' }).int().min(1, '最少人数至少为1').max(20, '最少人数不能超过20').default(1),
    maxMembers: z.number({ error: '最多人数须为整数' }).int().min(1, '最多人数至少为1').max(20, '最多人数不能超过20').default(5),
    maxTeachers: z.number({ error: '指导老师人数须为整数' }).int().min(0, '指导老师人数不能为负').max(10, '指导老师最多10人').default(2),
    /** Registration fee in fen (分). */
    fee: z.number({ error: '报名费须为整数（分）' }).int('报名费须为整数（分）').min(0, '报名费不能为负').max(100_000_000, '报名费过高').default(0),
    /** Paying teams may apply for invoices of the fee (under the platform's 发票配置); on unless the organiser says no. */
    invoiceEnable: z.boolean({ error: '请选择是否开放发票申请' }).default(true),
    /** Works: the largest file in MB, and the allowed extensions. */
    worksMaxMb: z
      .number({ error: '作品大小上限须为整数（MB）' })
      .int('作品大小上限须为整数（MB）')
      .min(1, '作品大小上限至少为1MB')
      .max(10_240, '作品大小上限至多为10240MB')
      .default(500),
    worksTypes: z
      .string({ error: '请填写允许的作品格式' })
      .trim()
      .toLowerCase()
      .transform((v) =>
        [
          ...new Set(
            v
              .split(/[,，\s]+/)
              .map((t) => t.replace(/^\./, ''))
              .filter(Boolean),
          ),
        ].join(','),
      )
      .refine((v) => /^[a-z0-9]{1,10}(,[a-z0-9]{1,10}){0,19}$/.test(v), '作品格式须为以逗号分隔的扩展名，如 zip,pdf')
      .default('zip,rar,7z,pdf,docx'),
    /** Who may enter and in which group (issue 36): one school, places per school and per teacher, groups. */
    eligibility: eligibilitySchema.default(DEFAULT_ELIGIBILITY),
  })
  .superRefine((v, ctx) => {
    if (v.regStartTime >= v.regEndTime) ctx.addIssue({ code: 'custom', path: ['regEndTime'], message: '报名截止时间须晚于报名开始时间' });
    if (v.regEndTime > v.endTime) ctx.addIssue({ code: 'custom', path: ['endTime'], message: '竞赛结束时间不能早于报名截止时间' });
    if (v.minMembers > v.maxMembers) ctx.addIssue({ code: 'custom', path: ['maxMembers'], message: '最多人数不能少于最少人数' });
  });
export type CompetitionBody = z.infer<typeof competitionBody>;

export interface CompetitionListItem {
  id: number;
  name: string;
  brandId: number;
  brandShortName: string;
  typeId: number | null;
  typeName: string | null;
  orgId: number;
  orgName: string;
  cover: string | null;
  summary: string | null;
  regStartTime: string;
  regEndTime: string;
  endTime: string;
  fee: number;
  auditStatus: AuditStatus;
  status: 1 | 2 | 3 | 4;
  teamNum: number;
}

export interface Competition extends CompetitionListItem {
  introduce: string | null;
  information: string | null;
  guide: string | null;
  trainingUrl: string | null;
  allowIndividual: boolean;
  invoiceEnable: boolean;
  minMembers: number;
  maxMembers: number;
  maxTeachers: number;
  worksMaxMb: number;
  worksTypes: string;
  eligibility: Eligibility;
  auditReply: string | null;
  createdAt: string;
  updatedAt: string;
}

export const publicListQuery = pageQuery.extend({
  brandId: z.coerce.number().int().positive().optional(),
  status: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(2).max(4).optional()),
  keyword: z.string().trim().max(100).optional(),
});
export type PublicListQuery = z.infer<typeof publicListQuery>;

export const manageListQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  brandId: z.coerce.number().int().positive().optional(),
  typeId: z.coerce.number().int().positive().optional(),
  auditStatus: z.coerce.number().int().min(0).max(4).optional(),
});
export type ManageListQuery = z.infer<typeof manageListQuery>;

export const auditReplyQuery = z.object({ reply: requiredText(500, '驳回原因') });

// ---- Stages ------------------------------------------------------------------------------------------------

export const stageBody = z
  .strictObject({
    name: requiredText(50, '阶段名称'),
    startDate: isoTime,
    endDate: isoTime.nullable().optional(),
    sort: sort,
  })
  .superRefine((v, ctx) => {
    if (v.endDate && v.endDate < v.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: '结束时间不能早于开始时间' });
  });
export type StageBody = z.infer<typeof stageBody>;
export interface Stage {
  id: number;
  competitionId: number;
  name: string;
  startDate: string;
  endDate: string | null;
  sort: number;
}

/** Spec §4: the active stage is the last one whose start date has passed; 0 when none has. */
export function activeStageId(stages: Pick<Stage, 'id' | 'startDate'>[], now: Date): number {
  const t = now.toISOString();
  const started = stages.filter((s) => s.startDate <= t).sort((a, b) => (a.startDate < b.startDate ? -1 : 1));
  return started.length ? started[started.length - 1]!.id : 0;
}

// ---- Menu presets ------------------------------------------------------------------------------------------

export const MENU_NAMES: Record<MenuCode, string> = {
  REG_SET: '报名设置',
  QUES_AND_DATA: '赛题与数据',
  COMP_INFO: '竞赛信息',
  BEFORE_GUIDE: '赛前指导',
  TRAINING_PLATFORM: '训练平台',
  CHOICE_SET: '选择赛题',
  SUBMIT_WORKS: '提交作品',
  SUBMIT_TEST: '提交测试',
  GRADE_SET: '我的成绩',
  CERTIFICATE_SET: '我的证书',
};

/** What each menu turns on for participants, in the organiser's words (the codes stay out of sight). */
export const MENU_DESCRIPTIONS: Record<MenuCode, string> = {
  REG_SET: '前台的报名入口和“我的队伍”；开放时间内可以报名，报名表填写下方选择的字段',
  QUES_AND_DATA: '前台的“赛题与数据”页：赛题说明和数据下载',
  COMP_INFO: '前台的“竞赛信息”页：基本信息中填写的竞赛信息',
  BEFORE_GUIDE: '前台的“赛前指导”页：基本信息中填写的赛前指导',
  TRAINING_PLATFORM: '前台的“训练平台”页：基本信息中填写的训练平台地址',
  CHOICE_SET: '参赛队伍在开放时间内选择赛题',
  SUBMIT_WORKS: '参赛队伍在开放时间内提交作品',
  SUBMIT_TEST: '参赛队伍在开放时间内提交测试结果，自动评分',
  GRADE_SET: '参赛者查看自己的成绩和奖项',
  CERTIFICATE_SET: '参赛者查看和下载证书',
};

/**
 * The menus a new competition starts with: registration, questions and data, and information are what every
 * competition shows first; choosing questions, submitting, grades and certificates wait until the organiser opens them.
 */
export const DEFAULT_MENUS: readonly MenuCode[] = ['REG_SET', 'QUES_AND_DATA', 'COMP_INFO'];

/** Registration setting fields (spec §3): label to field. `region` stands for province and city. */
export const REG_FIELDS = [
  { label: '姓名', name: 'userName', type: 'input' },
  { label: '身份证号', name: 'idCardNo', type: 'idCard' },
  { label: '手机号', name: 'tel', type: 'phone' },
  { label: '邮箱', name: 'email', type: 'email' },
  { label: '性别', name: 'sex', type: 'sex' },
  { label: '是否在校', name: 'atSchool', type: 'atSchool' },
  { label: '学校', name: 'organization', type: 'input' },
  { label: '院系', name: 'department', type: 'input' },
  { label: '专业', name: 'speciality', type: 'input' },
  { label: '年级', name: 'grade', type: 'input' },
  { label: '学历', name: 'education', type: 'education' },
  { label: '地区', name: 'region', type: 'region' },
  { label: '通讯地址', name: 'address', type: 'input' },
] as const;
export type RegFieldName = (typeof REG_FIELDS)[number]['name'];

/**
 * Fields the organiser adds to the form beyond spec §3's: `custom1` to `custom20`, each a text, a choice among the
 * organiser's options, or a file (PDF or picture). Their values are kept under the form's `extra`.
 */
export const CUSTOM_FIELD_TYPES = [
  { value: 'text', label: '文本' },
  { value: 'choice', label: '单选' },
  { value: 'file', label: '文件' },
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number]['value'];
export const MAX_CUSTOM_FIELDS = 20;
export type CustomFieldName = `custom${number}`;
const CUSTOM_NAME = /^custom([1-9]|1[0-9]|20)$/;
export const isCustomField = (name: string): name is CustomFieldName => CUSTOM_NAME.test(name);
/** The name of a custom field as a schema (the response's and the request's). */
export const customFieldName = z.string().regex(CUSTOM_NAME, '不支持的报名字段') as unknown as z.ZodType<CustomFieldName>;
/** The longest answer to a custom text field. */
export const CUSTOM_TEXT_MAX = 500;
/** The name the designer gives a new custom field: the first of custom1..custom20 not yet used, or null when all are. */
export function nextCustomName(used: readonly string[]): CustomFieldName | null {
  for (let i = 1; i <= MAX_CUSTOM_FIELDS; i++) if (!used.includes(`custom${i}`)) return `custom${i}`;
  return null;
}
export type PresetFieldName = RegFieldName | CustomFieldName;
/** The refusal of a form with two fields under one label (the designer's check and the server's). */
export const duplicateLabelText = (label: string) => `显示名称“${label}”重复了，参赛者将分不清`;

const fieldName = z.union([z.enum(REG_FIELDS.map((f) => f.name) as [RegFieldName, ...RegFieldName[]]), customFieldName], { error: '不支持的报名字段' });

export const presetField = z
  .strictObject({
    label: requiredText(20, '字段名称'),
    name: fieldName,
    type: z.string().max(20).optional(),
    description: text(200, '字段说明'),
    /** A choice field's options, in the order shown. */
    options: z.array(z.string().trim().min(1, '选项不能为空').max(50, '选项不能超过50个字符')).max(20, '选项最多20个').optional(),
    otherParams: z
      .strictObject({
        required: z.boolean().default(false),
        /** 学校 only: the school must be one of the platform's list (issue 36); otherwise one not listed may be written in. */
        schoolList: z.boolean().optional(),
      })
      .default({ required: false }),
  })
  .superRefine((f, ctx) => {
    if (f.otherParams.schoolList && f.name !== 'organization')
      ctx.addIssue({ code: 'custom', path: ['otherParams', 'schoolList'], message: '只有学校字段可以限定为学校名单' });
    if (!isCustomField(f.name)) {
      if (f.options?.length) ctx.addIssue({ code: 'custom', path: ['options'], message: '只有自定义单选字段可以设置选项' });
      return;
    }
    if (!CUSTOM_FIELD_TYPES.some((t) => t.value === f.type)) ctx.addIssue({ code: 'custom', path: ['type'], message: `请选择“${f.label}”的类型` });
    if (f.type === 'choice') {
      if ((f.options?.length ?? 0) < 2) ctx.addIssue({ code: 'custom', path: ['options'], message: `“${f.label}”至少需要2个选项` });
      else if (new Set(f.options).size !== f.options!.length) ctx.addIssue({ code: 'custom', path: ['options'], message: `“${f.label}”的选项不能重复` });
    } else if (f.options?.length) ctx.addIssue({ code: 'custom', path: ['options'], message: '只有单选字段可以设置选项' });
  });
export type PresetField = z.infer<typeof presetField>;

/** What an organiser sets on one menu preset; the code is named beside it (in the body or as a key of a batch). */
const presetFields = {
  name: text(20, '菜单名称'),
  enable: z.boolean({ error: '请选择是否启用' }),
  enableStartTime: isoTime.nullable().optional(),
  enableEndTime: isoTime.nullable().optional(),
  /** For 选择赛题, 提交作品 and 提交测试: the stage whose end is the deadline (null: the competition's end). */
  deadlineStageId: z.number({ error: '请选择截止阶段' }).int().positive('请选择截止阶段').nullable().optional(),
  /** For 报名, 赛题与数据, 提交作品 and 提交测试: the action is kept for people who completed 实名认证. */
  realName: z.boolean({ error: '实名要求须为是或否' }).optional(),
  fieldList: z
    .array(presetField)
    .max(REG_FIELDS.length + MAX_CUSTOM_FIELDS, '报名字段过多')
    .refine((list) => new Set(list.map((f) => f.name)).size === list.length, '报名字段不能重复')
    .superRefine((list, ctx) => {
      // Two fields under one label could not be told apart by the participants filling the form in.
      const seen = new Set<string>();
      for (const f of list) {
        if (seen.has(f.label)) ctx.addIssue({ code: 'custom', message: duplicateLabelText(f.label) });
        seen.add(f.label);
      }
    })
    .optional(),
};

function windowInOrder(v: { enableStartTime?: string | null; enableEndTime?: string | null }, ctx: z.RefinementCtx) {
  if (v.enableStartTime && v.enableEndTime && v.enableEndTime <= v.enableStartTime) {
    ctx.addIssue({ code: 'custom', path: ['enableEndTime'], message: '结束时间须晚于开始时间' });
  }
}

export const presetBody = z.strictObject({ menuCode: z.enum(MENU_CODES, { error: '未知的菜单编码' }).optional(), ...presetFields }).superRefine(windowInOrder);
export type PresetBody = z.infer<typeof presetBody>;

/**
 * Several presets of one competition saved together, keyed by menu code, so that a field error comes back under
 * `presets.<code>.<field>` beside the menu it belongs to. Codes left out stay as they are.
 */
export const presetBatchBody = z.strictObject({
  presets: z
    .partialRecord(z.enum(MENU_CODES, { error: '未知的菜单编码' }), z.strictObject(presetFields).superRefine(windowInOrder))
    .superRefine((presets, ctx) => {
      if (Object.keys(presets).length === 0) ctx.addIssue({ code: 'custom', message: '没有要保存的菜单设置' });
      for (const [code, preset] of Object.entries(presets)) {
        if (code !== 'REG_SET' && preset?.fieldList?.length)
          ctx.addIssue({ code: 'custom', path: [code, 'fieldList'], message: '只有报名设置可以配置报名字段' });
        if (preset?.deadlineStageId && !(WINDOW_KINDS as readonly string[]).includes(code)) {
          ctx.addIssue({ code: 'custom', path: [code, 'deadlineStageId'], message: '只有选择赛题、提交作品和提交测试可以设置截止阶段' });
        }
        if (preset?.realName && !isRealNameMenu(code))
          ctx.addIssue({ code: 'custom', path: [code, 'realName'], message: '只有报名、赛题与数据、提交作品和提交测试可以要求实名认证' });
      }
    }),
});
export type PresetBatchBody = z.infer<typeof presetBatchBody>;

/**
 * The query of a change of a competition's dates, stages or menus: `reopen=1` confirms that it reopens submission
 * after results were published (lifecycle.ts `reopenWarningText`); without it such a change is refused with 409 and
 * the warning under `fields.reopen`.
 */
export const reopenQuery = z.object({ reopen: z.literal('1', { error: 'reopen 只能为 1' }).optional() });
export type ReopenQuery = z.infer<typeof reopenQuery>;

export interface Preset {
  id: number;
  competitionId: number;
  menuCode: MenuCode;
  name: string;
  enable: boolean;
  enableStartTime: string | null;
  enableEndTime: string | null;
  /** The stage whose end is this menu's deadline (选择赛题, 提交作品, 提交测试), or null: the competition's end. */
  deadlineStageId: number | null;
  /** The menu's action is kept for people who completed 实名认证 (REAL_NAME_MENUS). */
  realName: boolean;
  fieldList: PresetField[];
}

/** A preset is open when enabled and, if it has a window, the moment is inside it. */
export function presetOpen(p: Pick<Preset, 'enable' | 'enableStartTime' | 'enableEndTime'>, now: Date): boolean {
  const t = now.toISOString();
  return p.enable && (!p.enableStartTime || p.enableStartTime <= t) && (!p.enableEndTime || t <= p.enableEndTime);
}

/**
 * Response schemas of the competitions module (its routes' replies, see `envelope` in common.ts). The types they
 * describe stay declared where the rest of the code has long found them (above, and lifecycle.ts, which the site's
 * first screen loads without zod); the `_…Agrees` checks below keep each schema and its type the same.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

/** A competition's phase (lifecycle.ts `competitionPhase`). */
export const competitionPhaseSchema = z.object({
  code: z.enum(Object.keys(PHASES) as [PhaseCode, ...PhaseCode[]]),
  name: z.string(),
  stageName: z.string().nullable(),
  registrationEnd: z.string(),
  submissionDeadline: z.string(),
  next: z.object({ label: z.string(), at: z.string() }).nullable(),
});
const _phaseAgrees: Same<z.infer<typeof competitionPhaseSchema>, CompetitionPhase> = true;
void _phaseAgrees;

export const competitionListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  brandId: z.number().int(),
  brandShortName: z.string(),
  typeId: z.number().int().nullable(),
  typeName: z.string().nullable(),
  orgId: z.number().int(),
  orgName: z.string(),
  cover: z.string().nullable(),
  summary: z.string().nullable(),
  regStartTime: z.string(),
  regEndTime: z.string(),
  endTime: z.string(),
  fee: z.number().int(),
  /** AUDIT_STATUS. */
  auditStatus: z.literal([0, 1, 2, 3, 4]),
  /** The public list's status (spec §4). */
  status: z.literal([1, 2, 3, 4]),
  teamNum: z.number().int(),
});
const _listItemAgrees: Same<z.infer<typeof competitionListItemSchema>, CompetitionListItem> = true;
void _listItemAgrees;

/** A row of the public and the back office's lists: the item with its phase, for the cards and the phase tag. */
export const competitionListEntrySchema = competitionListItemSchema.extend({ phase: competitionPhaseSchema });

export const competitionSchema = competitionListItemSchema.extend({
  introduce: z.string().nullable(),
  information: z.string().nullable(),
  guide: z.string().nullable(),
  trainingUrl: z.string().nullable(),
  allowIndividual: z.boolean(),
  invoiceEnable: z.boolean(),
  minMembers: z.number().int(),
  maxMembers: z.number().int(),
  maxTeachers: z.number().int(),
  worksMaxMb: z.number().int(),
  worksTypes: z.string(),
  eligibility: eligibilityReplySchema,
  auditReply: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const _competitionAgrees: Same<z.infer<typeof competitionSchema>, Competition> = true;
void _competitionAgrees;

export const stageSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  sort: z.number().int(),
});
const _stageAgrees: Same<z.infer<typeof stageSchema>, Stage> = true;
void _stageAgrees;

/** `GET /api/competition/public/{id}`: the competition with its stages, its active stage (0: none yet) and its phase. */
export const competitionDetailSchema = competitionSchema.extend({
  stages: z.array(stageSchema),
  activeStageId: z.number().int(),
  phase: competitionPhaseSchema,
});
export type CompetitionDetail = z.infer<typeof competitionDetailSchema>;

export const presetFieldSchema = z.object({
  label: z.string(),
  name: z.union([z.enum(REG_FIELDS.map((f) => f.name) as [RegFieldName, ...RegFieldName[]]), customFieldName]),
  type: z.string().optional(),
  description: z.string().nullish(),
  options: z.array(z.string()).optional(),
  otherParams: z.object({ required: z.boolean(), schoolList: z.boolean().optional() }),
});
const _presetFieldAgrees: Same<z.infer<typeof presetFieldSchema>, PresetField> = true;
void _presetFieldAgrees;

export const presetSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  menuCode: z.enum(MENU_CODES),
  name: z.string(),
  enable: z.boolean(),
  enableStartTime: z.string().nullable(),
  enableEndTime: z.string().nullable(),
  deadlineStageId: z.number().int().nullable(),
  realName: z.boolean(),
  fieldList: z.array(presetFieldSchema),
});
const _presetAgrees: Same<z.infer<typeof presetSchema>, Preset> = true;
void _presetAgrees;

/** `PUT /api/competition/audit/{id}`: what the approval did to the competition's questions. */
export const approveResultSchema = z.object({
  /** Questions approved with the competition: those that can be scored. */
  questionsApproved: z.array(z.number().int()),
  /** Questions still waiting for their own review (no evaluation or no answer file yet). */
  questionsWaiting: z.array(z.number().int()),
});
export type ApproveResult = z.infer<typeof approveResultSchema>;
