import { UploadOutlined } from '@ant-design/icons';
import { ACTION_CODES, formatSize } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Progress, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { usePermissions } from '../../../common/auth.ts';
import { http } from '../../../common/http.ts';
import { uploadError, uploadHeaders } from '../../../common/upload.ts';
import { formatMinute } from '../../../common/time.ts';

interface ClientPackage {
  platform: 'win' | 'mac';
  fileName: string;
  size: number;
  sha256: string;
  updatedAt: string;
}

const PLATFORMS = [
  { platform: 'win' as const, title: 'Windows', fileName: 'clientApp-win.zip' },
  { platform: 'mac' as const, title: 'Mac', fileName: 'clientApp-mac.zip' },
];
const KEY = ['system', 'client'];

/** The desktop client packages served at `/profile/...`: what is published, and uploading a new version. */
export default function ClientPage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const editable = usePermissions().has(ACTION_CODES.clientEdit);
  const packages = useQuery({ queryKey: KEY, queryFn: () => http.get<ClientPackage[]>('/api/system/client') });
  const [progress, setProgress] = useState<Record<string, number>>({});
  const rows = PLATFORMS.map((p) => ({ ...p, current: packages.data?.find((c) => c.platform === p.platform) }));
  return (
    <Card title="客户端版本">
      <Typography.Paragraph type="secondary">
        浏览器无法批量下载作品，评审专家和组织方使用桌面客户端下载。安装包由 <code>npm run desktop:build</code> 生成，在此上传后，参赛者和评审专家可从“下载客户端”对话框下载。
      </Typography.Paragraph>
      <Table
        rowKey="platform"
        loading={packages.isLoading}
        pagination={false}
        dataSource={rows}
        columns={[
          { title: '平台', dataIndex: 'title', width: 100 },
          {
            title: '安装包',
            width: 200,
            render: (_, r) => (r.current ? <a href={`/profile/${r.fileName}`}>{r.fileName}</a> : <Typography.Text type="secondary">尚未发布</Typography.Text>),
          },
          { title: '大小', width: 110, render: (_, r) => (r.current ? formatSize(r.current.size) : '—') },
          { title: 'SHA-256', ellipsis: true, render: (_, r) => r.current?.sha256 ?? '—' },
          { title: '发布时间', width: 150, render: (_, r) => (r.current ? formatMinute(r.current.updatedAt) : '—') },
          ...(editable
            ? [
                {
                  title: '操作',
                  width: 220,
                  render: (_: unknown, r: (typeof rows)[number]) =>
                    progress[r.platform] !== undefined ? (
                      <Progress percent={progress[r.platform]} size="small" />
                    ) : (
                      <Upload
                        name="file"
                        accept=".zip,application/zip"
                        action={`/api/system/client/${r.platform}`}
                        headers={uploadHeaders()}
                        showUploadList={false}
                        onChange={({ file }) => {
                          if (file.status === 'uploading') setProgress((p) => ({ ...p, [r.platform]: Math.floor(file.percent ?? 0) }));
                          if (file.status === 'done' || file.status === 'error') {
                            setProgress(({ [r.platform]: _, ...rest }) => rest);
                            if (file.status === 'done') {
                              void message.success(`${r.title}客户端已发布`);
                              void client.invalidateQueries({ queryKey: KEY });
                            } else void message.error(uploadError(file.response), 5);
                          }
                        }}
                      >
                        <Button icon={<UploadOutlined />}>上传新版本</Button>
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
