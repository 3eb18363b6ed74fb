import {
  CUSTOM_METRIC,
  MAX_SELECTED,
  METRIC_INFO,
  scoredAutomatically,
  SCORING_FILE_ACCEPT,
  SCORING_FILE_FORMATS,
  TEST_STATUS,
  sampleCsv,
  submissionWindow,
  windowRefusal,
  windowState,
  type Metric,
  type MyTests,
  type TestFormat,
  type TestSubmission,
} from '@contest/shared';
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Result, Space, Spin, Tabs, Tooltip, Typography, Upload, type UploadFile } from 'antd';
import { Suspense, lazy, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { publicQuestionApi, publicQuestionKeys } from '#src/api/questions.ts';
import { testSubmissionApi, testSubmissionKeys, testSubmissionUrls } from '#src/api/test-submissions.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { goLogin, sysTime } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { Countdown } from '#src/common/Countdown.tsx';
import { uploadError, uploadHeaders } from '#src/common/upload.ts';
import { useTeam } from '../../team.ts';
import { scoringFinished } from '../../tests.ts';
import { useCompetition } from '../competition/CompetitionLayout.tsx';
import { Leaderboard, metricText } from '#src/common/Leaderboard.tsx';
import { TestHistory } from './TestHistory.tsx';

// ECharts is loaded only when the team has a score to draw.
const ScoreChart = lazy(() => import('./ScoreChart.tsx'));

/** The expected prediction file, with the question's own column names and a sample made in the browser. */
function FileFormat({ format, questionId }: { format: TestFormat; questionId: number }) {
  const custom = format.metric === CUSTOM_METRIC;
  // An own program with no target column reads columns only the question's statement names: no sample is made up.
  const sample = custom && !format.targetColumn ? null : sampleCsv(format);
  const info = custom ? undefined : METRIC_INFO[format.metric as Metric];
  // A built-in metric's sample comes from the server with every id of the test set; an own program's is made here
  // (its columns are the program's), with a BOM so that Excel opens the UTF-8 sample with the right encoding.
  const href = custom ? sample && `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${sample}`)}` : testSubmissionUrls.sample(questionId);
  return (
    <Alert
      type="info"
      data-testid="file-format"
      message="文件格式"
      description={
        <Space direction="vertical" size={4} style={{ width: '100%' }}>
          {custom ? (
            <span>
              CSV文件（{SCORING_FILE_FORMATS}），第一行为表头，须包含编号列 <Typography.Text code>{format.idColumn}</Typography.Text>
              {format.targetColumn && (
                <>
                  {' '}
                  和预测列 <Typography.Text code>{format.targetColumn}</Typography.Text>
                </>
              )}
              ；此后每行一个测试集编号及其预测，每个编号恰好一行。由主办方的评分程序评分，其他列与评分方法见赛题描述。
            </span>
          ) : info?.kind === 'classProbabilities' ? (
            <span>
              CSV文件（{SCORING_FILE_FORMATS}），第一行为表头，须包含编号列 <Typography.Text code>{format.idColumn}</Typography.Text>{' '}
              和每个类别一列（列名为类别标签）；此后每行一个测试集编号及其属于各类别的概率，每行概率之和为1，每个编号恰好一行。
            </span>
          ) : (
            <span>
              CSV文件（{SCORING_FILE_FORMATS}），第一行为表头，须包含编号列 <Typography.Text code>{format.idColumn}</Typography.Text> 和预测列{' '}
              <Typography.Text code>{format.targetColumn}</Typography.Text>；此后每行一个测试集编号及其预测值，每个编号恰好一行。
              {info?.kind === 'label' && '预测值为类别标签，取值须与答案中的类别相同（示例文件里填的就是答案中的类别）。'}
            </span>
          )}
          <span>评分指标：{metricText(format.metric, format.higherIsBetter, format.metricName)}。</span>
          {info && (
            <span data-testid="metric-definition">
              指标定义：{info.definition}
              {format.positiveLabel !== undefined && (
                <>
                  ；正类标签为 <Typography.Text code>{format.positiveLabel}</Typography.Text>
                </>
              )}
              {format.k !== undefined && <>；K = {format.k}</>}。
            </span>
          )}
          {sample && href && (
            <>
              <pre data-testid="sample-csv" style={{ margin: 0, padding: '4px 8px', background: 'rgba(0,0,0,0.04)', borderRadius: 4, overflowX: 'auto' }}>
                {sample.trimEnd().replace(/\r\n/g, '\n')}
              </pre>
              {/* On a phone the label wraps inside the box instead of running past it. */}
              <Button
                size="small"
                icon={<DownloadOutlined />}
                href={href}
                download="sample_submission.csv"
                data-testid="sample-download"
                style={{ whiteSpace: 'normal', height: 'auto', maxWidth: '100%', textAlign: 'left' }}
              >
                {custom ? '下载示例文件' : '下载示例文件（含测试集全部编号）'}
              </Button>
              <Typography.Text type="secondary">
                {custom
                  ? '示例中的编号和数值仅为示意，请替换为测试集中的全部编号及您的预测。'
                  : '上方仅示意格式；下载的示例文件列出测试集的全部编号，请把其中的数值替换为您的预测。'}
              </Typography.Text>
            </>
          )}
        </Space>
      }
    />
  );
}

/**
 * While the team's files wait to be scored the list is asked again every 2 s; when one of them finishes, the boards are
 * reloaded too. (The message stream's `board` event does the same at once, for every board on the page; this watch is
 * for the desktop app, which has no stream.)
 */
function useMyTests(questionId: number | undefined) {
  const client = useQueryClient();
  const mine = useQuery({
    queryKey: testSubmissionKeys.mine(questionId ?? 0),
    enabled: Boolean(questionId),
    queryFn: () => testSubmissionApi.mine(questionId!),
    refetchInterval: (q) => (pendingCount(q.state.data) ? 2000 : false),
  });
  const pending = pendingCount(mine.data);
  const before = useRef(pending);
  useEffect(() => {
    if (questionId && pending < before.current) void scoringFinished(client, questionId);
    before.current = pending;
  }, [client, questionId, pending]);
  return mine;
}
const pendingCount = (data: MyTests | undefined) => data?.list.filter((s) => s.status === TEST_STATUS.queued || s.status === TEST_STATUS.scoring).length ?? 0;

/**
 * The boards of the competition's automatically scored questions, for whoever may not upload (a visitor, someone not in
 * a team, a team that has not chosen): the public board, and the private one once published.
 */
function PublicBoards({ competitionId, notice }: { competitionId: number; notice: ReactNode }) {
  const questions = useQuery({ queryKey: publicQuestionKeys.list(competitionId), queryFn: () => publicQuestionApi.list(competitionId) });
  const scored = (questions.data ?? []).filter((q) => scoredAutomatically(q.judging));
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="public-boards">
      {notice}
      {questions.isLoading ? (
        <Spin />
      ) : scored.length === 0 ? (
        <Empty description="本竞赛没有自动评分的赛题，没有排行榜" />
      ) : (
        scored.map((q) => (
          <Card key={q.id} type="inner" className="wrap-card-head" title={`排行榜：${q.title}`}>
            <Tabs
              items={[
                { key: 'public', label: '公榜', children: <Leaderboard questionId={q.id} board="public" teamId={0} /> },
                { key: 'private', label: '私榜', children: <Leaderboard questionId={q.id} board="private" teamId={0} /> },
              ]}
            />
          </Card>
        ))
      )}
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
  const mine = useMyTests(questionId);
  // Visitors, people not in a team and teams yet to choose see the boards; only a team that chose a question uploads.
  if (!user)
    return (
      <PublicBoards
        competitionId={competition.id}
        notice={
          <Alert
            type="info"
            showIcon
            message="登录并报名参赛后可提交测试文件"
            action={
              <Button size="small" type="primary" onClick={goLogin}>
                去登录
              </Button>
            }
          />
        }
      />
    );
  if (isLoading) return <Spin />;
  if (!data?.team)
    return (
      <PublicBoards
        competitionId={competition.id}
        notice={
          <Alert type="info" showIcon message="报名参赛并选择赛题后可提交测试文件" action={<Link to={`/competition/${competition.id}/team`}>我的队伍</Link>} />
        }
      />
    );
  if (!questionId)
    return (
      <PublicBoards
        competitionId={competition.id}
        notice={<Alert type="info" showIcon message="选择赛题后可提交测试文件" action={<Link to={`/competition/${competition.id}/choice`}>选择赛题</Link>} />}
      />
    );
  // Wait for the question's setting before offering anything: an upload or boards shown for a question that turns out to
  // have no scoring would be taken back a moment later.
  if (mine.isLoading) return <Spin />;
  const title = data.team.choiceQuestionList[0]!.title;
  const quota = mine.data;
  // No format means the question has no evaluation (the organiser never set one, or removed it after approval): there is
  // nothing to upload, no daily quota and no board, so the page says that instead of a quota of "0 / " and a 404.
  if (quota && !quota.format) {
    return (
      <Card type="inner" className="wrap-card-head" title={`提交测试：${title}`}>
        <div data-testid="no-scoring">
          <Result
            status="info"
            title="该赛题没有自动评分"
            subTitle="本赛题不进行在线测试评分，无需上传预测文件，也没有公榜与私榜。请留意赛题说明与竞赛通知中的提交要求。"
            extra={<Link to={`/competition/${competition.id}/question`}>查看赛题与数据</Link>}
          />
        </div>
      </Card>
    );
  }
  const reload = () => scoringFinished(client, questionId);
  // The deadline the server applies to test submissions (the shared SUBMIT_TEST window).
  const testWindow = submissionWindow(competition, competition.stages, presets, 'SUBMIT_TEST');
  // Offered only when it can succeed: within the window and the day's quota, said beside the disabled button otherwise.
  const quotaUsed = Boolean(quota?.dailyLimit && quota.usedToday >= quota.dailyLimit);
  const out = quota?.disqualified;
  const blocked = out
    ? `你的队伍在该赛题的成绩已被主办方取消（原因：${out.reason}），不能再提交测试文件`
    : (windowRefusal(testWindow, sysTime()) ??
      quota?.realNameRefusal ??
      (quotaUsed ? `今日 ${quota!.dailyLimit} 次提交已用完，北京时间明天 00:00 恢复` : null));
  const scored = quota?.list.filter((s) => s.status === TEST_STATUS.scored && s.publicScore !== null) ?? [];
  const select = async (s: TestSubmission, selected: boolean) => {
    // A refusal (a third selection) is shown by http as a toast; the list is reloaded either way.
    await testSubmissionApi.select(s.id, selected).catch(() => undefined);
    await reload();
  };

  return (
    <>
      <Card type="inner" className="wrap-card-head" title={`提交测试：${title}`} style={{ marginBottom: 16 }}>
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text>
            上传预测结果CSV{quota?.format ? '（格式见下方说明）' : '（表头须包含编号列与目标列，UTF-8或GBK编码，可压缩为.csv.gz或.zip）'}。
            {testWindow.end && windowState(testWindow, sysTime()) === 'open' && (
              <span data-testid="test-deadline" style={{ marginInlineEnd: 8 }}>
                截止时间 {formatMinute(testWindow.end)}（北京时间） <Countdown deadline={testWindow.end} onExpire={() => void reload()} />
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
            accept={SCORING_FILE_ACCEPT}
            disabled={Boolean(blocked)}
            action={testSubmissionUrls.upload(questionId)}
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
                // A file refused for its content is in the history with its problems.
                void reload();
              }
            }}
          >
            <Tooltip title={blocked}>
              <Button icon={<UploadOutlined />} disabled={Boolean(blocked)}>
                上传预测文件
              </Button>
            </Tooltip>
          </Upload>
          {blocked && <Alert type={out ? 'error' : 'warning'} showIcon data-testid="test-blocked" message={blocked} />}
          {quota?.format && <FileFormat format={quota.format} questionId={questionId} />}
        </Space>
      </Card>
      <Card type="inner" title="我的提交记录" style={{ marginBottom: 16 }}>
        {scored.length > 0 && quota?.format && (
          <Suspense fallback={<div style={{ height: 220 }} />}>
            <ScoreChart scored={scored} higherIsBetter={quota.format.higherIsBetter} metric={quota.format.metric} />
          </Suspense>
        )}
        <Typography.Paragraph type="secondary" data-testid="final-rule" style={{ marginBottom: 8 }}>
          最终排名按私榜：可将最多 {MAX_SELECTED} 个已评分的提交选为最终结果（已选 {quota?.list.filter((s) => s.selected).length ?? 0} / {MAX_SELECTED}
          ），私榜取其中最好的一个；未选择时取公榜成绩最好的提交。
        </Typography.Paragraph>
        <TestHistory list={quota?.list} loading={mine.isLoading} onSelect={(s, on) => void select(s, on)} />
      </Card>
      <Card type="inner" title="排行榜">
        <Tabs
          items={[
            { key: 'public', label: '公榜', children: <Leaderboard questionId={questionId} board="public" teamId={data.team.id} /> },
            { key: 'private', label: '私榜', children: <Leaderboard questionId={questionId} board="private" teamId={data.team.id} /> },
          ]}
        />
      </Card>
    </>
  );
}
