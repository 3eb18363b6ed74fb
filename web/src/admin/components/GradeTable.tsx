import { formatScore, formatTestScore, judgedByExperts, scoredAutomatically, totalText, type Grade, type Judging } from '@contest/shared';
import { Input, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { reviewApi, reviewKeys, type ReviewListParams } from '../../api/review.ts';
import { useListState, usePagedList } from '../../common/usePagedList.ts';
import { useCompetition } from '../pages/competition/parts/useCompetition.ts';

/** A score rounded as the site shows it (two decimals; a metric's value six), its exact value on hover. */
const score = (v: number | null, metric = false) => (v === null ? '—' : <span title={String(v)}>{metric ? formatTestScore(v) : formatScore(v)}</span>);

/**
 * A question's grades, searchable and paged. `full` adds every judge's total and the parts of the final score
 * (the grade page); without it the table is what awarding needs. `award` renders the award cell (a picker).
 */
export function GradeTable({
  questionId,
  full,
  award,
  judging = 'both',
  competitionId,
}: {
  questionId: number;
  /** The question's competition: where it has groups (issue 36), the table shows each team's and filters by it. */
  competitionId?: number;
  full?: boolean;
  award?: (g: Grade) => ReactNode;
  judging?: Judging;
}) {
  const list = usePagedList(useListState<ReviewListParams>(), {
    queryKey: (q) => reviewKeys.grades(questionId, q),
    queryFn: (q) => reviewApi.grades(questionId, q),
    emptyText: '暂无成绩，请先计算成绩',
    rowKey: 'teamId',
  });
  const eligibility = useCompetition(competitionId ?? null).data?.eligibility;
  const groups = eligibility && eligibility.groupMode !== 'none' ? eligibility.groupList.map((g) => g.name) : [];
  const judges = Math.max(0, ...(list.result.data?.list.map((g) => Math.max(g.judgesTotal, g.reviewScores.length)) ?? []));

  const columns: ColumnsType<Grade> = [
    { title: '名次', width: 70, render: (_, g) => score(g.rank) },
    { title: '队伍编号', dataIndex: 'teamNo', width: 120 },
    { title: '队伍名称', dataIndex: 'teamName', width: 180 },
    ...(groups.length ? ([{ title: '组别', dataIndex: 'groupName', width: 100 }] satisfies ColumnsType<Grade>) : []),
    // The parts the question's judging has: the judges' scores where experts judge, the private board's where files are
    // scored (and its points out of 100 where both combine).
    ...(full && judgedByExperts(judging)
      ? ([
          ...Array.from({ length: judges }, (_, i) => ({
            title: `评分${i + 1}`,
            width: 100,
            render: (_: unknown, g: Grade) => (g.reviewScores[i] === undefined ? '—' : totalText(g.reviewScores[i]!, g.maxTotal)),
          })),
          { title: '评审成绩', width: 90, render: (_, g) => score(g.reviewScore) },
          {
            title: '评审进度',
            width: 90,
            render: (_, g) => <Tag color={g.judgesDone >= g.judgesTotal ? 'success' : 'warning'}>{`${g.judgesDone}/${g.judgesTotal}`}</Tag>,
          },
        ] satisfies ColumnsType<Grade>)
      : []),
    ...(full && scoredAutomatically(judging)
      ? ([{ title: '私榜得分', width: 100, render: (_, g) => score(g.testScore, true) }] satisfies ColumnsType<Grade>)
      : []),
    ...(full && judging === 'both' ? ([{ title: '测试得分', width: 90, render: (_, g) => score(g.testPoints) }] satisfies ColumnsType<Grade>) : []),
    // A question ranked by its private board has that board's score as its final score: a metric's value.
    { title: '最终成绩', width: 100, render: (_, g) => <b>{score(g.finalScore, judging === 'auto')}</b> },
    {
      title: '奖项',
      width: award ? 200 : 140,
      fixed: 'right',
      render: (_, g) =>
        award ? (
          award(g)
        ) : (
          <>
            {g.awardName ?? '—'} {g.awardManual && <Tag>手动</Tag>}
          </>
        ),
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder="队伍名称或编号" style={{ width: 280 }} onSearch={(v) => list.refine({ keyword: v.trim() || undefined })} />
        {groups.length > 0 && (
          <Select
            allowClear
            aria-label="组别"
            placeholder="全部组别（名次按组别分别排列）"
            style={{ width: 260 }}
            options={groups.map((g) => ({ value: g, label: g }))}
            onChange={(v?: string) => list.refine({ groupName: v || undefined })}
          />
        )}
      </Space>
      <Table<Grade> {...list.table} columns={columns} scroll={{ x: full ? 900 + judges * 80 : 700 }} />
    </>
  );
}
