import {
  ACTION_CODES,
  TEST_STATUS,
  TEST_STATUS_TEXT,
  formatSize,
  formatTestScore,
  type Disqualification,
  type DuplicatePair,
  type ManagedQuestion,
  type QuestionSubmission,
  type QuestionSubmissions,
  type QuestionSubmissionsQuery,
} from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Card, Checkbox, Flex, Grid, Input, Select, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { testSubmissionApi, testSubmissionKeys } from '#src/api/test-submissions.ts';
import { usePermissions } from '#src/common/auth.ts';
import { fileUrl } from '#src/common/files.ts';
import { Leaderboard } from '#src/common/Leaderboard.tsx';
import { formatMinute } from '#src/common/time.ts';
import { QuestionHeader, QuestionScope } from '../../components/QuestionScope.tsx';
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

const STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error' };
const score = (v: number | null) => (v === null ? '—' : <span title={String(v)}>{formatTestScore(v)}</span>);

/** What the organiser is asked a reason for: one submission's score, or a whole team's on the question. */
type Cancelling = { kind: 'submission'; row: QuestionSubmission } | { kind: 'team'; teamId: number; teamName: string };

/**
 * `/question/test/:questionId`: the organiser's view of a question's tests (issue 33): its public and private boards,
 * every team's submissions with their files, scores, selection and failures, and 取消成绩 / 恢复 of a submission or a
 * team, with a reason the team is told.
 */
export default function TestSubmissionsPage() {
  return <QuestionScope>{(q) => <TestSubmissions question={q} />}</QuestionScope>;
}

function TestSubmissions({ question }: { question: ManagedQuestion }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const editable = usePermissions().has(ACTION_CODES.competitionEdit);
  const id = question.id;
  const list = usePagedList(useListState<QuestionSubmissionsQuery>(), {
    queryKey: (q) => testSubmissionKeys.submissions(id, q),
    queryFn: (q) => testSubmissionApi.submissions(id, q),
    emptyText: '还没有队伍提交测试文件',
  });
  const [cancelling, setCancelling] = useState<Cancelling | null>(null);
  const lists = [testSubmissionKeys.submissions(id), testSubmissionKeys.boards(id), testSubmissionKeys.duplicates(id)];
  const cancel = useListMutation(
    ({ row, reason }: { row: QuestionSubmission; reason?: string }) => testSubmissionApi.cancel(row.id, reason !== undefined, reason),
    lists,
    (_, v) => void message.success(v.reason !== undefined ? '已取消该提交的成绩，已通知该队伍' : '已恢复该提交的成绩，已通知该队伍'),
  );
  const disqualify = useListMutation(
    ({ teamId, reason }: { teamId: number; reason?: string }) => testSubmissionApi.disqualify(id, teamId, reason !== undefined, reason),
    lists,
    (_, v) => void message.success(v.reason !== undefined ? '已取消该队伍的成绩，已通知该队伍' : '已恢复该队伍的成绩，已通知该队伍'),
  );
  // The page's reply carries the teams disqualified and whether the results are out beside the page of rows.
  const data = list.result.data as QuestionSubmissions | undefined;
  const locked = data?.locked ?? false;
  const out = new Set(data?.disqualified.map((d) => d.teamId));
  const acts = editable && !locked;
  // On a phone a fixed column of actions would hide the row it acts on: the whole row scrolls instead.
  const phone = Grid.useBreakpoint().md === false;

  if (!question.evaluation) {
    return (
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <QuestionHeader question={question} current="test" />
        <Card>
          <Alert type="info" showIcon message="该赛题没有设置自动评分，没有测试提交和排行榜" />
        </Card>
      </Space>
    );
  }

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <QuestionHeader question={question} current="test" />
      {locked && <Alert type="info" showIcon message="该赛题的成绩已确认公布，提交和队伍的成绩不能再取消或恢复" />}
      <Card title="排行榜" size="small">
        <Tabs
          items={[
            { key: 'public', label: '公榜', children: <Leaderboard questionId={id} board="public" teamId={0} /> },
            {
              key: 'private',
              label: '私榜',
              children: (
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Typography.Text type="secondary">私榜在确认成绩时与成绩一同公布；被取消成绩的提交和队伍不计入两个排行榜。</Typography.Text>
                  <Leaderboard questionId={id} board="private" teamId={0} />
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <DuplicatesCard questionId={id} onDisqualify={acts ? (teamId, teamName) => setCancelling({ kind: 'team', teamId, teamName }) : undefined} />
      {Boolean(data?.disqualified.length) && (
        <Card title="已取消成绩的队伍" size="small" data-testid="disqualified">
          <Table<Disqualification>
            rowKey="teamId"
            size="small"
            pagination={false}
            scroll={{ x: 640 }}
            dataSource={data!.disqualified}
            columns={[
              { title: '队伍', dataIndex: 'teamName', width: 160 },
              { title: '原因', dataIndex: 'reason' },
              { title: '操作人', dataIndex: 'username', width: 120 },
              { title: '时间', width: 150, render: (_, d) => formatMinute(d.createdAt) },
              ...(acts
                ? [
                    {
                      title: '操作',
                      width: 80,
                      render: (_: unknown, d: Disqualification) => (
                        <ActionLink
                          onClick={() =>
                            confirm(`恢复队伍“${d.teamName}”的成绩？它的提交将重新计入排行榜，并通知该队伍。`, () =>
                              disqualify.mutateAsync({ teamId: d.teamId }),
                            )
                          }
                        >
                          恢复
                        </ActionLink>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </Card>
      )}
      <Card title="测试提交记录" size="small">
        <Flex wrap gap={8} style={{ marginBottom: 12 }}>
          <Input.Search
            allowClear
            placeholder="队伍名称"
            aria-label="按队伍名称搜索"
            style={{ width: 220, maxWidth: '100%' }}
            onSearch={(v) => list.refine({ keyword: v.trim() || undefined, teamId: undefined })}
          />
          <Select<number | 'all'>
            aria-label="状态"
            style={{ width: 120 }}
            value={list.query.status ?? 'all'}
            onChange={(v) => list.refine({ status: v === 'all' ? undefined : v })}
            options={[
              { value: 'all' as const, label: '全部状态' },
              ...Object.entries(TEST_STATUS_TEXT).map(([value, label]) => ({ value: Number(value), label })),
            ]}
          />
          <Checkbox checked={list.query.cancelled === '1'} onChange={(e) => list.refine({ cancelled: e.target.checked ? '1' : undefined })}>
            只看已取消成绩的提交
          </Checkbox>
        </Flex>
        <Table<QuestionSubmission>
          {...list.table}
          size="small"
          scroll={{ x: acts ? 1480 : 1290 }}
          columns={[
            { title: '提交时间', width: 140, render: (_, s) => formatMinute(s.createdAt) },
            {
              title: '队伍',
              width: 150,
              render: (_, s) => (
                <>
                  <ActionLink onClick={() => list.refine({ teamId: s.teamId, keyword: undefined })} title="只看该队伍的提交">
                    {s.teamName}
                  </ActionLink>
                  {out.has(s.teamId) && (
                    <div>
                      <Tag color="error">队伍成绩已取消</Tag>
                    </div>
                  )}
                </>
              ),
            },
            { title: '提交人', dataIndex: 'username', width: 110 },
            {
              title: '文件',
              width: 200,
              render: (_, s) =>
                s.fileUri ? (
                  <a href={fileUrl(s.fileUri)} target="_blank" rel="noopener noreferrer" title={`下载 ${s.fileName}`}>
                    {s.fileName}
                  </a>
                ) : (
                  <Tooltip title="评分前即被拒收的文件不保留">
                    <Typography.Text type="secondary">{s.fileName}（已删除）</Typography.Text>
                  </Tooltip>
                ),
            },
            { title: '大小', width: 90, render: (_, s) => formatSize(s.size) },
            {
              title: '状态',
              width: 110,
              render: (_, s) => (s.cancelledAt ? <Tag color="error">成绩已取消</Tag> : <Tag color={STATUS_COLORS[s.status]}>{TEST_STATUS_TEXT[s.status]}</Tag>),
            },
            { title: '公榜', width: 90, render: (_, s) => score(s.publicScore) },
            { title: '私榜', width: 90, render: (_, s) => score(s.privateScore) },
            { title: '最终结果', width: 80, render: (_, s) => (s.selected ? <Tag color="blue">已选</Tag> : '') },
            {
              title: '说明',
              width: 220,
              render: (_, s) => (
                <Typography.Paragraph
                  style={{ margin: 0, fontSize: 12 }}
                  ellipsis={{ rows: 3, tooltip: [s.reason, s.scorerLog].filter(Boolean).join('\n') || undefined }}
                >
                  {s.cancelReason !== null ? `取消原因：${s.cancelReason}` : s.status === TEST_STATUS.failed ? (s.reason ?? '') : ''}
                  {s.scorerLog ? `（程序输出：${s.scorerLog}）` : ''}
                </Typography.Paragraph>
              ),
            },
            ...(acts
              ? [
                  {
                    title: '操作',
                    width: 190,
                    fixed: phone ? undefined : ('right' as const),
                    render: (_: unknown, s: QuestionSubmission) => (
                      <Space wrap size={[8, 0]}>
                        {s.cancelledAt ? (
                          <ActionLink
                            onClick={() =>
                              confirm(`恢复“${s.teamName}”提交的“${s.fileName}”的成绩？它将重新计入排行榜，并通知该队伍。`, () =>
                                cancel.mutateAsync({ row: s }),
                              )
                            }
                          >
                            恢复成绩
                          </ActionLink>
                        ) : (
                          s.status === TEST_STATUS.scored && <ActionLink onClick={() => setCancelling({ kind: 'submission', row: s })}>取消成绩</ActionLink>
                        )}
                        {!out.has(s.teamId) && (
                          <ActionLink onClick={() => setCancelling({ kind: 'team', teamId: s.teamId, teamName: s.teamName })}>取消队伍成绩</ActionLink>
                        )}
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      {cancelling && (
        <ReasonModal
          action="取消成绩"
          max={200}
          title={
            cancelling.kind === 'submission'
              ? `取消“${cancelling.row.teamName}”提交的“${cancelling.row.fileName}”的成绩`
              : `取消队伍“${cancelling.teamName}”在该赛题的成绩`
          }
          placeholder={
            cancelling.kind === 'submission'
              ? '该提交将不计入公榜和私榜；原因会通知该队伍'
              : '该队伍将不出现在排行榜和成绩中，也不能再提交测试文件；原因会通知该队伍'
          }
          onSubmit={(reason) =>
            cancelling.kind === 'submission'
              ? cancel.mutateAsync({ row: cancelling.row, reason })
              : disqualify.mutateAsync({ teamId: cancelling.teamId, reason })
          }
          onClose={() => setCancelling(null)}
        />
      )}
    </Space>
  );
}

/**
 * Pairs of teams whose prediction files agree far more than independent models do (issue 37): the same wrong
 * predictions on the private rows. The evidence for the organiser, who may cancel a team's scores with a reason.
 */
function DuplicatesCard({ questionId, onDisqualify }: { questionId: number; onDisqualify?: (teamId: number, teamName: string) => void }) {
  const duplicates = useQuery({ queryKey: testSubmissionKeys.duplicates(questionId), queryFn: () => testSubmissionApi.duplicates(questionId) });
  const pairs = duplicates.data?.pairs ?? [];
  const team = (s: DuplicatePair['a']) => (
    <Space direction="vertical" size={0}>
      <span>
        {s.teamName}（{s.teamNo}）
      </span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {s.fileName} · {formatMinute(s.createdAt)} · 私榜 {score(s.privateScore)}
      </Typography.Text>
      {onDisqualify && <ActionLink onClick={() => onDisqualify(s.teamId, s.teamName)}>取消队伍成绩</ActionLink>}
    </Space>
  );
  return (
    <Card
      title="疑似重复提交（多账号）"
      size="small"
      data-testid="duplicates"
      extra={duplicates.data && <Typography.Text type="secondary">已比对 {duplicates.data.files} 个文件</Typography.Text>}
    >
      <Typography.Paragraph type="secondary">
        独立建模的队伍在私榜数据上会错在不同的地方；两支队伍的提交错在同样的行、给出同样的错误预测时，可能是同一人或共享了预测结果。以下为估算值，仅供核查，不会自动改变任何成绩。
      </Typography.Paragraph>
      <Table<DuplicatePair>
        rowKey={(p) => `${p.a.submissionId}-${p.b.submissionId}`}
        size="small"
        loading={duplicates.isLoading}
        dataSource={pairs}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 900 }}
        locale={{ emptyText: '没有发现疑似重复的提交' }}
        columns={[
          { title: '队伍一', key: 'a', render: (_, p) => team(p.a) },
          { title: '队伍二', key: 'b', render: (_, p) => team(p.b) },
          {
            title: '私榜相同预测',
            key: 'identical',
            width: 130,
            render: (_, p) => (
              <Tooltip title={`私榜共 ${p.privateRows} 行`}>
                <Tag color="red">{(p.identical / 10).toFixed(1)}%</Tag>
              </Tooltip>
            ),
          },
          {
            title: '相同的错误预测',
            key: 'wrong',
            width: 170,
            render: (_, p) => `约 ${p.sharedWrong} 行（占双方错误预测的 ${(p.wrongShare / 10).toFixed(0)}%）`,
          },
        ]}
      />
    </Card>
  );
}
