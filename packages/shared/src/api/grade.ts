import { z } from 'zod';
import { pageQuery } from './common.ts';
import { requiredText } from './fields.ts';

/** Grades (judges' totals with the private test board), and the teams' disputes of them (spec /api/review/works/*). */

export interface Grade {
  questionId: number;
  teamId: number;
  teamNo: string;
  teamName: string;
  /** Each submitted judge total, points added up out of `maxTotal` (names are not shown to teams). */
  reviewScores: number[];
  maxTotal: number;
  /** Out of 100: see `reviewScore()`. */
  reviewScore: number | null;
  judgesDone: number;
  judgesTotal: number;
  testScore: number | null;
  testPoints: number | null;
  finalScore: number | null;
  rank: number | null;
  awardId: number | null;
  awardName: string | null;
  awardManual: boolean;
}

export interface GradeSummary {
  gradeState: number;
  calculatedAt: string | null;
  confirmedAt: string | null;
  /** Judges that still have works to score. */
  unfinished: { judgeId: number; username: string; userName: string | null; pending: number }[];
}

export const gradePageQuery = pageQuery.extend({ keyword: z.string().trim().max(100).optional() });

/** A team's own grade on one question, shown on the `grade` tab. */
export interface MyGrade {
  questionId: number;
  questionTitle: string;
  /** A dispute sent the work back for re-review: the numbers are hidden until the grades are confirmed again. */
  rechecking: boolean;
  reviewScore: number | null;
  testScore: number | null;
  finalScore: number | null;
  rank: number | null;
  teams: number;
  awardName: string | null;
  confirmedAt: string;
  disputeUntil: string | null;
  dispute: Dispute | null;
}

export const DISPUTE_STATUS = { pending: 0, answered: 1 } as const;
export const DISPUTE_STATUS_TEXT: Record<number, string> = { 0: '待答复', 1: '已答复' };

export interface Dispute {
  id: number;
  questionId: number;
  teamId: number;
  teamNo: string;
  teamName: string;
  username: string;
  reason: string;
  status: number;
  answer: string | null;
  rereview: boolean;
  createdAt: string;
  answeredAt: string | null;
}

export const disputeBody = z.strictObject({ reason: requiredText(1000, '申诉理由') });
export const disputeAnswerBody = z.strictObject({
  answer: requiredText(1000, '答复内容'),
  /** A judge who has not reviewed the work yet, to review it again. */
  rereviewJudgeId: z.number().int().positive().nullable().optional(),
});
