import { ADMIN_ROUTES, accessibleRoutes, flattenRoutes, judgedByExperts, scoredAutomatically, type ManagedQuestion } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Segmented, Skeleton, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { usePermissions } from '../../common/auth.ts';
import { questionApi, questionKeys } from '../../api/questions.ts';
import { useIdParam } from './useIdParam.ts';

/** The pages of one question (`/question/<page>/:questionId`), in the order the header offers them. */
const QUESTION_PAGES = ['work', 'similarity', 'test', 'judge', 'grade', 'awards', 'certificate'] as const;
export type QuestionPageKey = (typeof QUESTION_PAGES)[number];

/** The question of a page's `:questionId`, as the question pages share it in the cache. */
export function useQuestion(questionId: number | null) {
  return useQuery({ queryKey: questionKeys.one(questionId), enabled: Boolean(questionId), queryFn: () => questionApi.check(questionId!) });
}

/**
 * Loads the question of the address and renders the page for it: the 404 page for an id that is not a number
 * or a question the user may not manage, a skeleton while it loads.
 */
export function QuestionScope({ children }: { children: (question: ManagedQuestion) => ReactNode }) {
  const questionId = useIdParam('questionId');
  const question = useQuestion(questionId);
  if (!questionId || question.isError) return <Navigate to="/404" replace />;
  if (!question.data) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  return <>{children(question.data)}</>;
}

/** The question's other pages this user may open, with their titles from the shared route list. */
function useQuestionPages() {
  const { codes } = usePermissions();
  const routes = flattenRoutes(accessibleRoutes(ADMIN_ROUTES, codes)).map(({ route }) => route);
  return QUESTION_PAGES.flatMap((key) => {
    const route = routes.find((r) => r.component === `question/${key}`);
    return route ? [{ key, title: route.meta.title, path: route.path }] : [];
  });
}

/** Which question a page is about (title and competition), with a switch to the question's other pages. */
export function QuestionHeader({ question, current, extra }: { question: ManagedQuestion; current: QuestionPageKey; extra?: ReactNode }) {
  const navigate = useNavigate();
  // A question ranked by its private board alone has no works or judges: their pages are not offered.
  // A question judged by experts alone has no tests or boards.
  const pages = useQuestionPages().filter(
    (p) =>
      (judgedByExperts(question.judging) || (p.key !== 'work' && p.key !== 'judge' && p.key !== 'similarity')) &&
      (scoredAutomatically(question.judging) || p.key !== 'test'),
  );
  return (
    <Card size="small">
      {/* Plain wrapping rows rather than Space: on a phone the page switch may scroll inside the card, never the page. */}
      <div style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <Space direction="vertical" size={0} style={{ minWidth: 0 }}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {question.title}
          </Typography.Title>
          <Typography.Text type="secondary">竞赛：{question.competitionName}</Typography.Text>
        </Space>
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, minWidth: 0, maxWidth: '100%' }}>
          {pages.length > 1 && (
            <div style={{ maxWidth: '100%', overflowX: 'auto' }}>
              <Segmented
                value={current}
                options={pages.map((p) => ({ value: p.key, label: p.title }))}
                onChange={(key) => navigate(pages.find((p) => p.key === key)!.path.replace(':questionId', String(question.id)))}
              />
            </div>
          )}
          {extra}
        </div>
      </div>
    </Card>
  );
}
