import { ADMIN_MENU_CODES, type Page, type UnfinishedJudge } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Flex, Progress, Segmented, Select, Table } from 'antd';
import { Link } from 'react-router';
import { usePermissions } from '../../../common/auth.ts';
import { http } from '../../../common/http.ts';
import { pager } from '../../../common/pager.ts';
import { CompetitionQuestions } from '../../components/CompetitionQuestions.tsx';
import { useCompetitionOptions } from '../../components/options.ts';
import { personLabel } from '../../components/review.ts';
import { useUrlQuery } from '../../components/useUrlQuery.ts';

type Filters = { unfinished: string; competitionId: number };
const FILTERS = { unfinished: 'text', competitionId: 'number' } as const;

/** The judges who still have works to submit, by question, with a link to the question's assignments. */
function UnfinishedJudges({ competitionId, onCompetition, onPage, page, limit }: { competitionId?: number; onCompetition: (id?: number) => void; onPage: (page: number, limit: number) => void; page: number; limit: number }) {
  const competitions = useCompetitionOptions(usePermissions().has(ADMIN_MENU_CODES.competition));
  const judges = useQuery({
    queryKey: ['unfinishedJudges', competitionId, page, limit],
    queryFn: () => http.get<Page<UnfinishedJudge>>('/api/system/todo/judges', { page, limit, competitionId }),
  });
  return (
    <Card title="未完成评审的专家">
      {competitions.data?.length ? (
        <Select
          aria-label="竞赛"
          allowClear
          placeholder="全部竞赛"
          value={competitionId}
          style={{ width: 280, maxWidth: '100%', marginBottom: 16 }}
          showSearch
          optionFilterProp="label"
          options={competitions.data}
          onChange={(id?: number) => onCompetition(id)}
        />
      ) : null}
      <Table<UnfinishedJudge>
        rowKey={(j) => `${j.questionId}-${j.judgeId}`}
        loading={judges.isLoading}
        dataSource={judges.data?.list}
        scroll={{ x: 900 }}
        locale={{ emptyText: '评审专家都已提交全部评分' }}
        pagination={pager(judges.data, onPage)}
        columns={[
          { title: '评审专家', width: 180, render: (_, j) => personLabel(j) },
          { title: '竞赛', dataIndex: 'competitionName', width: 200, ellipsis: true },
          { title: '赛题', dataIndex: 'questionTitle', width: 180, ellipsis: true },
          { title: '已分配', dataIndex: 'assigned', width: 80 },
          { title: '已提交', dataIndex: 'submitted', width: 80 },
          { title: '进度', width: 160, render: (_, j) => <Progress size="small" percent={Math.round((j.submitted / j.assigned) * 100)} format={() => `${j.submitted}/${j.assigned}`} /> },
          { title: '操作', width: 120, fixed: 'right', render: (_, j) => <Link to={`/question/judge/${j.questionId}`}>查看评审分配</Link> },
        ]}
      />
    </Card>
  );
}

/**
 * `review/assign`: the questions of a chosen competition, each opening its judges and assignments; or, as the home
 * page's to-do 未完成评审的专家 opens it (`?unfinished=1`), the judges who have not finished.
 */
export default function AssignPage() {
  const { query, setQuery } = useUrlQuery<Filters>(FILTERS);
  const unfinished = query.unfinished === '1';
  return (
    <Flex vertical gap={16}>
      <Segmented
        style={{ alignSelf: 'flex-start' }}
        value={unfinished ? 'unfinished' : 'questions'}
        options={[
          { label: '按赛题', value: 'questions' },
          { label: '未完成评审的专家', value: 'unfinished' },
        ]}
        onChange={(v) => setQuery({ page: 1, limit: query.limit, competitionId: query.competitionId, unfinished: v === 'unfinished' ? '1' : undefined })}
      />
      {unfinished ? (
        <UnfinishedJudges
          competitionId={query.competitionId}
          page={query.page}
          limit={query.limit}
          onCompetition={(competitionId) => setQuery({ page: 1, limit: query.limit, unfinished: '1', competitionId })}
          onPage={(page, limit) => setQuery({ ...query, page, limit })}
        />
      ) : (
        <CompetitionQuestions title="赛题评审" actionWidth={140} actions={(q) => <Link to={`/question/judge/${q.id}`}>评审专家与分配</Link>} />
      )}
    </Flex>
  );
}
