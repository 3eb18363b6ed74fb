import { useQuery, useQueryClient } from '@tanstack/react-query';
import { judgingApi, judgingKeys, judgingUrls } from '../api/judging.ts';

/** The judge's questions with their progress. */
export function useReviewTasks() {
  return useQuery({ queryKey: judgingKeys.tasks, queryFn: () => judgingApi.tasks() });
}

export function useReviewWorks(questionId: number) {
  return useQuery({
    queryKey: judgingKeys.works(questionId),
    enabled: questionId > 0,
    queryFn: () => judgingApi.works(questionId),
  });
}

export function useReviewWork(assignmentId: number) {
  return useQuery({
    queryKey: judgingKeys.work(assignmentId),
    enabled: assignmentId > 0,
    queryFn: () => judgingApi.work(assignmentId),
  });
}

/** After a score is saved: the work, its question's list and the progress all change. */
export function useReloadReview() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: judgingKeys.all });
}

export const workDownloadUrl = judgingUrls.download;

export const STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success' };
