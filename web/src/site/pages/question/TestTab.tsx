import { METRIC_NAMES, TEST_STATUS, TEST_STATUS_TEXT, formatSize, sampleCsv, submissionWindow, windowRefusal, windowState, type Leaderboard, type Metric, type MyTests, type TestFormat, type TestSubmission } from '@contest/shared';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Result, Space, Spin, Switch, Table, Tabs, Tag, Tooltip, Typography, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useCurrentUser } from '../../../common/auth.ts';
import { HttpError, goLogin, http, sysTime } from '../../../common/http.ts';
import { formatMinute } from '../../../common/time.ts';
import { Countdown } from '../../../common/Countdown.tsx';
import { uploadError, uploadHeaders } from '../../../common/upload.ts';
import { useTeam } from '../../team.ts';
import { useCompetition } from '../competition/CompetitionLayout.tsx';

const STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error' };
const fmt = (v: number | null) => (v === null ? '—' : Number(v.toFixed(6)).toString());

/** The metric's name and which way is better, e.g. 「均方根误差（RMSE），越低越好」. */
const metricText = (metric: string, higherIsBetter: boolean) => `${METRIC_NAMES[metric as Metric] ?? metric}，${higherIsBetter ? '越高越好' : '越低越好'}`;

/** The expected prediction file, with the question's own column names and a sample made in the browser. */
function FileFormat({ format }: { format: TestFormat }) {
  const sample = sampleCsv(format);
  // A BOM so that Excel opens the UTF-8 sample with the right encoding.
  const href = `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${sample}`)}`;
  return (
    <Alert
      type="info"
      data-testid="file-format"
      message="文件格式"
      description={
        <Space direction="vertical" size={4} style={{ width: '100%' }}>
          <span>
            CSV文件（UTF-8或GBK编码），第一行为表头，须包含编号列 <Typography.Text code>{format.idColumn}</Typography.Text> 和预测列{' '}
            <Typography.Text code>{format.targetColumn}</Typography.Text>；此后每行一个测试集编号及其预测值，每个编号恰好一行。
          </span>
          <span>评分指标：{metricText(format.metric, format.higherIsBetter)}。</span>
          <pre data-testid="sample-csv" style={{ margin: 0, padding: '4px 8px', background: 'rgba(0,0,0,0.04)', borderRadius: 4, overflowX: 'auto' }}>
            {sample.trimEnd().replace(/\r\n/g, '\n')}
          </pre>
          <Button size="small" icon={<DownloadOutlined />} href={href} download="sample_submission.csv" data-testid="sample-download">
            下载示例文件
          </Button>
          <Typography.Text type="secondary">示例中的编号和数值仅为示意，请替换为测试集中的全部编号及您的预测。</Typography.Text>
        </Space>
      }
    />
  );
}

function Board({ questionId, board, teamId }: { questionId: number; board: 'public' | 'private'; teamId: number }) {
  const { data, error, isLoading } = useQuery({
    queryKey: ['leaderboard', questionId, board],
    retry: false,
    queryFn: () => http.get<Leaderboard>(`/api/review/test/leaderboard/${questionId}`, { board }, { silent: true }),
  });
  if (isLoading) return <Spin />;
  if (!data) return <Alert type="info" showIcon message={error instanceof HttpError ? error.message : '暂无排行'} />;
  const closed = board === 'private' && !data.published;
  // Participants get no entries before publication; an organiser looking at the site still sees them, marked as such.
  if (closed && !data.entries.length) return <Empty data-testid="private-closed" description="私榜尚未公布，将在成绩公布后显示" />;
  const mine = data.entries.find((e) => e.teamId === teamId);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {closed && <Alert type="warning" showIcon message="私榜尚未公布，目前仅组织方可见" />}
      <Typography.Text type="secondary" data-testid="board-metric">
        评分指标：{metricText(data.metric, data.higherIsBetter)}
        {board === 'public' ? '。公榜按测试集的一部分评分，私榜用其余部分决定最终名次' : ''}
        {mine ? `；我的队伍第 ${mine.rank} 名` : ''}
      </Typography.Text>
      <Table
        rowKey="teamId"
        size="small"
        dataSource={data.entries}
        pagination={{ pageSize: 20, showTotal: (t) => `共 ${t} 支队伍` }}
        scroll={{ x: 560 }}
        locale={{ emptyText: '暂无成绩' }}
        onRow={(e) => (e.teamId === teamId ? { 'data-testid': 'my-row', style: { background: '#e6f4ff', fontWeight: 600 } } as React.HTMLAttributes<HTMLElement> : {})}
        columns={[
          { title: '名次', dataIndex: 'rank', width: 70 },
          {
            title: '队伍',
            render: (_, e) => (
              <>
                {e.teamName}
                {e.teamId === teamId && (
                  <Tag color="blue" style={{ marginInlineStart: 8 }}>
                    我的队伍
                  </Tag>
                )}
              </>
            ),
          },
          { title: `成绩（${data.higherIsBetter ? '越高越好' : '越低越好'}）`, render: (_, e) => <span data-testid="board-score">{fmt(e.score)}</span> },
          { title: '提交次数', dataIndex: 'submissions', width: 100 },
          { title: '最近提交', render: (_, e) => formatMinute(e.lastAt), width: 160 },
        ]}
      />
    </Space>
  );
}

/** `competition/:id/test`: upload predictions for the chosen question, see their scores and the leaderboards. */
export default function TestTab() {
  const { competition, presets } = useCompetition();
  const { data: user } = useCurrentUser();
  const { data, isLoading } = useTeam(competition.id);
  const { message } = App.useApp();
  const client = useQueryClient();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const questionId = data?.team?.choiceQuestionList[0]?.questionId;
  const mine = useQuery({
    queryKey: ['tests', questionId],
    enabled: Boolean(questionId),
    queryFn: () => http.get<MyTests>(`/api/review/test/list/${questionId}`),
    // Watch submissions until the scoring job has dealt with them.
    refetchInterval: (q) => (q.state.data?.list.some((s) => s.status === TEST_STATUS.queued || s.status === TEST_STATUS.scoring) ? 2000 : false),
  });
  if (!user) return <Result status="info" title="登录后提交测试" extra={<Button type="primary" onClick={goLogin}>去登录</Button>} />;
  if (isLoading) return <Spin />;
  if (!data?.team) return <Result status="info" title="请先报名参赛" extra={<Link to={`/competition/${competition.id}/team`}>我的队伍</Link>} />;
  if (!questionId) return <Result status="info" title="请先选择赛题" extra={<Link to={`/competition/${competition.id}/choice`}>选择赛题</Link>} />;
  const reload = () => Promise.all([client.invalidateQueries({ queryKey: ['tests', questionId] }), client.invalidateQueries({ queryKey: ['leaderboard', questionId] })]);
  const quota = mine.data;
  // The deadline the server applies to test submissions (the shared SUBMIT_TEST window).
  const testWindow = submissionWindow(competition, competition.stages, presets, 'SUBMIT_TEST');
  // Offered only when it can succeed: within the window and the day's quota, said beside the disabled button otherwise.
  const quotaUsed = Boolean(quota?.dailyLimit && quota.usedToday >= quota.dailyLimit);
  const blocked = windowRefusal(testWindow, sysTime()) ?? (quotaUsed ? `今日 ${quota!.dailyLimit} 次提交已用完，北京时间明天 00:00 恢复` : null);

  return (
    <>
      <Card type="inner" title={`提交测试：${data.team.choiceQuestionList[0]!.title}`} style={{ marginBottom: 16 }}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>
            上传预测结果CSV{quota?.format ? '（格式见下方说明）' : '（表头须包含编号列与目标列，UTF-8或GBK编码）'}。
            {testWindow.end && windowState(testWindow, sysTime()) === 'open' && (
              <span data-testid="test-deadline" style={{ marginInlineEnd: 8 }}>
                截止时间 {formatMinute(testWindow.end)} <Countdown deadline={testWindow.end} onExpire={() => void reload()} />
              </span>
            )}
            {quota && (
              <span data-testid="quota">
                今日已提交 {quota.usedToday} / {quota.dailyLimit} 次
              </span>
            )}
          </Typography.Text>
          <Upload
            name="file"
            accept=".csv,text/csv"
            disabled={Boolean(blocked)}
            action={`/api/review/test/${questionId}`}
            headers={uploadHeaders()}
            fileList={files}
            maxCount={1}
            onChange={({ file, fileList }) => {
              setFiles(fileList);
              if (file.status === 'done') {
                void message.success('测试文件已提交，正在排队评分');
                setFiles([]);
                void reload();
              }
              if (file.status === 'error') {
                void message.error(uploadError(file.response), 5);
                setFiles([]);
              }
            }}
          >
            <Tooltip title={blocked}>
              <Button icon={<UploadOutlined />} disabled={Boolean(blocked)}>
                上传预测文件
              </Button>
            </Tooltip>
          </Upload>
          {blocked && <Alert type="warning" showIcon data-testid="test-blocked" message={blocked} />}
          {quota?.format && <FileFormat format={quota.format} />}
        </Space>
        <Table<TestSubmission>
          rowKey="id"
          size="small"
          style={{ marginTop: 16 }}
          loading={mine.isLoading}
          dataSource={mine.data?.list}
          pagination={false}
          scroll={{ x: 900 }}
          locale={{ emptyText: '暂无提交' }}
          columns={[
            { title: '文件', dataIndex: 'fileName', width: 180 },
            { title: '大小', width: 90, render: (_, s) => formatSize(s.size) },
            { title: '状态', width: 90, render: (_, s) => <Tag color={STATUS_COLORS[s.status]}>{TEST_STATUS_TEXT[s.status]}</Tag> },
            { title: '公榜成绩', width: 110, render: (_, s) => <span data-testid="public-score">{fmt(s.publicScore)}</span> },
            { title: '私榜成绩', width: 110, render: (_, s) => fmt(s.privateScore) },
            { title: '说明', render: (_, s) => s.reason && <Typography.Text type="danger">{s.reason}</Typography.Text> },
            { title: '提交人', dataIndex: 'username', width: 110 },
            { title: '提交时间', width: 150, render: (_, s) => formatMinute(s.createdAt) },
            {
              title: '作为最终结果',
              width: 110,
              fixed: 'right',
              render: (_, s) =>
                s.status === TEST_STATUS.scored && (
                  <Switch
                    size="small"
                    checked={s.selected}
                    onChange={async (selected) => {
                      await http.put(`/api/review/test/select/${s.id}`, { selected });
                      await reload();
                    }}
                  />
                ),
            },
          ]}
        />
      </Card>
      <Card type="inner" title="排行榜">
        <Tabs items={[{ key: 'public', label: '公榜', children: <Board questionId={questionId} board="public" teamId={data.team.id} /> }, { key: 'private', label: '私榜', children: <Board questionId={questionId} board="private" teamId={data.team.id} /> }]} />
      </Card>
    </>
  );
}
