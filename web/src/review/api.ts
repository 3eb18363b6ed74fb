import type { ReviewTask, ReviewWork, ReviewWorkDetail } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../common/http.ts';

export const reviewKeys = {
  all: ['review'] as const,
  tasks: ['review', 'tasks'] as const,
  works: (questionId: number) => ['review', 'works', questionId] as const,
  work: (assignmentId: number) => ['review', 'work', assignmentId] as const,
};

/** The judge's questions with their progress. */
export function useReviewTasks() {
  return useQuery({ queryKey: reviewKeys.tasks, queryFn: () => http.get<ReviewTask[]>('/api/review/center/tasks') });
}

export function useReviewWorks(questionId: number) {
  return useQuery({
    queryKey: reviewKeys.works(questionId),
    enabled: questionId > 0,
    queryFn: () => http.get<ReviewWork[]>('/api/review/center/works', { questionId }),
  });
}

export function useReviewWork(assignmentId: number) {
  return useQuery({
    queryKey: reviewKeys.work(assignmentId),
    enabled: assignmentId > 0,
    queryFn: () => http.get<ReviewWorkDetail>(`/api/review/center/works/${assignmentId}`),
  });
}

/** After a score is saved: the work, its question's list and the progress all change. */
export function useReloadReview() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: reviewKeys.all });
}

export const workDownloadUrl = (assignmentId: number) => `/api/review/center/works/${assignmentId}/download`;

export const STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success' };
