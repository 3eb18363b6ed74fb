import { z } from 'zod';
import type { Metric } from './question.ts';

/** A test (prediction) submission: queued, scoring, scored, or failed with the reason. */
export const TEST_STATUS = { queued: 0, scoring: 1, scored: 2, failed: 3 } as const;
export const TEST_STATUS_TEXT: Record<number, string> = { 0: '排队中', 1: '评分中', 2: '已评分', 3: '失败' };
/** A team picks at most this many submissions for the final (private) ranking. */
export const MAX_SELECTED = 2;

export interface TestSubmission {
  id: number;
  questionId: number;
  teamId: number;
  username: string;
  fileName: string;
  size: number;
  status: number;
  reason: string | null;
  publicScore: number | null;
  /** Only once the organiser has published the private leaderboard. */
  privateScore: number | null;
  selected: boolean;
  createdAt: string;
  scoredAt: string | null;
}

/** What a prediction file must look like: the question's id and target columns, scored by its metric. */
export interface TestFormat {
  metric: Metric;
  higherIsBetter: boolean;
  idColumn: string;
  targetColumn: string;
}

/** The team's submissions for a question (`GET /api/review/test/list/:questionId`). */
export interface MyTests {
  list: TestSubmission[];
  dailyLimit: number | null;
  usedToday: number;
  /** Null while the organiser has not set the evaluation yet. */
  format: TestFormat | null;
  /** Whether the private board (and so private scores) is published. */
  leaderboardPublished: boolean;
}

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

export interface LeaderboardEntry {
  rank: number;
  teamId: number;
  teamName: string;
  score: number;
  submissions: number;
  lastAt: string;
}

export interface Leaderboard {
  board: 'public' | 'private';
  metric: string;
  higherIsBetter: boolean;
  published: boolean;
  entries: LeaderboardEntry[];
}

export const selectBody = z.strictObject({ selected: z.boolean({ error: '请选择是否作为最终结果' }) });
export const leaderboardQuery = z.object({ board: z.enum(['public', 'private']).default('public') });
export const publishBody = z.strictObject({ published: z.boolean({ error: '请选择是否公布' }) });
