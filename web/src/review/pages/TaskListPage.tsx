import type { ReviewTask } from '@contest/shared';
import { Card, Empty, Grid, List, Progress, Space, Spin, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useReviewTasks } from '../api.ts';

/** The judge's questions, grouped by competition, in the order the server gives them. */
function byCompetition(tasks: ReviewTask[]) {
  const groups = new Map<number, { name: string; tasks: ReviewTask[] }>();
  for (const t of tasks) {
    const group = groups.get(t.competitionId) ?? { name: t.competitionName, tasks: [] };
    group.tasks.push(t);
    groups.set(t.competitionId, group);
  }
  return [...groups.entries()].map(([id, g]) => ({ id, ...g }));
}

/** `#/`: what the judge has to review, with the progress of each question. */
export default function TaskListPage() {
  const { data, isLoading } = useReviewTasks();
  // On a phone the progress goes under the question, and the count under the card's title.
  const phone = Grid.useBreakpoint().md === false;
  const tasks = data ?? [];
  const total = tasks.reduce((n, t) => n + t.total, 0);
  const submitted = tasks.reduce((n, t) => n + t.submitted, 0);
  return (
    <Card
      title="我的评审任务"
      extra={
        !phone &&
        total > 0 && (
          <Typography.Text type="secondary">
            共 {total} 份作品，已提交 {submitted} 份
          </Typography.Text>
        )
      }
    >
      {phone && total > 0 && (
        <Typography.Paragraph type="secondary">
          共 {total} 份作品，已提交 {submitted} 份
        </Typography.Paragraph>
      )}
      {isLoading ? (
        <Spin style={{ display: 'block', margin: '40px auto' }} />
      ) : !tasks.length ? (
        <Empty description="暂无分配给您的评审作品" />
      ) : (
        byCompetition(tasks).map((group) => (
          <section key={group.id} style={{ marginBottom: 24 }}>
            <Typography.Title level={5}>{group.name}</Typography.Title>
            <List
              bordered
              dataSource={group.tasks}
              renderItem={(t) => {
                const done = t.total > 0 && t.submitted >= t.total;
                return (
                  <List.Item
                    data-testid="review-task"
                    style={phone ? { display: 'block' } : undefined}
                    actions={
                      phone
                        ? undefined
                        : [
                            <Link key="open" to={`/question/${t.questionId}`}>
                              {done ? '查看作品' : '进入评审'}
                            </Link>,
                          ]
                    }
                  >
                    <List.Item.Meta
                      title={
                        <Space wrap>
                          <Link to={`/question/${t.questionId}`}>{t.questionTitle}</Link>
                          {t.blind && <Tag color="purple">盲评</Tag>}
                        </Space>
                      }
                      description={`已提交 ${t.submitted} 份，共 ${t.total} 份`}
                    />
                    <Progress
                      style={{ width: phone ? '100%' : 220, margin: 0 }}
                      percent={t.total ? Math.round((t.submitted / t.total) * 100) : 0}
                      status={done ? 'success' : 'normal'}
                      format={() => `${t.submitted}/${t.total}`}
                    />
                    {phone && (
                      <Link to={`/question/${t.questionId}`} style={{ display: 'inline-block', marginTop: 4 }}>
                        {done ? '查看作品' : '进入评审'}
                      </Link>
                    )}
                  </List.Item>
                );
              }}
            />
          </section>
        ))
      )}
    </Card>
  );
}
