import {
  DEFAULT_TIME_LIMIT_SEC,
  EXAMPLE_SCORER,
  SCORER_ACCEPT,
  SCORER_CONTRACT,
  SCORING_FILE_ACCEPT,
  formatSize,
  formatTestScore,
  type ManagedQuestion,
  type ScorerTry,
} from '@contest/shared';
import { DownloadOutlined, ExperimentOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Space, Spin, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { questionApi, questionKeys } from '#src/api/questions.ts';
import { testSubmissionKeys } from '#src/api/test-submissions.ts';
import { saveBlob } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';

/** The contract of an own scoring program, and the example to start from: beside its upload, and before it is possible. */
export function ScorerContract({ timeLimitSec }: { timeLimitSec?: number }) {
  const download = () => saveBlob(new Blob([EXAMPLE_SCORER], { type: 'text/x-python' }), 'score.py');
  return (
    <div data-testid="scorer-contract">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
        评分程序的约定：
      </Typography.Paragraph>
      <ol style={{ paddingLeft: 20, margin: '0 0 8px', color: 'rgba(0,0,0,0.65)' }}>
        {SCORER_CONTRACT.map((line) => (
          <li key={line}>{line}</li>
        ))}
        <li>每次运行限时{timeLimitSec ?? DEFAULT_TIME_LIMIT_SEC}秒（在评分设置中修改），超时即终止。</li>
      </ol>
      <Button size="small" icon={<DownloadOutlined />} onClick={download}>
        下载示例 score.py（算平均绝对误差，得分越低越好）
      </Button>
    </div>
  );
}

/**
 * What a try answered: both scores, or why the program failed (and the other board's score when that part ran well:
 * both always run), with the end of its standard error.
 */
function TryResult({ result }: { result: ScorerTry }) {
  // Rounded as the boards show it, the exact value on hover.
  const score = (v: number | null) => (v === null ? '（该部分没有行）' : <span title={String(v)}>{formatTestScore(v)}</span>);
  const other =
    result.publicScore !== null ? (
      <>公榜部分正常，得分 {score(result.publicScore)}</>
    ) : result.privateScore !== null ? (
      <>私榜部分正常，得分 {score(result.privateScore)}</>
    ) : null;
  return (
    <div data-testid="scorer-try-result" style={{ marginTop: 12 }}>
      {result.ok ? (
        <Alert
          type="success"
          showIcon
          message={
            <>
              试运行成功：公榜得分 {score(result.publicScore)}，私榜得分 {score(result.privateScore)}（用时{result.seconds.toFixed(1)}秒）
            </>
          }
        />
      ) : (
        <Alert
          type="error"
          showIcon
          message={result.message ?? '评分程序运行失败'}
          description={
            <>
              {other && (
                <div data-testid="scorer-try-other">
                  {other}（用时{result.seconds.toFixed(1)}秒）
                </div>
              )}
              参赛队伍只会看到“评分失败”和失败原因，看不到下面的标准错误输出；为免从时间上看出哪些行属于公榜，队伍要在两部分的时限都过去后才看到这一结果。
            </>
          }
        />
      )}
      {result.stderr && (
        <>
          <Typography.Text type="secondary">标准错误输出（最后4KB）：</Typography.Text>
          <pre
            data-testid="scorer-stderr"
            style={{
              maxHeight: 240,
              overflow: 'auto',
              background: '#fafafa',
              border: '1px solid #f0f0f0',
              padding: 8,
              fontSize: 12,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
          >
            {result.stderr}
          </pre>
        </>
      )}
    </div>
  );
}

/**
 * A question's own scoring program: what is uploaded now, its upload (a .py, or a .zip with score.py at its root), and
 * a try on a prediction file that answers both scores or the failure with the program's standard error.
 */
export function ScorerPanel({ question }: { question: ManagedQuestion }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const programInput = useRef<HTMLInputElement>(null);
  const predictionInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'upload' | 'try' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ScorerTry | null>(null);
  const scorer = question.scorer;
  const tryBlocked = !scorer ? '请先上传评分程序' : question.answerRows === null ? '请先上传答案文件' : null;

  const upload = async (file: File) => {
    setBusy('upload');
    setError(null);
    setResult(null);
    try {
      await questionApi.uploadScorer(question.id, file);
      void message.success('评分程序已上传');
      await client.invalidateQueries({ queryKey: questionKeys.list(question.competitionId) });
      void client.invalidateQueries({ queryKey: testSubmissionKeys.rescoring(question.id) });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };
  const attempt = async (file: File) => {
    setBusy('try');
    setError(null);
    setResult(null);
    try {
      setResult(await questionApi.tryScorer(question.id, file));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };
  const picked = (run: (file: File) => Promise<void>) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) void run(file);
  };

  return (
    <div data-testid="scorer-panel">
      {/* display: none, not `hidden`: inside the question editor's form antd shows file inputs as blocks. */}
      <input ref={programInput} type="file" style={{ display: 'none' }} accept={SCORER_ACCEPT} data-testid="scorer-input" onChange={picked(upload)} />
      <input
        ref={predictionInput}
        type="file"
        style={{ display: 'none' }}
        accept={SCORING_FILE_ACCEPT}
        data-testid="scorer-try-input"
        onChange={picked(attempt)}
      />
      {scorer ? (
        <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered data-testid="scorer-current" style={{ marginBottom: 12 }}>
          <Descriptions.Item label="当前程序">{scorer.name}</Descriptions.Item>
          <Descriptions.Item label="大小">{formatSize(scorer.size)}</Descriptions.Item>
          <Descriptions.Item label="SHA-256">
            <Typography.Text copyable={{ text: scorer.sha256 }} style={{ fontFamily: 'monospace', fontSize: 12 }}>
              {scorer.sha256.slice(0, 16)}…
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="上传">
            {formatMinute(scorer.uploadedAt)}
            {scorer.uploaderName ? ` · ${scorer.uploaderName}` : ''}
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Tag color="warning" style={{ marginBottom: 12 }}>
          尚未上传评分程序，参赛者还不能提交测试
        </Tag>
      )}
      <Space wrap style={{ marginBottom: 12 }}>
        <Button icon={<UploadOutlined />} loading={busy === 'upload'} disabled={busy !== null} onClick={() => programInput.current?.click()}>
          {scorer ? '上传新的评分程序' : '上传评分程序'}（.py 或 .zip）
        </Button>
        <Button
          icon={<ExperimentOutlined />}
          loading={busy === 'try'}
          disabled={busy !== null || tryBlocked !== null}
          onClick={() => predictionInput.current?.click()}
        >
          用预测文件试运行
        </Button>
        {tryBlocked && <Typography.Text type="secondary">{tryBlocked}，才能试运行</Typography.Text>}
      </Space>
      {scorer && question.answerRows !== null && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          上传新的程序后，已有的测试提交会全部重新评分。试运行不产生提交记录，也不计入任何队伍的次数。
        </Typography.Paragraph>
      )}
      {busy === 'try' && (
        <div style={{ margin: '12px 0' }}>
          <Spin size="small" /> <Typography.Text type="secondary">评分程序运行中（公榜、私榜各运行一次）…</Typography.Text>
        </div>
      )}
      {error && <Alert type="error" showIcon message={error} data-testid="scorer-error" style={{ marginBottom: 12 }} />}
      {result && <TryResult result={result} />}
      <ScorerContract timeLimitSec={question.evaluation?.timeLimitSec} />
    </div>
  );
}
