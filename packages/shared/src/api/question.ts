import { z } from 'zod';
import type { PublicQuestion } from './catalogue.ts';
import { pageQuery } from './common.ts';
import { html, requiredText, sort } from './fields.ts';

/** Metrics of automatic scoring (issue 5). */
export const METRICS = ['accuracy', 'macroF1', 'auc', 'rmse', 'mae', 'mape', 'logLoss'] as const;
export type Metric = (typeof METRICS)[number];
export const METRIC_NAMES: Record<Metric, string> = {
  accuracy: '准确率（Accuracy）',
  macroF1: '宏平均F1（Macro-F1）',
  auc: 'AUC',
  rmse: '均方根误差（RMSE）',
  mae: '平均绝对误差（MAE）',
  mape: '平均绝对百分比误差（MAPE）',
  logLoss: '对数损失（Log-loss）',
};
/** Whether a higher score is better, for ranking a leaderboard. */
export const HIGHER_IS_BETTER: Record<Metric, boolean> = { accuracy: true, macroF1: true, auc: true, rmse: false, mae: false, mape: false, logLoss: false };

export const evaluationBody = z.strictObject({
  metric: z.enum(METRICS, { error: '请选择评分指标' }),
  idColumn: requiredText(64, '编号列名'),
  targetColumn: requiredText(64, '目标列名'),
  /** Share of the answer rows behind the public leaderboard, in percent. */
  publicPercent: z.number({ error: '公榜比例须为整数' }).int('公榜比例须为整数').min(1, '公榜比例至少为1%').max(99, '公榜比例至多为99%'),
  dailyLimit: z.number({ error: '每日提交次数须为整数' }).int('每日提交次数须为整数').min(1, '每日提交次数至少为1').max(100, '每日提交次数至多为100'),
});
export type EvaluationBody = z.infer<typeof evaluationBody>;

export const questionBody = z.strictObject({
  title: requiredText(200, '赛题名称'),
  content: html('赛题描述'),
  sort,
  evaluation: evaluationBody.nullable().optional(),
});
export type QuestionBody = z.infer<typeof questionBody>;

/** A question's evaluation setting as replies carry it. */
export const evaluationSchema = z.object({
  metric: z.enum(METRICS),
  idColumn: z.string(),
  targetColumn: z.string(),
  publicPercent: z.number().int(),
  dailyLimit: z.number().int(),
});

/** A public data file of a question, in its order. */
export const questionFileSchema = z.object({ fileUri: z.string(), name: z.string(), size: z.number().int() });

/** A question as its organisers see it; the answer file itself never leaves the server. */
export const managedQuestionSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  competitionName: z.string(),
  title: z.string(),
  content: z.string().nullable(),
  sort: z.number().int(),
  reviewed: z.boolean(),
  creatorId: z.number().int().nullable(),
  creatorName: z.string().nullable(),
  evaluation: evaluationSchema.nullable(),
  /** Rows in the answer file, or null when none is uploaded. */
  answerRows: z.number().int().nullable(),
  /** Public data files, in their order. */
  files: z.array(questionFileSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ManagedQuestion = z.infer<typeof managedQuestionSchema>;

/**
 * A reviewed question as participants read it (`PublicQuestion`, declared in catalogue.ts beside the competition's
 * other public reads; `_publicQuestionAgrees` keeps the two the same).
 */
export const publicQuestionSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  title: z.string(),
  content: z.string().nullable(),
  files: z.array(questionFileSchema),
});
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _publicQuestionAgrees: Same<z.infer<typeof publicQuestionSchema>, PublicQuestion> = true;
void _publicQuestionAgrees;

/** `POST /api/competition/question/{id}/answer`: the rows read from the answer file. */
export const answerUploadSchema = z.object({ rows: z.number().int() });

export const questionPageQuery = pageQuery.extend({
  competitionId: z.coerce.number().int().positive().optional(),
  keyword: z.string().trim().max(100).optional(),
  reviewed: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(1).optional()),
});
export type QuestionPageQuery = z.infer<typeof questionPageQuery>;

export const creatorBody = z.strictObject({ creatorId: z.number({ error: '请选择出题人' }).int().positive() });
export const reviewBody = z.strictObject({ reviewed: z.boolean({ error: '请选择审核结果' }) });
export const choiceBody = z.strictObject({ questionId: z.number({ error: '请选择赛题' }).int().positive() });
