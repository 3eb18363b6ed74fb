import { z } from 'zod';
import { text } from './fields.ts';
import { criterionSchema, criterionScoreSchema } from './review.ts';

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
