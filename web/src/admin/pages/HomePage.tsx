import type { Dashboard, RunningCompetition, Todo, TodoCounts } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Col, Empty, Progress, Row, Statistic, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { useCurrentUser, usePermissions } from '../../common/auth.ts';
import { http } from '../../common/http.ts';

const STATS: [keyof Dashboard, string][] = [
  ['users', '注册用户'],
  ['activeUsers', '启用账号'],
  ['organisations', '组织机构'],
  ['roles', '角色'],
  ['sessions', '在线会话'],
];

/** Each to-do with the list it opens, already filtered to what waits. */
export const TODO_LINKS: { key: keyof TodoCounts; title: string; to: (competitionId?: number) => string }[] = [
  { key: 'competitionsToAudit', title: '待审核竞赛', to: () => '/competition/audit' },
  { key: 'registrationsToReview', title: '待审核报名', to: (c) => `/register/manager?status=0${c ? `&competitionId=${c}` : ''}` },
  { key: 'transfersToConfirm', title: '待确认转账', to: (c) => `/financial/order?waiting=1${c ? `&competitionId=${c}` : ''}` },
  { key: 'invoicesToIssue', title: '待开票', to: (c) => `/financial/invoice${c ? `?competitionId=${c}` : ''}` },
  { key: 'disputesToAnswer', title: '待答复成绩申诉', to: () => '/review/grade' },
  { key: 'judgesNotFinished', title: '未完成评审的专家', to: () => '/review/assign' },
];

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 100) : 0);

/** The back-office home page: what waits for this person, the running competitions' figures, and for the platform its counters. */
export default function HomePage() {
  const { data: user } = useCurrentUser();
  const isPlatform = usePermissions().has('system:user:menu');
  const todo = useQuery({ queryKey: ['todo'], queryFn: () => http.get<Todo>('/api/system/todo') });
  const stats = useQuery({ queryKey: ['dashboard'], queryFn: () => http.get<Dashboard>('/api/system/dashboard'), enabled: isPlatform });
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
              return (
                <Col xs={12} md={8} xl={4} key={t.key}>
                  <Link to={t.to()} aria-label={`${t.title} ${count}`}>
                    <Card size="small" hoverable>
                      <Statistic title={<Badge status={count ? 'processing' : 'default'} text={t.title} />} value={count} suffix="项" valueStyle={count ? undefined : { color: '#999' }} />
                    </Card>
                  </Link>
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
          <Table<RunningCompetition>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={running}
            scroll={{ x: 800 }}
            columns={[
              { title: '竞赛', dataIndex: 'name', width: 240 },
              { title: '报名', width: 120, render: (_, c) => <Link to={`/register/manager?competitionId=${c.id}`}>{c.registrations}（已通过 {c.approved}）</Link> },
              { title: '已缴费', dataIndex: 'paid', width: 90 },
              { title: '提交作品', dataIndex: 'submissions', width: 90 },
              {
                title: '评审进度',
                width: 220,
                render: (_, c) => (c.reviewsTotal ? <Progress percent={percent(c.reviewsDone, c.reviewsTotal)} size="small" format={() => `${c.reviewsDone}/${c.reviewsTotal}`} /> : '未分配'),
              },
            ]}
          />
        </Card>
      )}
      {isPlatform && (
        <Card title="平台概况">
          <Row gutter={[16, 16]}>
            {STATS.map(([key, title]) => (
              <Col xs={12} md={8} lg={4} key={key}>
                <Statistic loading={stats.isLoading} title={title} value={stats.data?.[key] ?? 0} />
              </Col>
            ))}
          </Row>
        </Card>
      )}
    </>
  );
}
