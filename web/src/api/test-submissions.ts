import type {
  Leaderboard,
  MyTests,
  QuestionSubmissions,
  QuestionSubmissionsQuery,
  RescoreProgress,
  ScoringFailure,
  ScoringQueue,
  Duplicates,
} from '@contest/shared';
import { http } from '../common/http.ts';

/**
 * A team's test submissions and a question's boards as the site shows them. The site's header keeps these keys (the
 * message stream's `board` event reloads them): types only from the shared package, no zod (ARCHITECTURE §9).
 */
export const testSubmissionUrls = {
  /** The upload action of a prediction file for the question. */
  upload: (questionId: number) => `/api/review/test/${questionId}`,
  /** A sample prediction file with every id of the test set (built-in metrics). */
  sample: (questionId: number) => `/api/review/test/sample/${questionId}`,
};

export const testSubmissionKeys = {
  /** The team's own submissions for a question (the test tab's history, chart and quota). */
  mine: (questionId: number) => ['tests', questionId] as const,
  /** A question's leaderboards, public and private. */
  boards: (questionId: number) => ['leaderboard', questionId] as const,
  board: (questionId: number, board: 'public' | 'private', page = 1, group = '') => [...testSubmissionKeys.boards(questionId), board, page, group] as const,
  /** How far the scoring again of a question's submissions has gone (its organisers, after a change of setting). */
  rescoring: (questionId: number) => ['rescoring', questionId] as const,
  /** A competition's scoring queue (its organisers). */
  queue: (competitionId: number) => ['scoringQueue', competitionId] as const,
  /** A competition's latest failed submissions (its organisers). */
  failures: (competitionId: number) => ['scoringFailures', competitionId] as const,
  /** Every team's submissions for a question (its organisers). */
  submissions: (questionId: number, query?: QuestionSubmissionsQuery) => ['questionSubmissions', questionId, ...(query ? [query] : [])] as const,
  /** Pairs of teams whose files agree far beyond independent models (its organisers; issue 37). */
  duplicates: (questionId: number) => ['duplicates', questionId] as const,
};

/** Test submissions and their boards, as the back office manages them (spec §7 `/api/review/test/*`). */
export const testSubmissionApi = {
  mine: (questionId: number) => http.get<MyTests>(`/api/review/test/list/${questionId}`),
  /**
   * One page of a board (the server's page size), with the caller's team's row and rank wherever it is. Silent: the tab
   * says why there is no board.
   */
  board: (questionId: number, board: 'public' | 'private', page = 1, group?: string) =>
    http.get<Leaderboard>(
      `/api/review/test/leaderboard/${questionId}`,
      { board, ...(page > 1 ? { page } : {}), ...(group ? { group } : {}) },
      { silent: true },
    ),
  /** One of the (at most two) submissions counted for the private board. */
  select: (id: number, selected: boolean) => http.put<void>(`/api/review/test/select/${id}`, { selected }),
  /** Silent: a row of the question list shows it, and says nothing when it cannot be read. */
  rescoring: (questionId: number) => http.get<RescoreProgress>(`/api/review/test/rescore/${questionId}`, undefined, { silent: true }),
  /** Scores every settled submission of the question again (its organisers); answers the progress at the start. */
  rescore: (questionId: number) => http.post<RescoreProgress>(`/api/question/rescore/${questionId}`),
  /** Waiting, being scored and failed in the last hour, over the competition's questions. Silent: a line of the page. */
  queue: (competitionId: number) => http.get<ScoringQueue>(`/api/review/test/queue/${competitionId}`, undefined, { silent: true }),
  /** The latest failed submissions, with an own program's standard error. */
  failures: (competitionId: number) => http.get<ScoringFailure[]>(`/api/review/test/failures/${competitionId}`),
  /** A page of every team's submissions for the question, with the teams disqualified from it (its organisers). */
  submissions: (questionId: number, query: QuestionSubmissionsQuery) => http.get<QuestionSubmissions>(`/api/review/test/submissions/${questionId}`, query),
  duplicates: (questionId: number) => http.get<Duplicates>(`/api/review/test/duplicates/${questionId}`),
  /** 取消成绩 (with the reason) or 恢复 of one submission. */
  cancel: (id: number, cancelled: boolean, reason?: string) =>
    http.put<void>(`/api/review/test/cancel/${id}`, { cancelled, ...(reason !== undefined && { reason }) }),
  /** 取消队伍成绩 (with the reason) or 恢复 of a team on the question. */
  disqualify: (questionId: number, teamId: number, disqualified: boolean, reason?: string) =>
    http.put<void>(`/api/review/test/disqualify/${questionId}`, { teamId, disqualified, ...(reason !== undefined && { reason }) }),
};
