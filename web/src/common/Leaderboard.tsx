import { LEADERBOARD_LIMIT, METRIC_NAMES, formatTestScore, metricName, type EvaluationMetric, type LeaderboardEntry } from '@contest/shared';
import { PushpinOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Empty, Grid, Pagination, Segmented, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { testSubmissionApi, testSubmissionKeys } from '../api/test-submissions.ts';
import { HttpError } from './http.ts';
import { formatMinute } from './time.ts';

const MINE = { background: '#e6f4ff', fontWeight: 600 };

const direction = (higherIsBetter: boolean) => (higherIsBetter ? '越高越好' : '越低越好');

/** The metric's name and which way is better, e.g. 「均方根误差（RMSE），越低越好」. */
export const metricText = (metric: string, higherIsBetter: boolean, name?: string) =>
  `${name && metric === 'custom' ? name : metric in METRIC_NAMES || metric === 'custom' ? metricName(metric as EvaluationMetric) : metric}，${direction(higherIsBetter)}`;

/** A board row; the team's own row, when it is not on the page shown, is pinned above the page's rows. */
type Row = LeaderboardEntry & { pinned?: boolean };

/**
 * One leaderboard of a question (public, or private once published), read a page at a time. Reloaded when a scoring
 * finishes on the question (the message stream's `board` event); the team's own row (which the server sends with every
 * page) is highlighted, and pinned on top when it is on another page.
 */
export function Leaderboard({ questionId, board, teamId }: { questionId: number; board: 'public' | 'private'; teamId: number }) {
  const [page, setPage] = useState(1);
  // '' is the whole board; a group's name, that group's own board (issue 36), ranked among its teams.
  const [group, setGroup] = useState('');
  // On a phone the direction is said once above the board, so the score column keeps a short title and the team room.
  const phone = Grid.useBreakpoint().md === false;
  const { data, error, isLoading } = useQuery({
    queryKey: testSubmissionKeys.board(questionId, board, page, group),
    retry: false,
    // The page shown stays while the next one loads, so the pager does not jump.
    placeholderData: keepPreviousData,
    queryFn: () => testSubmissionApi.board(questionId, board, page, group || undefined),
  });
  if (isLoading) return <Spin />;
  if (!data) return <Alert type="info" showIcon message={error instanceof HttpError ? error.message : '暂无排行'} />;
  const closed = board === 'private' && !data.published;
  // Participants get no entries before publication; an organiser looking at the site still sees them, marked as such.
  if (closed && !data.entries.length) return <Empty data-testid="private-closed" description="私榜尚未公布，将在成绩公布后显示" />;
  const mine = data.mine ?? data.entries.find((e) => e.teamId === teamId);
  const shown: Row[] = data.entries;
  const rows = mine && !shown.some((e) => e.teamId === mine.teamId) ? [{ ...mine, pinned: true }, ...shown] : shown;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {data.groups && data.groups.length > 0 && (
        <Segmented
          data-testid="board-groups"
          value={group}
          options={[{ value: '', label: '全部' }, ...data.groups.map((g) => ({ value: g, label: g }))]}
          onChange={(v) => {
            setGroup(String(v));
            setPage(1);
          }}
        />
      )}
      {closed && <Alert type="warning" showIcon message="私榜尚未公布，目前仅组织方可见" />}
      {data.rescoring && (
        <Alert type="info" showIcon data-testid="board-rescoring" message="评分设置已更新，正在按新设置重新评分，排行榜暂只显示已重新评分的提交" />
      )}
      <Typography.Text type="secondary" data-testid="board-metric">
        评分指标：{metricText(data.metric, data.higherIsBetter, data.metricName)}
        {board === 'public' ? '。公榜按测试集的一部分评分，私榜用其余部分决定最终名次' : ''}
        {mine ? `；我的队伍第 ${mine.rank} 名` : ''}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid="board-ties">
        同分时，先提交出该成绩的队伍排名在前。
      </Typography.Text>
      <Table<Row>
        rowKey={(e) => (e.pinned ? `pinned-${e.teamId}` : e.teamId)}
        size="small"
        tableLayout="fixed"
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: '暂无成绩' }}
        onRow={(e) => (e.teamId === teamId ? ({ 'data-testid': e.pinned ? 'my-row-pinned' : 'my-row', style: MINE } as React.HTMLAttributes<HTMLElement>) : {})}
        columns={[
          {
            title: '名次',
            width: phone ? 52 : 64,
            render: (_, e) => (
              <>
                {e.pinned && <PushpinOutlined title="我的队伍不在本页，固定显示在此" style={{ marginInlineEnd: 4 }} />}
                {e.rank}
              </>
            ),
          },
          {
            title: '队伍',
            render: (_, e) => (
              <span style={{ wordBreak: 'break-word' }}>
                {e.teamName}
                {e.teamId === teamId && (
                  <Tag color="blue" style={{ marginInlineStart: 8 }}>
                    我的队伍
                  </Tag>
                )}
              </span>
            ),
          },
          {
            title: phone ? '成绩' : `成绩（${direction(data.higherIsBetter)}）`,
            width: phone ? 84 : 130,
            render: (_, e) => <span data-testid="board-score">{formatTestScore(e.score)}</span>,
          },
          { title: '提交次数', dataIndex: 'submissions', width: 90, responsive: ['md'] },
          { title: '最近提交', width: 150, responsive: ['md'], render: (_, e) => formatMinute(e.lastAt) },
        ]}
      />
      {data.total > LEADERBOARD_LIMIT && (
        <Pagination
          size="small"
          align="end"
          current={page}
          pageSize={LEADERBOARD_LIMIT}
          total={data.total}
          showSizeChanger={false}
          showLessItems={phone}
          showTotal={phone ? undefined : (t) => `共 ${t} 支队伍`}
          onChange={setPage}
        />
      )}
    </Space>
  );
}
