import { BuildOutlined, UploadOutlined } from '@ant-design/icons';
import { ACTION_CODES, formatSize, type ClientBuild } from '@contest/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Popconfirm, Progress, Space, Table, Tag, Tooltip, Typography, Upload } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { clientApi, clientKeys, clientUrls } from '#src/api/desktop-releases.ts';
import { uploadError, uploadHeaders } from '#src/common/upload.ts';
import { formatMinute } from '#src/common/time.ts';

const PLATFORMS = [
  { platform: 'win' as const, title: 'Windows', fileName: 'clientApp-win.zip' },
  { platform: 'mac' as const, title: 'Mac', fileName: 'clientApp-mac.zip' },
];
const ACTIVE: ClientBuild['state'][] = ['queued', 'running', 'retrying'];
/** How often a build under way is asked about. */
export const BUILD_POLL_MS = 1500;

function BuildProgress({ build }: { build: ClientBuild }) {
  if (build.state === 'idle') return null;
  if (build.state === 'queued') return <Alert type="info" showIcon message="客户端生成已排队，即将开始…" />;
  if (build.state === 'running' || build.state === 'retrying') {
    const percent = build.total ? Math.floor((build.done / build.total) * 100) : 0;
    return (
      <Alert
        type={build.state === 'retrying' ? 'warning' : 'info'}
        showIcon
        message={build.total ? `正在生成客户端：第 ${Math.min(build.done + 1, build.total)}/${build.total} 步，${build.step ?? ''}` : '正在生成客户端：准备中'}
        description={
          <>
            <Progress percent={percent} status="active" data-testid="build-progress" />
            {build.state === 'retrying' && <div>上次尝试失败，稍后自动重试：{build.error}</div>}
          </>
        }
      />
    );
  }
  if (build.state === 'failed') return <Alert type="error" showIcon message="客户端生成失败" description={<>{build.error}。可以重新生成，或上传安装包。</>} />;
  return (
    <Alert
      type="success"
      showIcon
      message={`客户端已于 ${build.finishedAt ? formatMinute(build.finishedAt) : ''} 生成`}
      description={build.platformUrl ? `安装包连接的平台地址：${build.platformUrl}` : undefined}
    />
  );
}

/**
 * The desktop client packages served at `/profile/...`: what is published, building both on the server (a job whose
 * progress this page follows), and uploading a package as the alternative.
 */
export default function ClientPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const permissions = usePermissions();
  const editable = permissions.has(ACTION_CODES.clientEdit);
  const packages = useQuery({ queryKey: clientKeys.packages, queryFn: clientApi.packages });
  const build = useQuery({
    queryKey: clientKeys.build,
    queryFn: clientApi.build,
    refetchInterval: (q) => (q.state.data && ACTIVE.includes(q.state.data.state) ? BUILD_POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: clientApi.startBuild,
    onSuccess: (state) => {
      void message.success('客户端开始生成');
      client.setQueryData(clientKeys.build, state);
    },
  });
  // A build that ends replaces the packages: read them again.
  const lastState = useRef<ClientBuild['state'] | undefined>(undefined);
  const state = build.data?.state;
  useEffect(() => {
    if (lastState.current && ACTIVE.includes(lastState.current) && state && !ACTIVE.includes(state)) {
      void client.invalidateQueries({ queryKey: clientKeys.packages, exact: true });
      if (state === 'done') void message.success('客户端已生成');
    }
    lastState.current = state;
  }, [state, client, message]);
  const [progress, setProgress] = useState<Record<string, number>>({});
  const rows = PLATFORMS.map((p) => ({ ...p, current: packages.data?.find((c) => c.platform === p.platform) }));
  const building = Boolean(state && ACTIVE.includes(state)) || start.isPending;
  const anyPublished = rows.some((r) => r.current);
  const absentHint = permissions.loading ? '' : editable ? '：点击右上角「生成客户端」由服务器生成，或上传安装包' : '：请联系有发布权限的管理员生成';

  const buildButton = (
    <Button type="primary" icon={<BuildOutlined />} loading={building} disabled={building} onClick={anyPublished ? undefined : () => start.mutate()}>
      {building ? '正在生成' : '生成客户端'}
    </Button>
  );
  return (
    <Card
      title="客户端版本"
      extra={
        editable &&
        (anyPublished && !building ? (
          <Popconfirm title="重新生成客户端" description="生成完成后将替换现有的安装包，确定继续？" onConfirm={() => start.mutate()}>
            {buildButton}
          </Popconfirm>
        ) : (
          buildButton
        ))
      }
    >
      <Typography.Paragraph type="secondary">
        浏览器无法把作品批量保存到文件夹时，评审专家和组织方使用桌面下载客户端，在“下载客户端”对话框中下载。「生成客户端」由服务器生成 Windows 和 Mac
        两个安装包：服务器从 npm 仓库下载 Node.js 运行环境（首次约 90 MB，需要几分钟），之后再生成无需重复下载。服务器无法访问 npm
        仓库时，也可以在每个平台上传已有的安装包。安装包内记录了平台地址，平台地址变更后请重新生成。
      </Typography.Paragraph>
      {build.data && build.data.state !== 'idle' && (
        <div style={{ marginBottom: 16 }}>
          <BuildProgress build={build.data} />
        </div>
      )}
      <Table
        rowKey="platform"
        loading={packages.isLoading}
        pagination={false}
        dataSource={rows}
        columns={[
          { title: '平台', dataIndex: 'title', width: 90 },
          {
            title: '状态',
            width: 100,
            render: (_, r) => (r.current ? <Tag color="success">已发布</Tag> : <Tag>未发布</Tag>),
          },
          {
            title: '安装包',
            render: (_, r) =>
              r.current ? (
                <Space direction="vertical" size={0}>
                  <a href={`/profile/${r.fileName}`}>{r.fileName}</a>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {r.current.source === 'build'
                      ? `服务器生成${r.current.nodeVersion ? `，Node.js ${r.current.nodeVersion}` : ''}${r.current.platformUrl ? `，连接 ${r.current.platformUrl}` : ''}`
                      : r.current.source === 'upload'
                        ? '管理员上传'
                        : ''}
                  </Typography.Text>
                </Space>
              ) : (
                <Typography.Text type="secondary" data-testid={`absent-${r.platform}`}>
                  尚未发布{absentHint}
                </Typography.Text>
              ),
          },
          { title: '大小', width: 110, render: (_, r) => (r.current ? formatSize(r.current.size) : '—') },
          {
            title: 'SHA-256',
            width: 170,
            render: (_, r) =>
              r.current ? (
                <Tooltip title={r.current.sha256}>
                  <Typography.Text code copyable={{ text: r.current.sha256, tooltips: ['复制完整值', '已复制'] }}>
                    {r.current.sha256.slice(0, 12)}…
                  </Typography.Text>
                </Tooltip>
              ) : (
                '—'
              ),
          },
          { title: '发布时间', width: 150, render: (_, r) => (r.current ? formatMinute(r.current.updatedAt) : '—') },
          ...(editable
            ? [
                {
                  title: '操作',
                  width: 180,
                  render: (_: unknown, r: (typeof rows)[number]) =>
                    progress[r.platform] !== undefined ? (
                      <Progress percent={progress[r.platform]} size="small" />
                    ) : (
                      <Upload
                        name="file"
                        accept=".zip,application/zip"
                        action={clientUrls.upload(r.platform)}
                        headers={uploadHeaders()}
                        showUploadList={false}
                        disabled={building}
                        onChange={({ file }) => {
                          if (file.status === 'uploading') setProgress((p) => ({ ...p, [r.platform]: Math.floor(file.percent ?? 0) }));
                          if (file.status === 'done' || file.status === 'error') {
                            setProgress(({ [r.platform]: _, ...rest }) => rest);
                            if (file.status === 'done') {
                              void message.success(`${r.title}客户端已发布`);
                              void client.invalidateQueries({ queryKey: clientKeys.packages, exact: true });
                            } else void message.error(uploadError(file.response), 5);
                          }
                        }}
                      >
                        <Button icon={<UploadOutlined />} disabled={building}>
                          上传安装包
                        </Button>
                      </Upload>
                    ),
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}
