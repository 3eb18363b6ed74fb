import { ADMIN_MENU_CODES, JUDGING_NAMES, judgedByExperts, evaluationName, type ManagedQuestion } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Select, Table, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { usePermissions } from '../../common/auth.ts';
import { questionApi, questionKeys } from '../../api/questions.ts';
import { useCompetitionOptions } from './options.ts';

/** The competition list and the question list are those of the competition manager (spec §6). */
const COMPETITION_MENU = ADMIN_MENU_CODES.competition;

/**
 * The entry of the review pages: choose one of the competitions the user manages, then act on its questions.
 * The choice lives in the address (`?competitionId=`), so the list comes back as it was after visiting a question;
 * without one, the first competition is shown.
 */
export function CompetitionQuestions({
  title,
  actions,
  actionWidth = 220,
  judgedOnly = false,
}: {
  title: string;
  actions: (q: ManagedQuestion) => ReactNode;
  actionWidth?: number;
  /** The page is about experts' review: a question ranked by its private board alone says it needs none, instead of its actions. */
  judgedOnly?: boolean;
}) {
  const perms = usePermissions();
  const allowed = perms.has(COMPETITION_MENU);
  const competitions = useCompetitionOptions(allowed);
  const [params, setParams] = useSearchParams();
  const chosen = Number(params.get('competitionId')) || null;
  const competitionId = chosen ?? competitions.data?.[0]?.value ?? null;
  const questions = useQuery({
    queryKey: questionKeys.list(competitionId ?? 0),
    enabled: Boolean(competitionId),
    queryFn: () => questionApi.list(competitionId!),
  });

  const picker = competitions.data?.length ? (
    <Select
      aria-label="竞赛"
      value={competitionId}
      style={{ width: 280 }}
      showSearch
      optionFilterProp="label"
      options={competitions.data}
      onChange={(id: number) => setParams({ competitionId: String(id) }, { replace: true })}
    />
  ) : null;

  let body: ReactNode;
  if (!perms.loading && !allowed) body = <Empty description="没有查看竞赛列表的权限（需要“竞赛管理”菜单权限）" />;
  else if (competitions.data && !competitions.data.length) body = <Empty description="暂无可管理的竞赛" />;
  else
    body = (
      <Table<ManagedQuestion>
        rowKey="id"
        loading={competitions.isLoading || questions.isLoading}
        dataSource={questions.data}
        pagination={false}
        scroll={{ x: 1050 }}
        locale={{ emptyText: '该竞赛暂无赛题' }}
        columns={[
          { title: '赛题', dataIndex: 'title', width: 240 },
          { title: '状态', width: 90, render: (_, q) => (q.reviewed ? <Tag color="success">已审核</Tag> : <Tag>待审核</Tag>) },
          { title: '评判方式', width: 150, render: (_, q) => JUDGING_NAMES[q.judging] },
          { title: '自动评分', width: 170, render: (_, q) => (q.evaluation ? evaluationName(q.evaluation) : '不自动评分') },
          { title: '出题人', dataIndex: 'creatorName', width: 110 },
          {
            title: '操作',
            width: actionWidth,
            fixed: 'right',
            render: (_, q) =>
              judgedOnly && !judgedByExperts(q.judging) ? (
                <Typography.Text type="secondary" data-testid="not-judged">
                  按私榜排名，无需评审
                </Typography.Text>
              ) : (
                actions(q)
              ),
          },
        ]}
      />
    );

  return (
    <Card title={title} extra={picker}>
      {body}
    </Card>
  );
}
