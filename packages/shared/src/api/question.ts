import { z } from 'zod';
import type { PublicQuestion } from './catalogue.ts';
import { pageQuery } from './common.ts';
import { html, requiredText, sort } from './fields.ts';

/**
 * Metrics of automatic scoring (issues 5 and 21), each equal to scikit-learn 1.2 (server/test/metrics.test.ts).
 * Zod-free, so the web shows names, directions and definitions from the same table.
 */
export const METRICS = [
  'accuracy',
  'balancedAccuracy',
  'macroF1',
  'microF1',
  'weightedF1',
  'f1',
  'precision',
  'recall',
  'mcc',
  'qwk',
  'auc',
  'gini',
  'averagePrecision',
  'logLoss',
  'multiLogLoss',
  'multiAuc',
  'rmse',
  'mae',
  'mape',
  'rmsle',
  'r2',
  'medae',
  'smape',
  'mapAtK',
] as const;
export type Metric = (typeof METRICS)[number];

/**
 * What a prediction holds: a class label; an integer grade; the probability of the positive class (truth 0 or 1); one
 * probability per class, in a column named by the class label; a number; a space-separated ordered list of item ids.
 */
export type MetricKind = 'label' | 'grade' | 'probability' | 'classProbabilities' | 'number' | 'ranking';
export interface MetricInfo {
  name: string;
  higherIsBetter: boolean;
  kind: MetricKind;
  /** One line, shown in the question editor and on the test tab. */
  definition: string;
  /** The evaluation's setting the metric reads besides the columns. */
  option?: 'positiveLabel' | 'k';
}
export const METRIC_INFO: Record<Metric, MetricInfo> = {
  accuracy: { name: '准确率（Accuracy）', higherIsBetter: true, kind: 'label', definition: '预测类别与真实类别相同的行所占比例' },
  balancedAccuracy: { name: '平衡准确率（Balanced Accuracy）', higherIsBetter: true, kind: 'label', definition: '真实值中每个类别的召回率的平均值，不受类别不平衡影响' },
  macroF1: { name: '宏平均F1（Macro-F1）', higherIsBetter: true, kind: 'label', definition: '每个类别（真实值或预测值中出现的）F1的算术平均' },
  microF1: { name: '微平均F1（Micro-F1）', higherIsBetter: true, kind: 'label', definition: '所有类别合计的TP、FP、FN算出的F1，单标签多分类时等于准确率' },
  weightedF1: { name: '加权F1（Weighted-F1）', higherIsBetter: true, kind: 'label', definition: '每个类别的F1按其在真实值中的行数加权平均' },
  f1: { name: 'F1（二分类）', higherIsBetter: true, kind: 'label', definition: '正类的F1：2·TP/(2·TP+FP+FN)，正类标签在评分设置中指定', option: 'positiveLabel' },
  precision: { name: '精确率（Precision）', higherIsBetter: true, kind: 'label', definition: '预测为正类的行中真实为正类的比例：TP/(TP+FP)', option: 'positiveLabel' },
  recall: { name: '召回率（Recall）', higherIsBetter: true, kind: 'label', definition: '真实为正类的行中被预测为正类的比例：TP/(TP+FN)', option: 'positiveLabel' },
  mcc: { name: '马修斯相关系数（MCC）', higherIsBetter: true, kind: 'label', definition: '由混淆矩阵算出的真实值与预测值的相关系数，取值-1到1' },
  qwk: { name: '二次加权Kappa（QWK）', higherIsBetter: true, kind: 'grade', definition: '整数等级的一致性，偏差按等级序号之差的平方加权，1为完全一致' },
  auc: { name: 'AUC', higherIsBetter: true, kind: 'probability', definition: 'ROC曲线下面积：随机取一正一负样本，正样本得分更高的概率（并列计一半）' },
  gini: { name: '基尼系数（Gini）', higherIsBetter: true, kind: 'probability', definition: '2·AUC−1' },
  averagePrecision: { name: '平均精度（Average Precision）', higherIsBetter: true, kind: 'probability', definition: '按得分从高到低，各阈值处精确率以召回率增量加权之和' },
  logLoss: { name: '对数损失（Log-loss）', higherIsBetter: false, kind: 'probability', definition: '−mean(y·ln p + (1−y)·ln(1−p))，概率截断在[ε, 1−ε]' },
  multiLogLoss: { name: '多分类对数损失（Multi-class Log-loss）', higherIsBetter: false, kind: 'classProbabilities', definition: '−mean(ln 真实类别的预测概率)，每类一列，列名为类别标签，每行概率之和须为1' },
  multiAuc: { name: '多分类AUC（一对多宏平均）', higherIsBetter: true, kind: 'classProbabilities', definition: '每个类别对其余类别的AUC的算术平均，每类一列，列名为类别标签' },
  rmse: { name: '均方根误差（RMSE）', higherIsBetter: false, kind: 'number', definition: '√mean((p−t)²)' },
  mae: { name: '平均绝对误差（MAE）', higherIsBetter: false, kind: 'number', definition: 'mean(|p−t|)' },
  mape: { name: '平均绝对百分比误差（MAPE）', higherIsBetter: false, kind: 'number', definition: 'mean(|p−t|/|t|)，以小数表示（0.1即10%），真实值不能为0' },
  rmsle: { name: '均方根对数误差（RMSLE）', higherIsBetter: false, kind: 'number', definition: '√mean((ln(1+p)−ln(1+t))²)，真实值和预测值都不能为负' },
  r2: { name: '决定系数（R²）', higherIsBetter: true, kind: 'number', definition: '1 − Σ(p−t)² / Σ(t−mean(t))²' },
  medae: { name: '中位绝对误差（MedAE）', higherIsBetter: false, kind: 'number', definition: '|p−t|的中位数' },
  smape: { name: '对称平均绝对百分比误差（SMAPE）', higherIsBetter: false, kind: 'number', definition: '100/n·Σ 2|p−t|/(|t|+|p|)，两者都为0的行计0' },
  mapAtK: { name: 'MAP@K', higherIsBetter: true, kind: 'ranking', definition: '每行预测为空格分隔的有序编号列表，真实值为空格分隔的集合；前K个的平均精度除以min(真实个数, K)，再对行平均', option: 'k' },
};
export const METRIC_NAMES = Object.fromEntries(METRICS.map((m) => [m, METRIC_INFO[m].name])) as Record<Metric, string>;
/** Whether a higher score is better, for ranking a leaderboard. */
export const HIGHER_IS_BETTER = Object.fromEntries(METRICS.map((m) => [m, METRIC_INFO[m].higherIsBetter])) as Record<Metric, boolean>;
/** The evaluation's defaults for the settings some metrics read. */
export const DEFAULT_POSITIVE_LABEL = '1';
export const DEFAULT_K = 10;

export const evaluationBody = z.strictObject({
  metric: z.enum(METRICS, { error: '请选择评分指标' }),
  idColumn: requiredText(64, '编号列名'),
  targetColumn: requiredText(64, '目标列名'),
  /** Share of the answer rows behind the public leaderboard, in percent. */
  publicPercent: z.number({ error: '公榜比例须为整数' }).int('公榜比例须为整数').min(1, '公榜比例至少为1%').max(99, '公榜比例至多为99%'),
  dailyLimit: z.number({ error: '每日提交次数须为整数' }).int('每日提交次数须为整数').min(1, '每日提交次数至少为1').max(100, '每日提交次数至多为100'),
  /** The positive class of f1, precision and recall (compared as text); '1' when left out. */
  positiveLabel: z.string({ error: '正类标签须为文本' }).trim().min(1, '请输入正类标签').max(64, '正类标签至多64个字符').optional(),
  /** The K of mapAtK; 10 when left out. */
  k: z.number({ error: 'K须为整数' }).int('K须为整数').min(1, 'K至少为1').max(1000, 'K至多为1000').optional(),
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
  positiveLabel: z.string().optional(),
  k: z.number().int().optional(),
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
