import { z } from 'zod';
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
  balancedAccuracy: {
    name: '平衡准确率（Balanced Accuracy）',
    higherIsBetter: true,
    kind: 'label',
    definition: '真实值中每个类别的召回率的平均值，不受类别不平衡影响',
  },
  macroF1: { name: '宏平均F1（Macro-F1）', higherIsBetter: true, kind: 'label', definition: '每个类别（真实值或预测值中出现的）F1的算术平均' },
  microF1: { name: '微平均F1（Micro-F1）', higherIsBetter: true, kind: 'label', definition: '所有类别合计的TP、FP、FN算出的F1，单标签多分类时等于准确率' },
  weightedF1: { name: '加权F1（Weighted-F1）', higherIsBetter: true, kind: 'label', definition: '每个类别的F1按其在真实值中的行数加权平均' },
  f1: {
    name: 'F1（二分类）',
    higherIsBetter: true,
    kind: 'label',
    definition: '正类的F1：2·TP/(2·TP+FP+FN)，正类标签在评分设置中指定',
    option: 'positiveLabel',
  },
  precision: {
    name: '精确率（Precision）',
    higherIsBetter: true,
    kind: 'label',
    definition: '预测为正类的行中真实为正类的比例：TP/(TP+FP)',
    option: 'positiveLabel',
  },
  recall: {
    name: '召回率（Recall）',
    higherIsBetter: true,
    kind: 'label',
    definition: '真实为正类的行中被预测为正类的比例：TP/(TP+FN)',
    option: 'positiveLabel',
  },
  mcc: { name: '马修斯相关系数（MCC）', higherIsBetter: true, kind: 'label', definition: '由混淆矩阵算出的真实值与预测值的相关系数，取值-1到1' },
  qwk: { name: '二次加权Kappa（QWK）', higherIsBetter: true, kind: 'grade', definition: '整数等级的一致性，偏差按等级序号之差的平方加权，1为完全一致' },
  auc: { name: 'AUC', higherIsBetter: true, kind: 'probability', definition: 'ROC曲线下面积：随机取一正一负样本，正样本得分更高的概率（并列计一半）' },
  gini: { name: '基尼系数（Gini）', higherIsBetter: true, kind: 'probability', definition: '2·AUC−1' },
  averagePrecision: {
    name: '平均精度（Average Precision）',
    higherIsBetter: true,
    kind: 'probability',
    definition: '按得分从高到低，各阈值处精确率以召回率增量加权之和',
  },
  logLoss: { name: '对数损失（Log-loss）', higherIsBetter: false, kind: 'probability', definition: '−mean(y·ln p + (1−y)·ln(1−p))，概率截断在[ε, 1−ε]' },
  multiLogLoss: {
    name: '多分类对数损失（Multi-class Log-loss）',
    higherIsBetter: false,
    kind: 'classProbabilities',
    definition: '−mean(ln 真实类别的预测概率)，每类一列，列名为类别标签，每行概率之和须为1',
  },
  multiAuc: {
    name: '多分类AUC（一对多宏平均）',
    higherIsBetter: true,
    kind: 'classProbabilities',
    definition: '每个类别对其余类别的AUC的算术平均，每类一列，列名为类别标签',
  },
  rmse: { name: '均方根误差（RMSE）', higherIsBetter: false, kind: 'number', definition: '√mean((p−t)²)' },
  mae: { name: '平均绝对误差（MAE）', higherIsBetter: false, kind: 'number', definition: 'mean(|p−t|)' },
  mape: { name: '平均绝对百分比误差（MAPE）', higherIsBetter: false, kind: 'number', definition: 'mean(|p−t|/|t|)，以小数表示（0.1即10%），真实值不能为0' },
  rmsle: { name: '均方根对数误差（RMSLE）', higherIsBetter: false, kind: 'number', definition: '√mean((ln(1+p)−ln(1+t))²)，真实值和预测值都不能为负' },
  r2: { name: '决定系数（R²）', higherIsBetter: true, kind: 'number', definition: '1 − Σ(p−t)² / Σ(t−mean(t))²' },
  medae: { name: '中位绝对误差（MedAE）', higherIsBetter: false, kind: 'number', definition: '|p−t|的中位数' },
  smape: { name: '对称平均绝对百分比误差（SMAPE）', higherIsBetter: false, kind: 'number', definition: '100/n·Σ 2|p−t|/(|t|+|p|)，两者都为0的行计0' },
  mapAtK: {
    name: 'MAP@K',
    higherIsBetter: true,
    kind: 'ranking',
    definition: '每行预测为空格分隔的有序编号列表，真实值为空格分隔的集合；前K个的平均精度除以min(真实个数, K)，再对行平均',
    option: 'k',
  },
};
/**
 * The values a metric can take, where it is bounded: a chart's axis stays inside them (an AUC axis never runs to 1.2,
 * nor an error below 0). Metrics not named are unbounded both ways.
 */
const UNIT = { min: 0, max: 1 };
const SIGNED_UNIT = { min: -1, max: 1 };
const METRIC_BOUNDS: Partial<Record<Metric, { min?: number; max?: number }>> = {
  accuracy: UNIT,
  balancedAccuracy: UNIT,
  macroF1: UNIT,
  microF1: UNIT,
  weightedF1: UNIT,
  f1: UNIT,
  precision: UNIT,
  recall: UNIT,
  mcc: SIGNED_UNIT,
  qwk: SIGNED_UNIT,
  auc: UNIT,
  gini: SIGNED_UNIT,
  averagePrecision: UNIT,
  logLoss: { min: 0 },
  multiLogLoss: { min: 0 },
  multiAuc: UNIT,
  rmse: { min: 0 },
  mae: { min: 0 },
  mape: { min: 0 },
  rmsle: { min: 0 },
  r2: { max: 1 },
  medae: { min: 0 },
  smape: { min: 0, max: 200 },
  mapAtK: UNIT,
};
export const metricBounds = (metric: string): { min?: number; max?: number } => METRIC_BOUNDS[metric as Metric] ?? {};

export const METRIC_NAMES = Object.fromEntries(METRICS.map((m) => [m, METRIC_INFO[m].name])) as Record<Metric, string>;
/** Whether a higher score is better, for ranking a leaderboard. */
export const HIGHER_IS_BETTER = Object.fromEntries(METRICS.map((m) => [m, METRIC_INFO[m].higherIsBetter])) as Record<Metric, boolean>;
/** The evaluation's defaults for the settings some metrics read. */
export const DEFAULT_POSITIVE_LABEL = '1';
export const DEFAULT_K = 10;

/**
 * The organiser's own scoring program (issue 23): `python3 score.py answer.csv prediction.csv` in a sandbox, once per
 * board, printing `{"score": <number>}` last; its direction and time limit are the evaluation's.
 */
export const CUSTOM_METRIC = 'custom';
export const EVALUATION_METRICS = [...METRICS, CUSTOM_METRIC] as const;
export type EvaluationMetric = (typeof EVALUATION_METRICS)[number];
export const CUSTOM_METRIC_NAME = '自定义评分程序';
export const DEFAULT_TIME_LIMIT_SEC = 60;
export const MAX_TIME_LIMIT_SEC = 600;
/** The scoring program's file: a `.py`, or a `.zip` with `score.py` at its root. */
export const SCORER_ACCEPT = '.py,.zip';
export const SCORER_MAX_BYTES = 20 * 1024 * 1024;

/** A metric's name, the organiser's own program included. */
export const metricName = (metric: EvaluationMetric) => (metric === CUSTOM_METRIC ? CUSTOM_METRIC_NAME : METRIC_NAMES[metric]);
/** An evaluation's metric as people read it: a built-in metric's name, or the name its organiser gave its own program. */
export const evaluationName = (e: { metric: EvaluationMetric; metricName?: string | null }) =>
  e.metric === CUSTOM_METRIC && e.metricName ? e.metricName : metricName(e.metric);
/** The longest name of an own program's metric. */
export const METRIC_NAME_MAX = 30;
/** Whether a higher score ranks first: the metric's own direction, or for an own program the one its organiser set. */
export const higherIsBetterOf = (e: { metric: EvaluationMetric | string; higherIsBetter?: boolean | null }) =>
  e.metric === CUSTOM_METRIC ? (e.higherIsBetter ?? true) : (HIGHER_IS_BETTER[e.metric as Metric] ?? true);

export const evaluationBody = z
  .strictObject({
    metric: z.enum(EVALUATION_METRICS, { error: '请选择评分指标' }),
    idColumn: requiredText(64, '编号列名'),
    /** The column a built-in metric reads; an own program reads whichever columns it wants, so it may leave it out. */
    targetColumn: requiredText(64, '目标列名').optional(),
    /** Share of the answer rows behind the public leaderboard, in percent. */
    publicPercent: z.number({ error: '公榜比例须为整数' }).int('公榜比例须为整数').min(1, '公榜比例至少为1%').max(99, '公榜比例至多为99%'),
    dailyLimit: z.number({ error: '每日提交次数须为整数' }).int('每日提交次数须为整数').min(1, '每日提交次数至少为1').max(100, '每日提交次数至多为100'),
    /** The positive class of f1, precision and recall (compared as text); '1' when left out. */
    positiveLabel: z.string({ error: '正类标签须为文本' }).trim().min(1, '请输入正类标签').max(64, '正类标签至多64个字符').optional(),
    /** The K of mapAtK; 10 when left out. */
    k: z.number({ error: 'K须为整数' }).int('K须为整数').min(1, 'K至少为1').max(1000, 'K至多为1000').optional(),
    /** Own program only: whether a higher score ranks first (true when left out). */
    higherIsBetter: z.boolean({ error: '请选择得分方向' }).optional(),
    /** Own program only: the metric's name as the boards show it (自定义评分程序 when left out). */
    metricName: z.string({ error: '指标名称须为文本' }).trim().max(30, '指标名称至多30个字').optional(),
    /** Own program only: seconds each run may take before it is killed (60 when left out). */
    timeLimitSec: z
      .number({ error: '时间限制须为整数秒' })
      .int('时间限制须为整数秒')
      .min(1, '时间限制至少为1秒')
      .max(MAX_TIME_LIMIT_SEC, `时间限制至多为${MAX_TIME_LIMIT_SEC}秒`)
      .optional(),
  })
  .superRefine((e, ctx) => {
    if (e.metric !== CUSTOM_METRIC && !e.targetColumn) ctx.addIssue({ code: 'custom', path: ['targetColumn'], message: '请输入目标列名' });
  });
export type EvaluationBody = z.infer<typeof evaluationBody>;

/**
 * How a question's result is made, as its organiser chooses (issue 33): experts judge the works (`review`), the test
 * files are scored automatically and the private board is the result (`auto`), or both, combined by the review rule's
 * weights (`both`). Readiness, the audit, the participant's tabs, grades, awards and certificates follow it.
 */
export const JUDGING = ['review', 'auto', 'both'] as const;
export type Judging = (typeof JUDGING)[number];
export const JUDGING_NAMES: Record<Judging, string> = { review: '专家评审（提交作品）', auto: '自动评分（提交测试）', both: '专家评审 + 自动评分' };
/** What each judging asks of a team and how it is ranked, in the words the editor and the participant read. */
export const JUDGING_HINTS: Record<Judging, string> = {
  review: '参赛队伍提交作品，由专家按评审规则评分，按评审成绩排名；不设自动评分和排行榜',
  auto: '参赛队伍提交预测结果，自动评分，按私榜得分排名（以队伍选定的提交为准）；不需要提交作品和专家评审',
  both: '参赛队伍提交作品和预测结果，最终成绩由评审成绩与测试得分按评审规则中的权重合成',
};
/** A question's judging when a body does not say: with an evaluation, both (as before issue 33); without, review. */
export const judgingOf = (judging: Judging | null | undefined, evaluation: unknown): Judging => judging ?? (evaluation ? 'both' : 'review');
/** The judging's parts: whether experts judge works, whether test files are scored. */
export const judgedByExperts = (j: Judging) => j !== 'auto';
export const scoredAutomatically = (j: Judging) => j !== 'review';

export const questionBody = z
  .strictObject({
    title: requiredText(200, '赛题名称'),
    content: html('赛题描述'),
    sort,
    /** Left out: `judgingOf` the evaluation. */
    judging: z.enum(JUDGING, { error: '请选择评判方式' }).optional(),
    evaluation: evaluationBody.nullable().optional(),
  })
  .superRefine((q, ctx) => {
    const judging = judgingOf(q.judging, q.evaluation);
    if (judging === 'review' && q.evaluation)
      ctx.addIssue({ code: 'custom', path: ['judging'], message: '评判方式为专家评审的赛题不设自动评分：请关闭自动评分，或将评判方式改为自动评分或两者结合' });
    if (judging !== 'review' && !q.evaluation) ctx.addIssue({ code: 'custom', path: ['evaluation'], message: '该评判方式需要自动评分：请设置评分指标' });
  });
export type QuestionBody = z.infer<typeof questionBody>;

/** A question's evaluation setting as replies carry it. */
export const evaluationSchema = z.object({
  metric: z.enum(EVALUATION_METRICS),
  idColumn: z.string(),
  targetColumn: z.string().optional(),
  publicPercent: z.number().int(),
  dailyLimit: z.number().int(),
  positiveLabel: z.string().optional(),
  k: z.number().int().optional(),
  higherIsBetter: z.boolean().optional(),
  timeLimitSec: z.number().int().optional(),
  metricName: z.string().optional(),
});

/** `GET /api/question/scorer/{id}`: the question's current scoring program, or null when none is uploaded. */
export const scorerSchema = z.object({
  name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  uploadedAt: z.string(),
  uploaderName: z.string().nullable(),
});
export type Scorer = z.infer<typeof scorerSchema>;

/**
 * `POST /api/question/scorer/try/{id}`: the program run on a prediction file without a submission: both boards'
 * scores, or the failure with the end of the program's standard error (null for a board without rows).
 */
export const scorerTrySchema = z.object({
  ok: z.boolean(),
  publicScore: z.number().nullable(),
  privateScore: z.number().nullable(),
  /** Why it failed, in the words a team would read. */
  message: z.string().nullable(),
  /** The last 4 kB of the program's standard error (of the failed run, or of the last run). */
  stderr: z.string(),
  seconds: z.number(),
});
export type ScorerTry = z.infer<typeof scorerTrySchema>;

/** The program's contract, shown next to its upload (question editor) and in docs/scoring-programs.md. */
export const SCORER_CONTRACT = [
  '上传一个 .py 文件，或根目录含 score.py 的 .zip（可附带其他文件）。',
  '平台先像内置指标一样检查预测文件：能读取、有编号列、答案中的每个编号恰好出现一次。',
  '然后在只含这些文件的全新目录中运行 python3 score.py answer.csv prediction.csv，公榜行与私榜行各运行一次，每次只看到该部分的行（表头不变）。',
  '程序须在标准输出的最后一行打印 JSON：{"score": 有限数字}；没有这一行、得分不是有限数字、退出码非0或超过时间限制都算评分失败，失败不计入队伍的提交次数。',
  '两次运行总是都会进行，即使其中一次失败；失败的结果要等两次运行的时限都过去后才告诉队伍，这样队伍无法从结果出来的快慢或失败的是哪一部分推断哪些行属于公榜。',
  '预测文件不合要求时（例如缺少某列），程序可在最后一行打印 {"error": "给参赛队伍的说明"}：队伍会看到这句说明（最多300字），这次提交同样不计入次数；其他失败时队伍只看到失败的方式（如“异常退出”）。说明中不要写出具体的编号或行：程序每次只看到一部分行，写出编号会让队伍知道它属于哪一部分。',
  '程序在沙箱中运行：不能联网，看不到平台的其他文件，只能写自己的目录，内存有上限（默认2 GiB）；可以使用服务器提供的 numpy、pandas、scikit-learn。',
];

/** A program organisers can download and start from: the mean absolute error of one column, with pandas. */
export const EXAMPLE_SCORER = `import json
import sys

import pandas as pd

# python3 score.py answer.csv prediction.csv
answer = pd.read_csv(sys.argv[1], dtype={"id": str})
prediction = pd.read_csv(sys.argv[2], dtype={"id": str})

# The platform has checked that every answer id appears exactly once in the prediction.
if "label" not in prediction.columns:
    # What the team should fix: the last line {"error": ...} refuses the file, and the attempt is not counted.
    print(json.dumps({"error": "预测文件缺少 label 列"}, ensure_ascii=False))
    sys.exit(0)

merged = answer.merge(prediction, on="id", suffixes=("_true", "_pred"))
error = (merged["label_true"] - merged["label_pred"]).abs().mean()

# Diagnostics go to standard error: the organiser sees them when a run fails.
print(f"rows: {len(merged)}", file=sys.stderr)

# The last line of standard output is the score.
print(json.dumps({"score": float(error)}))
`;

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
  judging: z.enum(JUDGING),
  evaluation: evaluationSchema.nullable(),
  /** The own scoring program, for an evaluation by `custom`. */
  scorer: scorerSchema.nullable(),
  /** Rows in the answer file, or null when none is uploaded. */
  answerRows: z.number().int().nullable(),
  /** Public data files, in their order. */
  files: z.array(questionFileSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ManagedQuestion = z.infer<typeof managedQuestionSchema>;

export interface PublicQuestion {
  id: number;
  competitionId: number;
  title: string;
  content: string | null;
  /** How its result is made (questions.ts `JUDGING`): which of works and tests a team hands in. */
  judging: 'review' | 'auto' | 'both';
  files: { fileUri: string; name: string; size: number }[];
}

/**
 * A reviewed question as participants read it (`PublicQuestion`, declared above as a plain interface;
 * `_publicQuestionAgrees` keeps the two the same).
 */
export const publicQuestionSchema = z.object({
  id: z.number().int(),
  competitionId: z.number().int(),
  title: z.string(),
  content: z.string().nullable(),
  judging: z.enum(JUDGING),
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
