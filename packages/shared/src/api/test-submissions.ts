import { z } from 'zod';
import { CUSTOM_METRIC, EVALUATION_METRICS, METRIC_INFO, type MetricKind } from './questions.ts';

/** A test (prediction) submission: queued, scoring, scored, or failed with the reason. */
export const TEST_STATUS = { queued: 0, scoring: 1, scored: 2, failed: 3 } as const;
/**
 * What a prediction or answer file may be: a CSV (UTF-8 with or without BOM, GBK/GB18030, UTF-16 with BOM), the same
 * compressed as .csv.gz, or a .zip holding one CSV; the size limit applies to the unpacked CSV (issue 21).
 */
export const SCORING_FILE_ACCEPT = '.csv,.gz,.zip,text/csv,application/gzip,application/zip';
export const SCORING_FILE_FORMATS = 'UTF-8、GBK或带BOM的UTF-16编码，可压缩为.csv.gz或只含一个CSV的.zip';
export const TEST_STATUS_TEXT: Record<number, string> = { 0: '排队中', 1: '评分中', 2: '已评分', 3: '失败' };
/** A team picks at most this many submissions for the final (private) ranking. */
export const MAX_SELECTED = 2;

/**
 * Where a waiting submission stands: the submissions and other background work queued before it, and an estimate of
 * the wait: those and itself, shared by the workers scoring now, at the time a scoring took lately (null while nothing
 * has been scored lately to measure it by).
 */
export const testQueueSchema = z.object({
  ahead: z.number().int(),
  waitSeconds: z.number().int().nullable(),
  /** `ahead` is a lower bound: the queue before the file is longer than the platform counts. */
  atLeast: z.boolean().optional(),
});
export type TestQueue = z.infer<typeof testQueueSchema>;

/** 「前面还有 3 个，预计约 2 分钟」, as the test tab says it under 排队中. */
export function queueText(q: TestQueue): string {
  const place = q.atLeast ? `前面还有 ${q.ahead} 个以上` : q.ahead ? `前面还有 ${q.ahead} 个` : '下一个评分';
  if (q.waitSeconds === null) return place;
  const wait = q.waitSeconds < 60 ? '不到 1 分钟' : `${q.atLeast ? '超过 ' : '约 '}${Math.ceil(q.waitSeconds / 60)} 分钟`;
  return `${place}，预计等待${wait}`;
}

export const testSubmissionSchema = z.object({
  id: z.number().int(),
  questionId: z.number().int(),
  teamId: z.number().int(),
  username: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  status: z.number().int(),
  reason: z.string().nullable(),
  publicScore: z.number().nullable(),
  /** Only once the organiser has published the private leaderboard. */
  privateScore: z.number().nullable(),
  selected: z.boolean(),
  createdAt: z.string(),
  scoredAt: z.string().nullable(),
  /** Only while it waits to be scored. */
  queue: testQueueSchema.optional(),
  /** The organiser's reason for cancelling its score (取消成绩): it then counts on no board. */
  cancelReason: z.string().nullable(),
});
export type TestSubmission = z.infer<typeof testSubmissionSchema>;

/** A team taken off a question's boards and grades by its organiser (取消队伍成绩), with the reason. */
export const disqualificationSchema = z.object({
  teamId: z.number().int(),
  teamName: z.string(),
  reason: z.string(),
  /** Who decided it. */
  username: z.string(),
  createdAt: z.string(),
});
export type Disqualification = z.infer<typeof disqualificationSchema>;

/** What the organiser sees of a submission: the team's view with the team, its private score and the scorer's log. */
export const questionSubmissionSchema = testSubmissionSchema.extend({
  teamName: z.string(),
  /** The stored file, for 下载 (absent once a file that failed on arrival was removed). */
  fileUri: z.string().nullable(),
  /** The end of an own program's standard error when it failed on this file. */
  scorerLog: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type QuestionSubmission = z.infer<typeof questionSubmissionSchema>;

/** `GET /api/review/test/submissions/{questionId}`: every team's submissions, newest first, for the organisers. */
export const questionSubmissionsQuery = z.object({
  page: z.coerce.number().int().min(1, '页码须为正整数').default(1),
  limit: z.coerce.number().int().min(1, '每页条数须为正整数').max(100, '每页最多100条').default(20),
  /** Part of a team's name. */
  keyword: z.string().trim().max(50, '关键字不能超过50个字').optional(),
  teamId: z.coerce.number().int().positive('编号须为正整数').optional(),
  status: z.coerce.number().int().min(0).max(3).optional(),
  /** Only the submissions whose score was cancelled. */
  cancelled: z.enum(['1']).optional(),
});
export type QuestionSubmissionsQuery = z.infer<typeof questionSubmissionsQuery>;
export const questionSubmissionsSchema = z.object({
  list: z.array(questionSubmissionSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  /** The teams disqualified from the question. */
  disqualified: z.array(disqualificationSchema),
  /** Once the grades are confirmed, scores can no longer be cancelled or restored. */
  locked: z.boolean(),
});
export type QuestionSubmissions = z.infer<typeof questionSubmissionsSchema>;

/** One side of a suspected pair of duplicate accounts: a team and its file most alike the other's. */
const duplicateSideSchema = z.object({
  teamId: z.number().int(),
  teamNo: z.string(),
  teamName: z.string(),
  submissionId: z.number().int(),
  fileName: z.string(),
  privateScore: z.number().nullable(),
  createdAt: z.string(),
});
/**
 * `GET /api/review/test/duplicates/{questionId}` (issue 37): pairs of teams whose prediction files agree far more than
 * independent models do, estimated from each file's fingerprint of the private rows. Nothing changes a score by itself.
 */
export const duplicatePairSchema = z.object({
  a: duplicateSideSchema,
  b: duplicateSideSchema,
  /** Estimated share (per mille) of the private rows both files predict the same. */
  identical: z.number().int(),
  /** Estimated wrong predictions (same row, same value) both files make, and their share of the two files' wrong predictions (per mille). */
  sharedWrong: z.number().int(),
  wrongShare: z.number().int(),
  privateRows: z.number().int(),
});
export type DuplicatePair = z.infer<typeof duplicatePairSchema>;
export const duplicatesSchema = z.object({
  pairs: z.array(duplicatePairSchema),
  /** Files with a fingerprint compared (built-in metrics only: an own scoring program gives none). */
  files: z.number().int(),
});
export type Duplicates = z.infer<typeof duplicatesSchema>;

/** A reason is needed to cancel, none to restore. */
const REASON_MAX = 200;
const reasonField = z.string().trim().max(REASON_MAX, `原因不能超过${REASON_MAX}个字`).optional();
/** `PUT /api/review/test/cancel/{id}`: 取消成绩 (with a reason) or 恢复 of one submission. */
export const cancelSubmissionBody = z.strictObject({ cancelled: z.boolean({ error: '请选择取消还是恢复' }), reason: reasonField });
/** `PUT /api/review/test/disqualify/{questionId}`: 取消队伍成绩 (with a reason) or 恢复 of a team on the question. */
export const disqualifyBody = z.strictObject({
  teamId: z.number({ error: '请选择队伍' }).int().positive('请选择队伍'),
  disqualified: z.boolean({ error: '请选择取消还是恢复' }),
  reason: reasonField,
});
export const CANCEL_REASON_REQUIRED = '请填写取消成绩的原因';

/** `POST /api/review/test/{questionId}`: the new submission, queued for scoring. */
export const testSubmittedSchema = z.object({ id: z.number().int(), status: z.number().int() });

/** What a prediction file must look like: the question's id and target columns, scored by its metric. */
export const testFormatSchema = z.object({
  metric: z.enum(EVALUATION_METRICS),
  higherIsBetter: z.boolean(),
  idColumn: z.string(),
  /** Absent for an own program, which reads the columns it wants. */
  targetColumn: z.string().optional(),
  /** For f1, precision and recall: the positive label. */
  positiveLabel: z.string().optional(),
  /** For mapAtK: the K. */
  k: z.number().int().optional(),
  /** An own program's metric's name, when its organiser gave one. */
  metricName: z.string().optional(),
});
export type TestFormat = z.infer<typeof testFormatSchema>;

/** The team's submissions for a question (`GET /api/review/test/list/:questionId`). */
export const myTestsSchema = z.object({
  list: z.array(testSubmissionSchema),
  dailyLimit: z.number().int().nullable(),
  usedToday: z.number().int(),
  /** Null while the organiser has not set the evaluation yet. */
  format: testFormatSchema.nullable(),
  /** Whether the private board (and so private scores) is published. */
  leaderboardPublished: z.boolean(),
  /** Set when the organiser took the team off this question's boards and grades. */
  disqualified: z.object({ reason: z.string(), createdAt: z.string() }).nullable(),
  /** Why the team may not submit yet when the competition asks every member to have completed 实名认证. */
  realNameRefusal: z.string().nullable(),
});
export type MyTests = z.infer<typeof myTestsSchema>;

/** Two made-up prediction values that fit the metric's kind: probabilities, class labels, numbers or rankings. */
const SAMPLE_VALUES: Record<MetricKind, [string, string]> = {
  probability: ['0.92', '0.13'],
  label: ['1', '0'],
  grade: ['3', '1'],
  number: ['12.5', '3.8'],
  ranking: ['item7 item2 item9', 'item4'],
  classProbabilities: ['0.7', '0.3'],
};

/** A CSV cell, quoted when it holds a comma, a quote or a line break. */
export const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * The lines of a sample prediction file (CRLF, as Excel writes): the header with the question's column names, then a
 * row per id with a made-up value that fits the metric, alternating two. For the metrics of several classes the header
 * holds one column per class, named by its label, and each row probabilities that add up to one. For the metrics of
 * labels, `labels` are the answer's own (so the sample's values are ones the answer can match, not 1 and 0 for A/B).
 */
export function* sampleCsvLines(
  format: Pick<TestFormat, 'metric' | 'idColumn' | 'targetColumn'>,
  ids: Iterable<string>,
  classes: readonly string[] = ['A', 'B'],
  labels: readonly string[] = [],
): Generator<string> {
  const kind = format.metric === CUSTOM_METRIC ? 'number' : METRIC_INFO[format.metric].kind;
  const [a, b] = kind === 'label' && labels.length ? [labels[0]!, labels[1] ?? labels[0]!] : SAMPLE_VALUES[kind];
  const line = (cells: readonly string[]) => cells.map(csvCell).join(',') + '\r\n';
  const several = kind === 'classProbabilities';
  yield line(several ? [format.idColumn, ...classes] : [format.idColumn, format.targetColumn ?? 'prediction']);
  const even = classes.length === 2 ? null : String(Number((1 / classes.length).toFixed(6)));
  let i = 0;
  for (const id of ids) {
    const first = i++ % 2 === 0;
    yield line(several ? [id, ...(even === null ? (first ? [a, b] : [b, a]) : classes.map(() => even))] : [id, first ? a : b]);
  }
}

/** A sample prediction file of two made-up ids (and two made-up classes), as the test tab shows the format. */
export const sampleCsv = (format: Pick<TestFormat, 'metric' | 'idColumn' | 'targetColumn'>): string => [...sampleCsvLines(format, ['1', '2'])].join('');

export const leaderboardEntrySchema = z.object({
  rank: z.number().int(),
  teamId: z.number().int(),
  teamName: z.string(),
  /** The team's group, where the competition has groups (issue 36). */
  groupName: z.string().nullish(),
  score: z.number(),
  submissions: z.number().int(),
  lastAt: z.string(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const leaderboardSchema = z.object({
  board: z.enum(['public', 'private']),
  metric: z.enum(EVALUATION_METRICS),
  /** An own program's metric's name, when its organiser gave one. */
  metricName: z.string().optional(),
  higherIsBetter: z.boolean(),
  /** The competition's groups (issue 36), each of which has its own board (`?group=`); absent without groups. */
  groups: z.array(z.string()).optional(),
  published: z.boolean(),
  /** The question's setting changed and earlier submissions are being scored again: the board is not complete yet. */
  rescoring: z.boolean().optional(),
  /** The page asked for (`page`, `limit`), best first; `rank` counts from the top of the board. */
  entries: z.array(leaderboardEntrySchema),
  /** How many teams the board ranks. */
  total: z.number().int(),
  /** The caller's team's row and rank, wherever it is on the board (only for a member of a team on it). */
  mine: leaderboardEntrySchema.optional(),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;

/** A board's default page size; a page holds at most LEADERBOARD_MAX_LIMIT teams. */
export const LEADERBOARD_LIMIT = 50;
export const LEADERBOARD_MAX_LIMIT = 200;

export const selectBody = z.strictObject({ selected: z.boolean({ error: '请选择是否作为最终结果' }) });
export const leaderboardQuery = z.object({
  board: z.enum(['public', 'private']).default('public'),
  page: z.coerce.number().int().min(1, '页码须为正整数').default(1),
  limit: z.coerce.number().int().min(1, '每页条数须为正整数').max(LEADERBOARD_MAX_LIMIT, `每页最多${LEADERBOARD_MAX_LIMIT}条`).default(LEADERBOARD_LIMIT),
  /** One group's board (issue 36): only its teams, ranked among themselves. */
  group: z.string().trim().min(1).max(20, '组别不能超过20个字').optional(),
});
export const publishBody = z.strictObject({ published: z.boolean({ error: '请选择是否公布' }) });

/**
 * `GET /api/review/test/rescore/{questionId}`, for the question's organisers: after its metric, public share or answer
 * file changed, how many of its settled submissions are scored under the new setting (`done`) of `total`.
 */
export const rescoreProgressSchema = z.object({ total: z.number().int(), done: z.number().int(), running: z.boolean() });
export type RescoreProgress = z.infer<typeof rescoreProgressSchema>;

/** A competition's scoring queue, for its organisers: waiting, being scored, and failed in the last hour. */
export const scoringQueueSchema = z.object({ waiting: z.number().int(), running: z.number().int(), failedLastHour: z.number().int() });
export type ScoringQueue = z.infer<typeof scoringQueueSchema>;

/**
 * `GET /api/review/test/failures/{competitionId}`: the competition's latest failed submissions (at most 50), for its
 * organisers: what the team was told and, when an own scoring program failed, the end of its standard error.
 */
export const scoringFailureSchema = z.object({
  id: z.number().int(),
  questionTitle: z.string(),
  teamName: z.string(),
  fileName: z.string(),
  reason: z.string().nullable(),
  scorerLog: z.string().nullable(),
  scoredAt: z.string().nullable(),
});
export type ScoringFailure = z.infer<typeof scoringFailureSchema>;
export const SCORING_FAILURES_SHOWN = 50;

/** How a team's reason begins when an own scoring program failed (crashed, timed out, printed no score, is missing). */
export const PROGRAM_FAILED = '评分失败：';
/** How it begins when the program refused the file with its own explanation (`{"error": ...}`). */
export const PROGRAM_REFUSED = '未通过评分程序的检查：';
/** How it begins when the organiser's answer file cannot be read any more. */
export const ANSWER_BROKEN = '答案文件有误，请联系主办方：';

/**
 * Whose side a failure is on: the organisers' (their program failed, or their answer file), or the team's (its file
 * refused by the platform's checks or by the program).
 */
export function failureSide(f: Pick<ScoringFailure, 'reason'>): 'organiser' | 'team' {
  return f.reason?.startsWith(PROGRAM_FAILED) || f.reason?.startsWith(ANSWER_BROKEN) ? 'organiser' : 'team';
}
