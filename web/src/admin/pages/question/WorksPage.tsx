import { formatSize, versionedFileName, type TaskInput, type WorkVersion } from '@contest/shared';
import { DownloadOutlined, FileSearchOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Flex, Input, Space, Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { fileUrl } from '#src/common/files.ts';
import { downloadBlob, saveBlob } from '#src/common/http.ts';
import { worksApi, worksKeys, worksUrls, type WorksListParams } from '#src/api/works.ts';
import { formatMinute } from '#src/common/time.ts';
import { BulkDownloadButtons, loadAllPages } from '#src/downloads/BulkDownload.tsx';
import { dirOf } from '#src/downloads/queue.ts';
import { ExportButton } from '../../components/ExportButton.tsx';
import { useQuestion } from '../../components/QuestionScope.tsx';
import { SelectionBar } from '../../components/SelectionBar.tsx';
import { useIdParam } from '../../components/useIdParam.ts';
import { useListState, usePagedList } from '#src/common/usePagedList.ts';

/** A work as a download task: `<question title>/<teamNo>-<teamName>/<file>`. */
export const workTask = (questionTitle: string, v: WorkVersion): TaskInput => ({
  dir: dirOf(questionTitle, `${v.teamNo}-${v.teamName}`),
  downloadPath: fileUrl(v.fileUri),
  fileName: versionedFileName(v),
});

/**
 * `/question/work/:questionId` and spec §2.3 `/question/questionWorks?questionId=` (opened from the competition's
 * question list): every version of every team's works for a question, with exports.
 */
export default function WorksPage() {
  const questionId = useIdParam('questionId');
  const [zipping, setZipping] = useState<'all' | 'selected' | null>(null);
  const question = useQuestion(questionId);
  // Without a question (an address that does not parse), nothing is asked for and the page leaves.
  const id = questionId ?? 0;
  const list = usePagedList(useListState<WorksListParams>(), {
    queryKey: (q) => worksKeys.list(id, q),
    queryFn: (q) => worksApi.list(id, q),
    enabled: Boolean(questionId),
    emptyText: '暂无作品',
    selectable: true,
    exportUrl: worksUrls.page(id),
  });
  const title = question.data?.title ?? `赛题${questionId}`;
  const selectedTasks = useMemo(() => list.selectedRows.map((v) => workTask(title, v)), [list.selectedRows, title]);

  if (!questionId || question.isError) return <Navigate to="/404" replace />;

  /** The counted version of every team, or the selected versions, as one zip with a folder per team. */
  async function zip(which: 'all' | 'selected') {
    setZipping(which);
    try {
      const file = await downloadBlob(worksUrls.zip(id), which === 'selected' ? { params: { ids: list.selectedIds.join(',') } } : undefined);
      if (file) saveBlob(file.blob, file.fileName);
    } finally {
      setZipping(null);
    }
  }

  // The counted version of each team.
  const allTasks = async () => (await loadAllPages<WorkVersion>(worksUrls.page(id))).filter((v) => v.counts).map((v) => workTask(title, v));

  return (
    <Card title={`作品：${question.data?.title ?? ''}`}>
      {/* The list's actions sit above it, wrapping on a narrow screen, rather than crowding the card's title. */}
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 16 }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder="队伍名称、编号或文件名"
            style={{ width: 280, maxWidth: '100%' }}
            onSearch={(v) => list.refine({ keyword: v.trim() || undefined })}
          />
          <Checkbox checked={list.query.counting === '1'} onChange={(e) => list.refine({ counting: e.target.checked ? '1' : undefined })}>
            只看各队有效版本
          </Checkbox>
        </Space>
        <Space wrap>
          <Link to={`/question/similarity/${id}`}>
            <Button icon={<FileSearchOutlined />}>查重</Button>
          </Link>
          <BulkDownloadButtons all={allTasks} selected={selectedTasks} />
          <ExportButton {...list.exportAll} />
          <Button icon={<DownloadOutlined />} loading={zipping === 'all'} onClick={() => void zip('all')}>
            下载全部有效作品（zip）
          </Button>
        </Space>
      </Flex>
      <SelectionBar count={list.selectedIds.length} onClear={list.clearSelection}>
        <Button size="small" type="primary" icon={<DownloadOutlined />} loading={zipping === 'selected'} onClick={() => void zip('selected')}>
          打包下载所选（zip）
        </Button>
        <ExportButton {...list.exportSelected} />
      </SelectionBar>
      <Table<WorkVersion>
        {...list.table}
        scroll={{ x: 1100 }}
        columns={[
          { title: '队伍编号', dataIndex: 'teamNo', width: 120 },
          { title: '队伍', dataIndex: 'teamName', width: 160 },
          { title: '版本', width: 70, render: (_, v) => `V${v.version}` },
          {
            title: '文件',
            width: 220,
            render: (_, v) => (
              <a href={fileUrl(v.fileUri)} target="_blank" rel="noopener noreferrer">
                {v.fileName}
              </a>
            ),
          },
          { title: '大小', width: 100, render: (_, v) => formatSize(v.size) },
          { title: '提交人', dataIndex: 'username', width: 120 },
          { title: '完成时间', width: 150, render: (_, v) => formatMinute(v.completedAt) },
          { title: '状态', width: 90, render: (_, v) => (v.counts ? <Tag color="success">有效</Tag> : <Tag>旧版本</Tag>) },
        ]}
      />
    </Card>
  );
}
