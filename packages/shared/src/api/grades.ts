import { z } from 'zod';
import { pageQuery } from './common.ts';
import { requiredText } from './fields.ts';
import type { OpenSubmission } from '../lifecycle.ts';
import { JUDGING, type Judging } from './questions.ts';
import { REVIEW_SCORE_RULE, type Aggregation } from './review.ts';

/** Grades (judges' totals with the private test board), and the teams' disputes of them (spec /api/review/works/*). */

/** Response schemas (what a route may send; see `envelope` in common.ts) and their types come from the same zod objects. */
export const gradeSchema = z.object({
  questionId: z.number().int(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  /** The team's group (issue 36: each group ranked on its own) and the school it is counted under. */
  groupName: z.string().nullable(),
  schoolName: z.string().nullable(),
  /** Each submitted judge total, points added up out of `maxTotal` (names are not shown to teams). */
  reviewScores: z.array(z.number()),
  maxTotal: z.number().int(),
  /** Out of 100: see `reviewScore()`. */
  reviewScore: z.number().nullable(),
  judgesDone: z.number().int(),
  judgesTotal: z.number().int(),
  testScore: z.number().nullable(),
  testPoints: z.number().nullable(),
  finalScore: z.number().nullable(),
  rank: z.number().int().nullable(),
  awardId: z.number().int().nullable(),
  awardName: z.string().nullable(),
  awardManual: z.boolean(),
});
export type Grade = z.infer<typeof gradeSchema>;

export const gradeSummarySchema = z.object({
  gradeState: z.number().int(),
  calculatedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  /** Judges that still have works to score. */
  unfinished: z.array(z.object({ judgeId: z.number().int(), username: z.string(), userName: z.string().nullable(), pending: z.number().int() })),
});
export type GradeSummary = z.infer<typeof gradeSummarySchema>;

/** A submission window still open (or still to open): `OpenSubmission` of lifecycle.ts (which stays zod-free) as a reply carries it. */
export const openSubmissionSchema = z.object({
  kind: z.enum(['SUBMIT_WORKS', 'SUBMIT_TEST', 'CHOICE_SET']),
  name: z.string(),
  end: z.string(),
}) satisfies z.ZodType<OpenSubmission>;

/** `grade/summary/{id}`: the summary with the submission window still open, if any (the grade, award and certificate pages). */
export const gradeOverviewSchema = gradeSummarySchema.extend({
  submissionOpen: openSubmissionSchema.nullable(),
  /** How the question's result is made (questions.ts `JUDGING`): which parts its grades have. */
  judging: z.enum(JUDGING),
});
export type GradeOverview = z.infer<typeof gradeOverviewSchema>;

export const gradePageQuery = pageQuery.extend({ keyword: z.string().trim().max(100).optional(), groupName: z.string().trim().max(20).optional() });

export const DISPUTE_STATUS = { pending: 0, answered: 1 } as const;
export const DISPUTE_STATUS_TEXT: Record<number, string> = { 0: '待答复', 1: '已答复' };

export const disputeSchema = z.object({
  id: z.number().int(),
  questionId: z.number().int(),
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  username: z.string(),
  reason: z.string(),
  status: z.number().int(),
  answer: z.string().nullable(),
  rereview: z.boolean(),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
  /** 'dispute': the team's own; 'objection': a verified user's about the team's line of the 公示 list (issue 38). */
  kind: z.enum(['dispute', 'objection']),
  /** An objection's evidence (a private file its staff read), and the objector's verified name. */
  attachment: z.string().nullable(),
  objectorName: z.string().nullable(),
});
export type Dispute = z.infer<typeof disputeSchema>;

/**
 * How a question's final score is made, in the words a participant reads beside its parts (issue 33): by its judging
 * and, where experts judge, by its rule's weights and how judges' totals combine.
 */
export function gradeFormula(judging: Judging, rule: { reviewWeight: number; testWeight: number; aggregation: Aggregation }): string {
  const review = REVIEW_SCORE_RULE[rule.aggregation];
  if (judging === 'auto')
    return '最终成绩 = 私榜得分：队伍选定的提交中私榜得分最好的一次（未选定时，取公榜得分最好的一次提交的私榜得分），按评分指标的方向排名';
  if (judging === 'review' || !rule.testWeight) return `最终成绩 = 评审成绩；${review}`;
  const test = '测试得分 = 私榜得分相对私榜第一名折算的百分制（第一名为100）';
  if (!rule.reviewWeight) return `最终成绩 = 测试得分；${test}`;
  return `最终成绩 = 评审成绩 × ${rule.reviewWeight}% + 测试得分 × ${rule.testWeight}%；${review}；${test}`;
}

/** A team's own grade on one question, shown on the `grade` tab. */
export const myGradeSchema = z.object({
  questionId: z.number().int(),
  questionTitle: z.string(),
  /** How the question's result is made (questions.ts `JUDGING`), and its final score in words (`gradeFormula`). */
  judging: z.enum(JUDGING),
  formula: z.string(),
  /** A dispute sent the work back for re-review: the numbers are hidden until the grades are confirmed again. */
  rechecking: z.boolean(),
  reviewScore: z.number().nullable(),
  testScore: z.number().nullable(),
  /** The test score as points out of 100 against the best team (a question of both parts). */
  testPoints: z.number().nullable(),
  finalScore: z.number().nullable(),
  rank: z.number().int().nullable(),
  /** Teams with a final score in the team's group (the whole question where it has no groups). */
  teams: z.number().int(),
  groupName: z.string().nullish(),
  awardName: z.string().nullable(),
  confirmedAt: z.string(),
  disputeUntil: z.string().nullable(),
  dispute: disputeSchema.nullable(),
});
export type MyGrade = z.infer<typeof myGradeSchema>;

export const disputeBody = z.strictObject({ reason: requiredText(1000, '申诉理由') });
export const disputeAnswerBody = z.strictObject({
  answer: requiredText(1000, '答复内容'),
  /** A judge who has not reviewed the work yet, to review it again. */
  rereviewJudgeId: z.number().int().positive().nullable().optional(),
});

/** `grade/schools/{id}`: the question's results grouped by the teams' school (issue 36), most awarded first. */
export const schoolResultSchema = z.object({
  /** Null: teams that named no school. */
  schoolName: z.string().nullable(),
  teams: z.number().int(),
  awarded: z.number().int(),
  /** The school's best rank on the question (within groups, where the competition has them). */
  bestRank: z.number().int().nullable(),
  awards: z.array(z.object({ awardName: z.string(), count: z.number().int() })),
});
export type SchoolResult = z.infer<typeof schoolResultSchema>;
