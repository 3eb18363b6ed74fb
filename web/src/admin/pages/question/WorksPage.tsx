import { formatSize, versionedFileName, type ManagedQuestion, type Page, type TaskInput, type WorkVersion } from '@contest/shared';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Input, Space, Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { Navigate } from 'react-router';
import { fileUrl } from '../../../common/files.ts';
import { downloadBlob, http, saveBlob } from '../../../common/http.ts';
import { pager } from '../../../common/pager.ts';
import { formatMinute } from '../../../common/time.ts';
import { BulkDownloadButtons, loadAllPages } from '../../../downloads/BulkDownload.tsx';
import { dirOf } from '../../../downloads/queue.ts';
import { ExportButton } from '../../components/ExportButton.tsx';
import { SelectionBar } from '../../components/SelectionBar.tsx';
import { useIdParam } from '../../components/useIdParam.ts';

/** A work as a download task: `<question title>/<teamNo>-<teamName>/<file>`. */
export const workTask = (questionTitle: string, v: WorkVersion): TaskInput => ({
  dir: dirOf(questionTitle, `${v.teamNo}-${v.teamName}`),
  downloadPath: fileUrl(v.fileUri),
  fileName: versionedFileName(v),
});

/** `/question/work/:questionId`: every version of every team's works for a question, with exports. */
export default function WorksPage() {
  const questionId = useIdParam('questionId');
  const [query, setQuery] = useState<{ page: number; limit: number; keyword?: string }>({ page: 1, limit: 20 });
  const [zipping, setZipping] = useState<'all' | 'selected' | null>(null);
  const question = useQuery({ queryKey: ['question', questionId], enabled: Boolean(questionId), queryFn: () => http.get<ManagedQuestion>(`/api/competition/question/check/${questionId}`) });
  const works = useQuery({ queryKey: ['questionWorks', questionId, query], enabled: Boolean(questionId), queryFn: () => http.get<Page<WorkVersion>>(`/api/review/works/page/${questionId}`, { ...query }) });
  // Kept across pages and searches, so a selection can be built up page by page.
  const [selected, setSelected] = useState<Map<number, WorkVersion>>(new Map());
  const title = question.data?.title ?? `赛题${questionId}`;
  const selectedTasks = useMemo(() => [...selected.values()].map((v) => workTask(title, v)), [selected, title]);

  if (!questionId || question.isError) return <Navigate to="/404" replace />;

  /** The counted version of every team, or the selected versions, as one zip with a folder per team. */
  async function zip(which: 'all' | 'selected') {
    setZipping(which);
    try {
      const file = await downloadBlob(`/api/review/works/export/${questionId}`, which === 'selected' ? { params: { ids: [...selected.keys()].join(',') } } : undefined);
      if (file) saveBlob(file.blob, file.fileName);
    } finally {
      setZipping(null);
    }
  }

  // The counted version of each team.
  const allTasks = async () => (await loadAllPages<WorkVersion>(`/api/review/works/page/${questionId}`)).filter((v) => v.counts).map((v) => workTask(title, v));

  return (
    <Card title={`作品：${question.data?.title ?? ''}`}>
      {/* The list's actions sit above it, wrapping on a narrow screen, rather than crowding the card's title. */}
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <Input.Search allowClear placeholder="队伍名称、编号或文件名" style={{ width: 280, maxWidth: '100%' }} onSearch={(v) => setQuery({ ...query, page: 1, keyword: v.trim() || undefined })} />
        <Space wrap>
          <BulkDownloadButtons all={allTasks} selected={selectedTasks} />
          <ExportButton url={`/api/review/works/page/${questionId}`} query={{ ...query }} />
          <Button icon={<DownloadOutlined />} loading={zipping === 'all'} onClick={() => void zip('all')}>
            下载全部有效作品（zip）
          </Button>
        </Space>
      </Flex>
      <SelectionBar count={selected.size} onClear={() => setSelected(new Map())}>
        <Button size="small" type="primary" icon={<DownloadOutlined />} loading={zipping === 'selected'} onClick={() => void zip('selected')}>
          打包下载所选（zip）
        </Button>
        <ExportButton size="small" label="导出所选" url={`/api/review/works/page/${questionId}`} query={{ ids: [...selected.keys()].join(',') }} />
      </SelectionBar>
      <Table<WorkVersion>
        rowKey="id"
        loading={works.isLoading}
        dataSource={works.data?.list}
        scroll={{ x: 1100 }}
        locale={{ emptyText: '暂无作品' }}
        rowSelection={{
          preserveSelectedRowKeys: true,
          selectedRowKeys: [...selected.keys()],
          onChange: (keys, rows) => {
            const next = new Map<number, WorkVersion>();
            for (const key of keys) {
              const row = rows.find((r) => r?.id === key) ?? selected.get(Number(key));
              if (row) next.set(row.id, row);
            }
            setSelected(next);
          },
        }}
        pagination={pager(works.data, (page, limit) => setQuery({ ...query, page, limit }))}
        columns={[
          { title: '队伍编号', dataIndex: 'teamNo', width: 120 },
          { title: '队伍', dataIndex: 'teamName', width: 160 },
          { title: '版本', width: 70, render: (_, v) => `V${v.version}` },
          { title: '文件', width: 220, render: (_, v) => <a href={fileUrl(v.fileUri)} target="_blank" rel="noopener noreferrer">{v.fileName}</a> },
          { title: '大小', width: 100, render: (_, v) => formatSize(v.size) },
          { title: '提交人', dataIndex: 'username', width: 120 },
          { title: '完成时间', width: 150, render: (_, v) => formatMinute(v.completedAt) },
          { title: '状态', width: 90, render: (_, v) => (v.counts ? <Tag color="success">有效</Tag> : <Tag>旧版本</Tag>) },
        ]}
      />
    </Card>
  );
}
