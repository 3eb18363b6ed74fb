import type { GradeSummary, QuestionJudge } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../common/http.ts';

/**
 * Query keys of one question's review data under one root, so that a step (assigning, calculating, awarding)
 * refreshes everything it may have changed by invalidating `reviewKey(questionId)`.
 */
import { reviewKey } from '../../api/review.ts';

export { reviewKey };

/** The question's judges with their workload. */
export function useQuestionJudges(questionId: number, enabled = true) {
  return useQuery({ queryKey: reviewKey(questionId, 'judges'), enabled, queryFn: () => http.get<QuestionJudge[]>(`/api/review/judge/${questionId}`) });
}

/** Where the question's grades stand (the calculate / confirm steps gate awarding). */
export function useGradeSummary(questionId: number) {
  return useQuery({ queryKey: reviewKey(questionId, 'summary'), queryFn: () => http.get<GradeSummary>(`/api/review/works/grade/summary/${questionId}`) });
}

/** A person as the back office names them: the real name with the username, or the username alone. */
export const personLabel = (p: { username: string; userName: string | null }) => (p.userName ? `${p.userName}（${p.username}）` : p.username);
