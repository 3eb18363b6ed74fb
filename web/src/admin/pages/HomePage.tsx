import type { Dashboard, Todo, TodoCounts, TodoDisputeQuestion, TodoReviewQuestion } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Col, Empty, List, Popover, Row, Skeleton, Statistic, Typography } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../common/auth.ts';
import { systemApi, systemKeys, todoApi, todoKeys } from '../../api/system.ts';

// ECharts is loaded after the to-do list has shown, and only when there is a running competition to draw.
const RunningCharts = lazy(() => import('./RunningCharts.tsx'));

type Counter = Exclude<keyof Dashboard, 'scope'>;
/** The platform's counters, for the platform administrator. */
const PLATFORM_STATS: [Counter, string][] = [
  ['users', '注册用户'],
  ['activeUsers', '启用账号'],
  ['organisations', '组织机构'],
  ['roles', '角色'],
  ['sessions', '在线会话'],
];
/** An organiser's: its organisation's users, the roles they hold and their live sessions, each label saying so. */
const ORGANISATION_STATS: [Counter, string][] = [
  ['users', '本组织用户'],
  ['activeUsers', '本组织启用账号'],
  ['roles', '本组织用户持有的角色'],
  ['sessions', '本组织用户的在线会话'],
];

/** A question's grade page opened on its disputes waiting for an answer. */
export const disputeLink = (q: Pick<TodoDisputeQuestion, 'questionId'>) => `/question/grade/${q.questionId}?dispute=0`;

/** Each to-do with the list it opens, already filtered to what waits. */
/** The question list of a competition, where its new questions are approved. */
export const reviewLink = (q: Pick<TodoReviewQuestion, 'competitionId'>) => `/competition/edit/${q.competitionId}?tab=questions`;

export const TODO_LINKS: { key: keyof TodoCounts; title: string; to: (todo: Todo) => string }[] = [
  { key: 'applicationsToReview', title: '待审核组织方申请', to: () => '/partner/apply' },
  { key: 'competitionsToAudit', title: '待审核竞赛', to: () => '/competition/audit' },
  // A question added after its competition's approval: one opens its competition's questions, several are listed.
  { key: 'questionsToReview', title: '待审核赛题', to: (t) => (t.reviewQuestions[0] ? reviewLink(t.reviewQuestions[0]) : '/competition/manager') },
  { key: 'registrationsToReview', title: '待审核报名', to: () => '/register/manager?status=0' },
  { key: 'transfersToConfirm', title: '待确认转账', to: () => '/financial/order?waiting=1' },
  { key: 'invoicesToIssue', title: '待开票', to: () => '/financial/invoice?status=0' },
  // Disputes are answered on each question's grade page: one question opens it, several are listed to choose from.
  { key: 'disputesToAnswer', title: '待答复成绩申诉', to: (t) => (t.disputeQuestions.length === 1 ? disputeLink(t.disputeQuestions[0]!) : '/review/grade') },
  { key: 'judgesNotFinished', title: '未完成评审的专家', to: () => '/review/assign?unfinished=1' },
];

/** A to-do's questions to choose from, each opening where it is dealt with. */
function QuestionChoice({
  title,
  questions,
  children,
}: {
  title: string;
  questions: { key: number; text: string; to: string; extra?: string }[];
  children: ReactNode;
}) {
  return (
    <Popover
      title={title}
      trigger={['hover', 'click']}
      content={
        <List
          size="small"
          style={{ maxWidth: 360 }}
          dataSource={questions}
          rowKey="key"
          renderItem={(q) => (
            <List.Item extra={q.extra}>
              <Link to={q.to}>{q.text}</Link>
            </List.Item>
          )}
        />
      }
    >
      {children}
    </Popover>
  );
}

/** The questions a to-do leads to when it stands for several (disputes on several questions, new questions of several competitions). */
function choiceOf(key: keyof TodoCounts, todo: Todo) {
  if (key === 'disputesToAnswer' && todo.disputeQuestions.length > 1) {
    return {
      title: '待答复申诉的赛题',
      questions: todo.disputeQuestions.map((q) => ({
        key: q.questionId,
        text: `${q.questionTitle}（${q.competitionName}）`,
        to: disputeLink(q),
        extra: `${q.pending} 条`,
      })),
    };
  }
  if (key === 'questionsToReview' && todo.reviewQuestions.length > 1) {
    return {
      title: '待审核的赛题',
      questions: todo.reviewQuestions.map((q) => ({ key: q.questionId, text: `${q.questionTitle}（${q.competitionName}）`, to: reviewLink(q) })),
    };
  }
  return null;
}

/** The back-office home page: what waits for this person, the running competitions' figures, and the counters of the platform or of the organiser's organisation. */
export default function HomePage() {
  const { data: user } = useCurrentUser();
  const todo = useQuery({ queryKey: todoKeys.summary, queryFn: todoApi.summary });
  // The server scopes the counters as every organiser view: the platform's for the platform, else the caller's organisation.
  const stats = useQuery({ queryKey: systemKeys.dashboard, queryFn: systemApi.dashboard });
  const own = stats.data?.scope === 'organisation';
  const items = TODO_LINKS.filter((t) => todo.data && todo.data.counts[t.key] !== null);
  const running = todo.data?.running ?? [];

  return (
    <>
      <Typography.Title level={4}>欢迎回来，{user?.userName || user?.username}</Typography.Title>
      <Card title="待办事项" loading={todo.isLoading} style={{ marginBottom: 16 }}>
        {items.length ? (
          <Row gutter={[16, 16]}>
            {items.map((t) => {
              const count = todo.data!.counts[t.key] ?? 0;
              const card = (
                <Card size="small" hoverable>
                  <Statistic
                    title={<Badge status={count ? 'processing' : 'default'} text={t.title} />}
                    value={count}
                    suffix="项"
                    valueStyle={count ? undefined : { color: '#999' }}
                  />
                </Card>
              );
              const several = choiceOf(t.key, todo.data!);
              return (
                <Col xs={12} md={8} xl={4} key={t.key}>
                  {several ? (
                    <QuestionChoice {...several}>
                      <div role="button" tabIndex={0} aria-label={`${t.title} ${count}`}>
                        {card}
                      </div>
                    </QuestionChoice>
                  ) : (
                    <Link to={t.to(todo.data!)} aria-label={`${t.title} ${count}`}>
                      {card}
                    </Link>
                  )}
                </Col>
              );
            })}
          </Row>
        ) : (
          <Empty description="暂无待办" />
        )}
      </Card>
      {running.length > 0 && (
        <Card title="进行中的竞赛" style={{ marginBottom: 16 }}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <RunningCharts running={running} days={todo.data!.days} />
          </Suspense>
        </Card>
      )}
      {stats.data && (
        <Card
          title={own ? '本组织概况' : '平台概况'}
          extra={own ? <Typography.Text type="secondary">仅统计本组织的用户</Typography.Text> : undefined}
          data-testid="dashboard"
        >
          <Row gutter={[16, 16]}>
            {(own ? ORGANISATION_STATS : PLATFORM_STATS).map(([key, title]) => (
              <Col xs={12} md={8} lg={own ? 6 : 4} key={key}>
                <Statistic title={title} value={stats.data[key] ?? 0} />
              </Col>
            ))}
          </Row>
        </Card>
      )}
    </>
  );
}
