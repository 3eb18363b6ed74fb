import { ADMIN_MENU_CODES, type UnfinishedJudge } from '@contest/shared';
import { Card, Flex, Progress, Segmented, Select, Table } from 'antd';
import { Link } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { todoApi, todoKeys, type UnfinishedJudgesParams } from '#src/api/system.ts';
import { CompetitionQuestions } from '../../components/CompetitionQuestions.tsx';
import { useCompetitionOptions } from '../../components/options.ts';
import { personLabel } from '../../components/review.ts';
import { usePagedList, type ListSource } from '#src/common/usePagedList.ts';
import { useUrlQuery, type UrlQuery } from '#src/common/useUrlQuery.ts';

type Filters = { unfinished: string; competitionId: number };
const FILTERS = { unfinished: 'text', competitionId: 'number' } as const;
type Query = UrlQuery<Filters>;

/** What the list asks the server: the page and the competition (`unfinished` only chooses the view). */
const judgesParams = ({ page, limit, competitionId }: Query): UnfinishedJudgesParams => ({ page, limit, competitionId });

/** The judges who still have works to submit, by question, with a link to the question's assignments. */
function UnfinishedJudges({ source }: { source: ListSource<Query> }) {
  const competitions = useCompetitionOptions(usePermissions().has(ADMIN_MENU_CODES.competition));
  const list = usePagedList(source, {
    queryKey: (q) => todoKeys.judges(judgesParams(q)),
    queryFn: (q) => todoApi.judges(judgesParams(q)),
    emptyText: '评审专家都已提交全部评分',
  });
  return (
    <Card title="未完成评审的专家">
      {competitions.data?.length ? (
        <Select
          aria-label="竞赛"
          allowClear
          placeholder="全部竞赛"
          value={list.query.competitionId}
          style={{ width: 280, maxWidth: '100%', marginBottom: 16 }}
          showSearch
          optionFilterProp="label"
          options={competitions.data}
          onChange={(competitionId?: number) => list.refine({ competitionId })}
        />
      ) : null}
      <Table<UnfinishedJudge>
        {...list.table}
        // A judge is listed once per question.
        rowKey={(j) => `${j.questionId}-${j.judgeId}`}
        scroll={{ x: 900 }}
        columns={[
          { title: '评审专家', width: 180, render: (_, j) => personLabel(j) },
          { title: '竞赛', dataIndex: 'competitionName', width: 200, ellipsis: true },
          { title: '赛题', dataIndex: 'questionTitle', width: 180, ellipsis: true },
          { title: '已分配', dataIndex: 'assigned', width: 80 },
          { title: '已提交', dataIndex: 'submitted', width: 80 },
          {
            title: '进度',
            width: 160,
            render: (_, j) => <Progress size="small" percent={Math.round((j.submitted / j.assigned) * 100)} format={() => `${j.submitted}/${j.assigned}`} />,
          },
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
  const source = useUrlQuery<Filters>(FILTERS);
  const { query, setQuery } = source;
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
        <UnfinishedJudges source={source} />
      ) : (
        <CompetitionQuestions title="赛题评审" actionWidth={140} judgedOnly actions={(q) => <Link to={`/question/judge/${q.id}`}>评审专家与分配</Link>} />
      )}
    </Flex>
  );
}
