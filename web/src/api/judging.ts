import type { ReviewTask, ReviewWork, ReviewWorkDetail, ScoreBody } from '@contest/shared';
import { http } from '../common/http.ts';

/** The review centre: a judge's questions, works and score sheets (spec §7 `/api/review/center/*`). */
export const judgingUrls = {
  download: (assignmentId: number) => `/api/review/center/works/${assignmentId}/download`,
};

export const judgingKeys = {
  /** Everything the judge sees: a saved score changes the work, its question's list and the progress. */
  all: ['review'] as const,
  tasks: ['review', 'tasks'] as const,
  works: (questionId: number) => ['review', 'works', questionId] as const,
  work: (assignmentId: number) => ['review', 'work', assignmentId] as const,
};

export const judgingApi = {
  /** The judge's questions with their progress. */
  tasks: () => http.get<ReviewTask[]>('/api/review/center/tasks'),
  works: (questionId: number) => http.get<ReviewWork[]>('/api/review/center/works', { questionId }),
  work: (assignmentId: number) => http.get<ReviewWorkDetail>(`/api/review/center/works/${assignmentId}`),
  /** Saves the score sheet as a draft, or submits it. */
  score: (assignmentId: number, body: ScoreBody) => http.put<void>(`/api/review/works/${assignmentId}`, body),
};
