import { z } from 'zod';
import { pageQuery } from './common.ts';
import { requiredText, text } from './fields.ts';

// ---- Review rules ------------------------------------------------------------------------------------------------

/** Response schemas (what a route may send; see `envelope` in common.ts) and their types come from the same zod objects. */
export const criterionSchema = z.object({
  /** Stable within the question's rule: scores refer to it. */
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Also what the criterion weighs: a judge's total adds the points up, so a 60-point criterion counts 1.5 times a 40-point one. */
  maxScore: z.number().int(),
});
export type Criterion = z.infer<typeof criterionSchema>;

/** How the scores of a work's judges combine: the mean, or the mean after dropping the highest and the lowest. */
export const AGGREGATIONS = ['mean', 'trimmed'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const AGGREGATION_NAMES: Record<Aggregation, string> = { mean: '取平均分', trimmed: '去掉最高分和最低分后取平均' };

/** Where a question's grades stand: nothing computed, computed (a preview), confirmed (locked and shown to teams). */
export const GRADE_STATE = { none: 0, calculated: 1, confirmed: 2 } as const;
export const GRADE_STATE_TEXT: Record<number, string> = { 0: '未计算', 1: '已计算，待确认', 2: '已确认' };

export const reviewRuleSchema = z.object({
  questionId: z.number().int(),
  criteria: z.array(criterionSchema),
  judgesPerWork: z.number().int(),
  aggregation: z.enum(AGGREGATIONS),
  /** Percent of the final score from the review; the rest comes from the automatic test score (private board). */
  reviewWeight: z.number().int(),
  testWeight: z.number().int(),
  blind: z.boolean(),
  /** Days after the grades are confirmed during which a team may dispute its grade; 0 allows none. */
  disputeDays: z.number().int(),
  gradeState: z.number().int(),
  confirmedAt: z.string().nullable(),
  /** Whether any judge has saved a score: the criteria are then fixed. */
  scored: z.boolean(),
});
export type ReviewRule = z.infer<typeof reviewRuleSchema>;

const criterionBody = z.strictObject({
  id: z.string().trim().max(20).regex(/^[A-Za-z0-9_-]*$/, '评审标准编号无效').optional(),
  name: requiredText(50, '评审标准名称'),
  description: text(500, '评审标准说明'),
  maxScore: z.number({ error: '满分须为数字' }).int('满分须为整数').min(1, '满分至少为1').max(1000, '满分至多为1000'),
});

export const reviewRuleBody = z
  .strictObject({
    criteria: z.array(criterionBody, { error: '请填写评审标准' }).min(1, '请至少填写一项评审标准').max(20, '评审标准至多20项'),
    judgesPerWork: z.number({ error: '每份作品的评审人数须为整数' }).int('每份作品的评审人数须为整数').min(1, '每份作品至少由1位专家评审').max(9, '每份作品至多由9位专家评审'),
    aggregation: z.enum(AGGREGATIONS, { error: '请选择评分合成方式' }),
    reviewWeight: z.number({ error: '评审成绩权重须为整数' }).int('评审成绩权重须为整数').min(0, '权重不能小于0').max(100, '权重不能大于100'),
    testWeight: z.number({ error: '测试成绩权重须为整数' }).int('测试成绩权重须为整数').min(0, '权重不能小于0').max(100, '权重不能大于100'),
    blind: z.boolean({ error: '请选择是否盲评' }),
    disputeDays: z.number({ error: '申诉期须为整数天数' }).int('申诉期须为整数天数').min(0, '申诉期不能小于0天').max(30, '申诉期至多30天'),
  })
  .superRefine((v, c) => {
    if (v.reviewWeight + v.testWeight !== 100) c.addIssue({ code: 'custom', path: ['testWeight'], message: '评审成绩与测试成绩的权重之和须为100' });
    if (v.aggregation === 'trimmed' && v.judgesPerWork < 3) c.addIssue({ code: 'custom', path: ['aggregation'], message: '去掉最高分和最低分至少需要3位专家评审' });
    const names = v.criteria.map((x) => x.name);
    if (new Set(names).size !== names.length) c.addIssue({ code: 'custom', path: ['criteria'], message: '评审标准名称不能重复' });
  });
export type ReviewRuleBody = z.infer<typeof reviewRuleBody>;

/** The most a judge's total can be: the criteria's maxima added up. */
export const maxTotal = (criteria: Pick<Criterion, 'maxScore'>[]): number => criteria.reduce((sum, c) => sum + c.maxScore, 0);

/**
 * A judge's total for one work: the criteria's points added up, out of `maxTotal` (a 60- and a 40-point criterion
 * scored 50 and 30 make 80 / 100). Null until every criterion has a score.
 */
export function judgeTotal(criteria: Pick<Criterion, 'id'>[], scores: Record<string, number | null | undefined>): number | null {
  let sum = 0;
  for (const c of criteria) {
    const s = scores[c.id];
    if (s === null || s === undefined) return null;
    sum += s;
  }
  return criteria.length ? round2(sum) : null;
}

/** A judge's total as the back office and the review centre show it: "80 / 100". */
export const totalText = (total: number | null, max: number): string => `${total === null ? '—' : String(round2(total))} / ${max}`;

/** Scores are kept to two decimals; a tolerance, since 8.7 × 100 is not exactly 870 in floating point. */
const hasAtMostTwoDecimals = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;

/**
 * Why a judge's score for a criterion is refused, or null when it is fine (or missing: whether a score is required
 * depends on saving a draft or submitting). A score is a number from 0 to the criterion's maximum, two decimals at most.
 */
export function scoreError(criterion: Pick<Criterion, 'name' | 'maxScore'>, score: unknown): string | null {
  if (score === null || score === undefined || score === '') return null;
  const name = `“${criterion.name}”`;
  if (typeof score !== 'number' || !Number.isFinite(score)) return `${name}的分数须为数字`;
  if (score < 0) return `${name}的分数不能小于0`;
  if (score > criterion.maxScore) return `${name}的分数不能超过${criterion.maxScore}`;
  if (!hasAtMostTwoDecimals(score)) return `${name}的分数至多保留两位小数`;
  return null;
}

/** How the combined review score is made, in the words the back office shows beside it. */
export const REVIEW_SCORE_RULE: Record<Aggregation, string> = {
  mean: '评审成绩 = 各评委总分 ÷ 满分 × 100 的平均',
  trimmed: '评审成绩 = 各评委总分 ÷ 满分 × 100，去掉一个最高分和一个最低分后的平均（不足3位评委时取全部的平均）',
};

/**
 * The review score of a work, out of 100 so that it combines with the test score: each judge's total as a share of
 * `max`, times 100, then combined by the rule. Judges' totals are plain sums; only here are they put on 100.
 */
export function reviewScore(totals: number[], max: number, how: Aggregation): number | null {
  return max > 0 ? aggregate(totals.map((t) => (t / max) * 100), how) : null;
}

/** Combines judges' scores: the mean, or the mean after dropping the highest and the lowest (needs at least three). */
export function aggregate(totals: number[], how: Aggregation): number | null {
  if (!totals.length) return null;
  const sorted = [...totals].sort((a, b) => a - b);
  const kept = how === 'trimmed' && sorted.length >= 3 ? sorted.slice(1, -1) : sorted;
  return round2(kept.reduce((a, b) => a + b, 0) / kept.length);
}

/**
 * The test score as points out of 100, relative to the best team: score / best for metrics where higher is better,
 * best / score where lower is better (a perfect 0 error scores 100).
 */
export function testPoints(score: number | null, best: number | null, higherIsBetter: boolean): number | null {
  if (score === null || best === null) return null;
  if (higherIsBetter) return best > 0 ? round2(Math.max(0, (score / best) * 100)) : 0;
  if (score <= 0) return 100;
  return round2((best / score) * 100);
}

/** How the final score is made, in the words the back office shows beside it. */
export function finalScoreRule(rule: Pick<ReviewRule, 'reviewWeight' | 'testWeight'>): string {
  if (!rule.testWeight) return '最终成绩 = 评审成绩';
  if (!rule.reviewWeight) return '最终成绩 = 测试得分';
  return `最终成绩 = 评审成绩 × ${rule.reviewWeight}% + 测试得分 × ${rule.testWeight}%`;
}

export function finalScore(review: number | null, test: number | null, rule: Pick<ReviewRule, 'reviewWeight' | 'testWeight'>): number | null {
  if (rule.reviewWeight > 0 && review === null) return null;
  return round2(((review ?? 0) * rule.reviewWeight + (test ?? 0) * rule.testWeight) / 100);
}

export const round2 = (v: number) => Math.round(v * 100 + Number.EPSILON * 100) / 100;

// ---- Expert judges -----------------------------------------------------------------------------------------------

export const expertSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  userName: z.string().nullable(),
  organization: z.string(),
  speciality: z.string().nullable(),
  title: z.string().nullable(),
  /** Questions whose judge list names this expert, and works assigned / submitted across them. */
  questions: z.number().int(),
  assigned: z.number().int(),
  submitted: z.number().int(),
  createdAt: z.string(),
  /** In the platform's shared pool (added by the platform), not an organisation's own. */
  platform: z.boolean(),
  /** Whether the caller may change or remove the expert: the platform any, an organiser only its organisation's. */
  canEdit: z.boolean(),
});
export type Expert = z.infer<typeof expertSchema>;

export const expertBody = z.strictObject({
  organization: requiredText(100, '所在单位'),
  speciality: text(100, '专业领域'),
  title: text(50, '职称'),
});
export const newExpertBody = expertBody.extend({ username: requiredText(50, '用户名') });
export const expertPageQuery = pageQuery.extend({ keyword: z.string().trim().max(100).optional() });

export const questionJudgeSchema = expertSchema.pick({ userId: true, username: true, userName: true, organization: true, speciality: true, title: true, assigned: true, submitted: true });
export type QuestionJudge = z.infer<typeof questionJudgeSchema>;
export const judgesBody = z.strictObject({ userIds: z.array(z.number().int().positive(), { error: '请选择评审专家' }).min(1, '请选择评审专家').max(100) });

// ---- Assignments and scores ----------------------------------------------------------------------------------------

export const ASSIGNMENT_STATUS = { pending: 0, draft: 1, submitted: 2 } as const;
export const ASSIGNMENT_STATUS_TEXT: Record<number, string> = { 0: '未评', 1: '草稿', 2: '已提交' };

export const criterionScoreSchema = z.object({
  criterionId: z.string(),
  score: z.number().nullable(),
  comment: z.string().nullable(),
});
export type CriterionScore = z.infer<typeof criterionScoreSchema>;

/** One work given to one judge, as the back office sees it. */
export const assignmentSchema = z.object({
  id: z.number().int(),
  questionId: z.number().int(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  judgeId: z.number().int(),
  judgeUsername: z.string(),
  judgeName: z.string().nullable(),
  code: z.string(),
  status: z.number().int(),
  /** The judge's total (points added up), out of `maxTotal`. */
  total: z.number().nullable(),
  maxTotal: z.number().int(),
  rereview: z.boolean(),
  updatedAt: z.string(),
  submittedAt: z.string().nullable(),
  /** The version the submitted score is for, and the team's counting version now: they differ only while given back. */
  scoredVersion: z.number().int().nullable(),
  currentVersion: z.number().int().nullable(),
});
export type Assignment = z.infer<typeof assignmentSchema>;

/**
 * `POST /api/review/works/{questionId}`'s query: `early=1` confirms assigning while works can still be submitted
 * (lifecycle.ts `earlyAssignWarning`); without it that is refused with 409 and the warning under `fields.early`.
 */
export const assignQuery = z.object({ early: z.literal('1', { error: 'early 只能为 1' }).optional() });

export const assignResultSchema = z.object({
  created: z.number().int(),
  /** Works that still lack judges, because too few judges are free of a conflict of interest. */
  short: z.array(z.object({ teamId: z.number().int(), teamNo: z.string(), missing: z.number().int() })),
});
export type AssignResult = z.infer<typeof assignResultSchema>;

export const reassignBody = z.strictObject({ judgeId: z.number({ error: '请选择评审专家' }).int().positive('请选择评审专家') });
export const assignmentPageQuery = pageQuery.extend({
  judgeId: z.coerce.number().int().positive().optional(),
  status: z.coerce.number().int().min(0).max(2).optional(),
  keyword: z.string().trim().max(100).optional(),
  export: z.enum(['xlsx']).optional(),
});
export type AssignmentPageQuery = z.infer<typeof assignmentPageQuery>;

/** What the review centre lists: the judge's questions with progress. */
export const reviewTaskSchema = z.object({
  competitionId: z.number().int(),
  competitionName: z.string(),
  questionId: z.number().int(),
  questionTitle: z.string(),
  total: z.number().int(),
  submitted: z.number().int(),
  blind: z.boolean(),
});
export type ReviewTask = z.infer<typeof reviewTaskSchema>;

/** A work as its judge sees it: team details only when the review is not blind. */
export const reviewWorkSchema = z.object({
  id: z.number().int(),
  questionId: z.number().int(),
  questionTitle: z.string(),
  competitionName: z.string(),
  code: z.string(),
  status: z.number().int(),
  /** The judge's total (points added up), out of `maxTotal`. */
  total: z.number().nullable(),
  maxTotal: z.number().int(),
  rereview: z.boolean(),
  fileName: z.string().nullable(),
  size: z.number().int().nullable(),
  /** The version given to the judge: the team's counting (last) version, its number and when it was uploaded. */
  workId: z.number().int().nullable(),
  version: z.number().int().nullable(),
  uploadedAt: z.string().nullable(),
  /** The version the judge's submitted score was for, when an earlier one than `version` (the task was given back). */
  scoredVersion: z.number().int().nullable(),
  team: z.object({ teamName: z.string(), members: z.array(z.string()), schools: z.array(z.string()) }).nullable(),
  updatedAt: z.string(),
});
export type ReviewWork = z.infer<typeof reviewWorkSchema>;

export const reviewWorkDetailSchema = reviewWorkSchema.extend({
  criteria: z.array(criterionSchema),
  scores: z.array(criterionScoreSchema),
  comment: z.string().nullable(),
});
export type ReviewWorkDetail = z.infer<typeof reviewWorkDetailSchema>;

export const scoreBody = z.strictObject({
  scores: z
    .array(
      z.strictObject({
        criterionId: z.string().max(20),
        // The range (0 to the criterion's maximum) is checked against the rule, by `scoreError`, naming the criterion.
        score: z.number({ error: '分数须为数字' }).nullable(),
        comment: text(1000, '评语'),
      }),
    )
    .max(20),
  comment: text(2000, '总评'),
  /** false saves a draft; true submits, after which only the organiser can reopen it. */
  submit: z.boolean().default(false),
  /** The version the judge looked at (`ReviewWork.workId`): a submission for another than the counting one is refused. */
  workId: z.number().int().positive().nullable().optional(),
});
export type ScoreBody = z.infer<typeof scoreBody>;

/** A judge's submission for a version the team has since replaced: what the judge is told. */
export const newVersionRefusal = (version: number) => `队伍已上传新版本（第 ${version} 版），请下载新版本查看后再提交评分`;
export const reviewWorksQuery = z.object({ questionId: z.coerce.number().int().positive('请选择赛题') });

// ---- Certificates --------------------------------------------------------------------------------------------------

export const CERT_FIELDS = ['name', 'team', 'members', 'school', 'award', 'question', 'competition', 'organizer', 'certNo', 'date', 'wording', 'qrcode'] as const;
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
/** The short verification code printed with the number (8 characters of this alphabet, printed as XXXX-XXXX). */
export const CERT_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const CERT_SAMPLE_CODE = '7KQ2-M9XD';
/** How a typed number or code is compared: case and spaces or dashes do not matter. */
export const normalizeCertInput = (s: string) => s.replace(/[\s\-‐-―－_]/g, '').toUpperCase();
/** What a field prints when its template gives no wording of its own: `{}` is the value. */
export const CERT_DEFAULT_TEXT: Partial<Record<CertField, string>> = { certNo: '证书编号：{}', members: '队伍成员：{}', team: '队伍：{}', wording: '特发此证，以资鼓励。' };
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
export const CERT_BUILTIN_SIZE: Record<CertBuiltinLayout, { width: number; height: number }> = { landscape: { width: 842, height: 595 }, portrait: { width: 595, height: 842 } };
export const builtinLayoutOf = (uri: string | null | undefined): CertBuiltinLayout | null => {
  const name = uri?.startsWith(CERT_BUILTIN_PREFIX) ? uri.slice(CERT_BUILTIN_PREFIX.length) : null;
  return (CERT_BUILTIN_LAYOUTS as readonly string[]).includes(name ?? '') ? (name as CertBuiltinLayout) : null;
};
const F = (field: CertField, x: number, y: number, size: number, color: string, align: CertAlign = 'left', text?: string): CertFieldPlacement => ({ field, x, y, size, color, align, ...(text !== undefined ? { text } : {}) });
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
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, '颜色须为#RRGGBB格式').default('#000000'),
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
export const certListQuery = z.object({ competitionId: z.coerce.number({ error: '竞赛编号须为正整数' }).int('竞赛编号须为正整数').positive('竞赛编号须为正整数').optional() });
/** `GET upload/{questionId}`: one of the question's certificate uploads; without `fileUri`, its template's background. */
export const certUploadQuery = z.object({ fileUri: z.string().min(1, '请指定文件').max(200).optional() });
export const verifyQuery = z.object({ code: z.string().trim().max(64).default('') });

