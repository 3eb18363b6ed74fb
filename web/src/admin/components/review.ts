import { useQuery } from '@tanstack/react-query';
import { gradeApi, gradeKeys } from '../../api/grades.ts';
import { reviewApi, reviewKey, reviewKeys } from '../../api/review.ts';

/**
 * Query keys of one question's review data under one root, so that a step (assigning, calculating, awarding)
 * refreshes everything it may have changed by invalidating `reviewKey(questionId)`.
 */
export { reviewKey };

/** The question's judges with their workload. */
export function useQuestionJudges(questionId: number, enabled = true) {
  return useQuery({ queryKey: reviewKeys.judges(questionId), enabled, queryFn: () => reviewApi.judges(questionId) });
}

/** Where the question's grades stand (the calculate / confirm steps gate awarding). */
export function useGradeSummary(questionId: number) {
  return useQuery({ queryKey: gradeKeys.summary(questionId), queryFn: () => gradeApi.summary(questionId) });
}

/** A person as the back office names them: the real name with the username, or the username alone. */
export const personLabel = (p: { username: string; userName: string | null }) => (p.userName ? `${p.userName}（${p.username}）` : p.username);
