import { formatLimit, formatSize, type WorkVersion } from '@contest/shared';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Grid, List, Progress, Result, Space, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { worksApi, worksKeys } from '#src/api/works.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { fileUrl } from '#src/common/files.ts';
import { goLogin } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { Countdown } from '#src/common/Countdown.tsx';
import { resumableUpload } from '#src/common/tusUpload.ts';
import { useTeam } from '../../team.ts';
import { useCompetition } from '../competition/CompetitionLayout.tsx';
import { SelfReport } from './SelfReport.tsx';

/** What the works list calls a version's SHA-256: a fingerprint a team can compare with its own copy. */
const FINGERPRINT = '文件指纹';
const FINGERPRINT_HELP = '文件内容的 SHA-256 校验值：与本地文件的校验值一致，说明平台收到的就是这份文件';

/** `competition/:id/works`: resumable uploads of the team's works for the chosen question, and its versions. */
export default function WorksTab() {
  const { competition } = useCompetition();
  const { data: user } = useCurrentUser();
  const { data, isLoading } = useTeam(competition.id);
  const { message } = App.useApp();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; percent: number; waiting?: 'offline' | 'unreachable' } | null>(null);
  // On a phone each version is a card: the table's columns would hide the file name.
  const phone = Grid.useBreakpoint().md === false;
  const questionId = data?.team?.choiceQuestionList[0]?.questionId;
  const rules = useQuery({ queryKey: worksKeys.rules(questionId), enabled: Boolean(questionId), queryFn: () => worksApi.rules(questionId!) });
  const versions = useQuery({ queryKey: worksKeys.mine(questionId), enabled: Boolean(questionId), queryFn: () => worksApi.mine(questionId!) });
  if (!user)
    return (
      <Result
        status="info"
        title="登录后提交作品"
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  if (isLoading) return <Spin />;
  if (!data?.team) return <Result status="info" title="请先报名参赛" extra={<Link to={`/competition/${competition.id}/team`}>我的队伍</Link>} />;
  if (!questionId) return <Result status="info" title="请先选择赛题" extra={<Link to={`/competition/${competition.id}/choice`}>选择赛题</Link>} />;
  const r = rules.data;

  async function start(file: File) {
    if (!r) return;
    const ext = (/\.([a-z0-9]+)$/i.exec(file.name)?.[1] ?? '').toLowerCase();
    if (!r.types.includes(ext)) return void message.error(`只能提交以下格式的作品：${r.types.join('、')}`);
    if (file.size > r.maxBytes) return void message.error(`作品不能超过${formatLimit(r.maxBytes)}`);
    setProgress({ name: file.name, percent: 0 });
    await resumableUpload(
      file,
      { questionId: String(questionId) },
      {
        progress: (percent) => setProgress({ name: file.name, percent }),
        waiting: (offline) => setProgress((p) => p && { ...p, waiting: offline ? 'offline' : 'unreachable' }),
        error: (text) => {
          void message.error(text, 8);
          setProgress(null);
        },
        success: () => {
          void message.success('作品已提交');
          setProgress(null);
          void client.invalidateQueries({ queryKey: worksKeys.mine(questionId) });
        },
      },
    );
  }

  return (
    <Card type="inner" className="wrap-card-head" title={`提交作品：${data.team.choiceQuestionList[0]!.title}`}>
      {r && (
        <Alert
          type={r.open ? 'info' : 'warning'}
          showIcon
          style={{ marginBottom: 16 }}
          message={
            r.open ? (
              <>
                {`可提交 ${r.types.join('、')} 格式，单个不超过 ${formatLimit(r.maxBytes)}${r.deadline ? `，截止时间 ${formatMinute(r.deadline)}（北京时间）` : ''}。可多次提交，以截止前最后完成的版本为准。`}
                {/* At the deadline the rules are asked again: the notice then gives the server's refusal. */}
                {r.deadline && <Countdown deadline={r.deadline} style={{ marginInlineStart: 8 }} onExpire={() => void rules.refetch()} />}
              </>
            ) : (
              (r.refusal ?? '不在提交作品的时间内')
            )
          }
        />
      )}
      <input
        ref={input}
        type="file"
        hidden
        data-testid="works-input"
        accept={r?.types.map((t) => `.${t}`).join(',')}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void start(file);
        }}
      />
      <Space direction="vertical" style={{ width: '100%' }}>
        <Button type="primary" icon={<UploadOutlined />} disabled={!r?.open || Boolean(progress)} onClick={() => input.current?.click()}>
          上传作品
        </Button>
        {progress && (
          <div>
            <Typography.Text>{progress.name}</Typography.Text>
            <Progress percent={progress.percent} status={progress.waiting ? 'normal' : 'active'} data-testid="works-progress" />
            {progress.waiting && (
              <Alert
                type="warning"
                showIcon
                data-testid="works-waiting"
                message={
                  progress.waiting === 'offline'
                    ? `网络已断开，已上传 ${progress.percent}%，网络恢复后将自动继续上传，请不要关闭本页`
                    : `暂时连不上服务器，已上传 ${progress.percent}%，稍后将自动重试，请不要关闭本页`
                }
              />
            )}
          </div>
        )}
      </Space>
      {phone ? (
        <List<WorkVersion>
          style={{ marginTop: 16 }}
          loading={versions.isLoading}
          dataSource={versions.data}
          locale={{ emptyText: '暂无作品' }}
          renderItem={(v) => (
            <List.Item key={v.id} className="order-card" data-testid="works-card">
              <div className="order-card-head">
                <a className="order-card-title" href={fileUrl(v.fileUri)} target="_blank" rel="noopener noreferrer">
                  V{v.version} · {v.fileName}
                </a>
                {v.counts && <Tag color="success">有效版本</Tag>}
              </div>
              <div className="order-card-note">
                {formatSize(v.size)} · {v.username} · {formatMinute(v.completedAt)}
              </div>
              <div className="order-card-note">
                {FINGERPRINT}：
                <Typography.Text copyable={{ text: v.sha256 }} type="secondary">
                  {v.sha256.slice(0, 12)}…
                </Typography.Text>
              </div>
            </List.Item>
          )}
        />
      ) : (
        <Table<WorkVersion>
          rowKey="id"
          size="small"
          style={{ marginTop: 16 }}
          loading={versions.isLoading}
          dataSource={versions.data}
          pagination={false}
          scroll={{ x: 900 }}
          locale={{ emptyText: '暂无作品' }}
          columns={[
            { title: '版本', width: 70, render: (_, v) => `V${v.version}` },
            {
              title: '文件',
              render: (_, v) => (
                <a href={fileUrl(v.fileUri)} target="_blank" rel="noopener noreferrer">
                  {v.fileName}
                </a>
              ),
            },
            { title: '大小', width: 100, render: (_, v) => formatSize(v.size) },
            {
              title: <Tooltip title={FINGERPRINT_HELP}>{FINGERPRINT}</Tooltip>,
              width: 140,
              render: (_, v) => <Typography.Text copyable={{ text: v.sha256 }}>{v.sha256.slice(0, 12)}…</Typography.Text>,
            },
            { title: '提交人', dataIndex: 'username', width: 120 },
            { title: '完成时间', width: 150, render: (_, v) => formatMinute(v.completedAt) },
            { title: '', width: 80, render: (_, v) => v.counts && <Tag color="success">有效版本</Tag> },
          ]}
        />
      )}
      {r && (r.open || Boolean(versions.data?.length)) && <SelfReport questionId={questionId} open={r.open} />}
    </Card>
  );
}
