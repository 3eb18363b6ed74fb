import { z } from 'zod';
import { METRICS, type Metric } from './question.ts';

/** A test (prediction) submission: queued, scoring, scored, or failed with the reason. */
export const TEST_STATUS = { queued: 0, scoring: 1, scored: 2, failed: 3 } as const;
export const TEST_STATUS_TEXT: Record<number, string> = { 0: '排队中', 1: '评分中', 2: '已评分', 3: '失败' };
/** A team picks at most this many submissions for the final (private) ranking. */
export const MAX_SELECTED = 2;

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
});
export type TestSubmission = z.infer<typeof testSubmissionSchema>;

/** `POST /api/review/test/{questionId}`: the new submission, queued for scoring. */
export const testSubmittedSchema = z.object({ id: z.number().int(), status: z.number().int() });

/** What a prediction file must look like: the question's id and target columns, scored by its metric. */
export const testFormatSchema = z.object({
  metric: z.enum(METRICS),
  higherIsBetter: z.boolean(),
  idColumn: z.string(),
  targetColumn: z.string(),
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
});
export type MyTests = z.infer<typeof myTestsSchema>;

/** Two made-up prediction values that fit the metric: probabilities, class labels or numbers. */
const SAMPLE_VALUES: Record<Metric, [string, string]> = {
  auc: ['0.92', '0.13'],
  logLoss: ['0.92', '0.13'],
  accuracy: ['1', '0'],
  macroF1: ['1', '0'],
  rmse: ['12.5', '3.8'],
  mae: ['12.5', '3.8'],
  mape: ['12.5', '3.8'],
};

/** A sample prediction file: the header with the question's column names and two example rows (CRLF, as Excel writes). */
export function sampleCsv(format: Pick<TestFormat, 'metric' | 'idColumn' | 'targetColumn'>): string {
  const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const [a, b] = SAMPLE_VALUES[format.metric];
  return [[format.idColumn, format.targetColumn], ['1', a], ['2', b]].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

export const leaderboardEntrySchema = z.object({
  rank: z.number().int(),
  teamId: z.number().int(),
  teamName: z.string(),
  score: z.number(),
  submissions: z.number().int(),
  lastAt: z.string(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

export const leaderboardSchema = z.object({
  board: z.enum(['public', 'private']),
  metric: z.enum(METRICS),
  higherIsBetter: z.boolean(),
  published: z.boolean(),
  entries: z.array(leaderboardEntrySchema),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;

export const selectBody = z.strictObject({ selected: z.boolean({ error: '请选择是否作为最终结果' }) });
export const leaderboardQuery = z.object({ board: z.enum(['public', 'private']).default('public') });
export const publishBody = z.strictObject({ published: z.boolean({ error: '请选择是否公布' }) });
