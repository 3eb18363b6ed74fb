import type { QueryClient } from '@tanstack/react-query';

/** The team's own test submissions for a question (the test tab's history, chart and quota). */
export const testsKey = (questionId: number) => ['tests', questionId] as const;
/** A question's leaderboards, public and private. */
export const boardKey = (questionId: number) => ['leaderboard', questionId] as const;

/**
 * A scoring finished on the question (the message stream's `board` event, or the tab's own watch of its queued files):
 * an open test tab reloads its list and boards. Queries no page shows are only marked stale.
 */
export function scoringFinished(client: QueryClient, questionId: number) {
  return Promise.all([client.invalidateQueries({ queryKey: testsKey(questionId) }), client.invalidateQueries({ queryKey: boardKey(questionId) })]);
}
