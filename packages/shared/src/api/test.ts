import { z } from 'zod';

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
