import type { QueryClient } from '@tanstack/react-query';
import { testSubmissionKeys } from '../api/test-submissions.ts';

/**
 * A scoring finished on the question (the message stream's `board` event, or the tab's own watch of its queued files):
 * an open test tab reloads its list and boards. Queries no page shows are only marked stale.
 */
export function scoringFinished(client: QueryClient, questionId: number) {
  return Promise.all([
    client.invalidateQueries({ queryKey: testSubmissionKeys.mine(questionId) }),
    client.invalidateQueries({ queryKey: testSubmissionKeys.boards(questionId) }),
  ]);
}
