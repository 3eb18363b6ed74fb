import { earlyWarningText, type GradeSummary, type OpenSubmission } from '@contest/shared';
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useGradeSummary } from './review.ts';

/**
 * Issue 16 item 1: computing, confirming grades, awarding and generating certificates belong to a later phase than
 * submitting. While a submission window of the question's competition is still open (the grade summary says which, by
 * the shared lifecycle rule), the confirmation of such an action names it and its deadline.
 */
export function useEarlyWarning(questionId: number) {
  const summary = useGradeSummary(questionId).data as (GradeSummary & { submissionOpen?: OpenSubmission | null }) | undefined;
  return (consequence: string): string | null => {
    const open = summary?.submissionOpen;
    return open && Date.now() <= Date.parse(open.end) ? earlyWarningText(open, consequence) : null;
  };
}

/** The confirmation's content: the early warning first, when there is one, then what the action does. */
export function withEarlyWarning(warning: string | null, content: ReactNode): ReactNode {
  if (!warning) return content;
  return (
    <>
      <Alert type="warning" showIcon message={warning} data-testid="early-warning" style={{ marginBottom: 8 }} />
      {content}
    </>
  );
}
