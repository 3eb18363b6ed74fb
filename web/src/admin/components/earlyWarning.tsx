import { earlyWarningText, publishRefusalText, type OpenSubmission } from '@contest/shared';
import { Alert } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useGradeSummary } from './review.ts';

/** The submission window the grade summary says is still open (or still to open), if any. */
function useOpenSubmission(questionId: number): OpenSubmission | null {
  return useGradeSummary(questionId).data?.submissionOpen ?? null;
}
/** The window, while its deadline has not passed on this clock (the page may have been open a while). */
const stillOpen = (open: OpenSubmission | null) => (open && Date.now() <= Date.parse(open.end) ? open : null);

/**
 * Issue 16 item 1: computing grades, awarding and generating certificates belong to a later phase than submitting.
 * While a submission window of the question's competition is still open (the grade summary says which, by the shared
 * lifecycle rule), the confirmation of such an action names it and its deadline.
 */
export function useEarlyWarning(questionId: number) {
  const summary = useOpenSubmission(questionId);
  return (consequence: string): string | null => {
    const open = stillOpen(summary);
    return open && earlyWarningText(open, consequence);
  };
}

/**
 * Publishing results (确认成绩) is refused by the server until every submission window has closed: the reason, in the
 * server's words, or null. The page renders again a moment after the deadline, so the button comes back by itself.
 */
export function usePublishRefusal(questionId: number): string | null {
  const summary = useOpenSubmission(questionId);
  const [, rerender] = useState(0);
  const end = summary?.end;
  useEffect(() => {
    if (!end) return;
    const wait = Date.parse(end) - Date.now() + 1000;
    // Beyond what a timer can hold (about 24 days) the page will have been reloaded long before.
    if (wait > 2_000_000_000) return;
    const timer = setTimeout(() => rerender((n) => n + 1), Math.max(wait, 0));
    return () => clearTimeout(timer);
  }, [end]);
  const open = stillOpen(summary);
  return open && publishRefusalText(open);
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
