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
  id: z
    .string()
    .trim()
    .max(20)
    .regex(/^[A-Za-z0-9_-]*$/, '评审标准编号无效')
    .optional(),
  name: requiredText(50, '评审标准名称'),
  description: text(500, '评审标准说明'),
  maxScore: z.number({ error: '满分须为数字' }).int('满分须为整数').min(1, '满分至少为1').max(1000, '满分至多为1000'),
});

export const reviewRuleBody = z
  .strictObject({
    criteria: z.array(criterionBody, { error: '请填写评审标准' }).min(1, '请至少填写一项评审标准').max(20, '评审标准至多20项'),
    judgesPerWork: z
      .number({ error: '每份作品的评审人数须为整数' })
      .int('每份作品的评审人数须为整数')
      .min(1, '每份作品至少由1位专家评审')
      .max(9, '每份作品至多由9位专家评审'),
    aggregation: z.enum(AGGREGATIONS, { error: '请选择评分合成方式' }),
    reviewWeight: z.number({ error: '评审成绩权重须为整数' }).int('评审成绩权重须为整数').min(0, '权重不能小于0').max(100, '权重不能大于100'),
    testWeight: z.number({ error: '测试成绩权重须为整数' }).int('测试成绩权重须为整数').min(0, '权重不能小于0').max(100, '权重不能大于100'),
    blind: z.boolean({ error: '请选择是否盲评' }),
    disputeDays: z.number({ error: '申诉期须为整数天数' }).int('申诉期须为整数天数').min(0, '申诉期不能小于0天').max(30, '申诉期至多30天'),
  })
  .superRefine((v, c) => {
    if (v.reviewWeight + v.testWeight !== 100) c.addIssue({ code: 'custom', path: ['testWeight'], message: '评审成绩与测试成绩的权重之和须为100' });
    if (v.aggregation === 'trimmed' && v.judgesPerWork < 3)
      c.addIssue({ code: 'custom', path: ['aggregation'], message: '去掉最高分和最低分至少需要3位专家评审' });
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
  return max > 0
    ? aggregate(
        totals.map((t) => (t / max) * 100),
        how,
      )
    : null;
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

export const questionJudgeSchema = expertSchema.pick({
  userId: true,
  username: true,
  userName: true,
  organization: true,
  speciality: true,
  title: true,
  assigned: true,
  submitted: true,
});
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
  /** Works kept from judges by 查重 until the organiser decides (issue 37). */
  held: z.number().int(),
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
