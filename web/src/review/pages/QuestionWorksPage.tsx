import { ASSIGNMENT_STATUS, ASSIGNMENT_STATUS_TEXT, formatSize, totalText, type ReviewWork, type TaskInput } from '@contest/shared';
import { Alert, Breadcrumb, Card, Flex, Grid, List, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { DownloadButton } from '../../common/DownloadButton.tsx';
import { textOptions } from '../../common/forms.ts';
import { formatMinute } from '../../common/time.ts';
import { BulkDownloadButtons } from '../../downloads/BulkDownload.tsx';
import { dirOf } from '../../downloads/queue.ts';
import { STATUS_COLORS, useReviewTasks, useReviewWorks, workDownloadUrl } from '../api.ts';

/** The team of a work, which only a review that is not blind shows. */
export function TeamInfo({ team }: { team: NonNullable<ReviewWork['team']> }) {
  return (
    <Space direction="vertical" size={0}>
      <Typography.Text strong>{team.teamName}</Typography.Text>
      {team.members.length > 0 && <Typography.Text type="secondary">成员：{team.members.join('、')}</Typography.Text>}
      {team.schools.length > 0 && <Typography.Text type="secondary">学校：{team.schools.join('、')}</Typography.Text>}
    </Space>
  );
}

export function StatusTags({ work }: { work: Pick<ReviewWork, 'status' | 'rereview'> }) {
  return (
    <Space size={4}>
      <Tag color={STATUS_COLORS[work.status]}>{ASSIGNMENT_STATUS_TEXT[work.status]}</Tag>
      {work.rereview && <Tag color="orange">复评</Tag>}
    </Space>
  );
}

/**
 * A work as a download task in the question's folder, under the server's name for it. Without blind review teams may
 * have uploaded files of the same name, so the work's code goes in front (under blind review the name is the code).
 */
export function reviewWorkTask(questionTitle: string, w: ReviewWork & { fileName: string }): TaskInput {
  return {
    dir: dirOf(questionTitle),
    downloadPath: workDownloadUrl(w.id),
    fileName: w.fileName.includes(w.code) ? w.fileName : `${w.code}-${w.fileName}`,
  };
}
const hasFile = (w: ReviewWork): w is ReviewWork & { fileName: string } => Boolean(w.fileName);

/** A work's file and size, or that it has none. */
const FileText = ({ work: w }: { work: ReviewWork }) =>
  w.fileName ? `${w.fileName}${w.size !== null ? `（${formatSize(w.size)}）` : ''}` : <Typography.Text type="secondary">无文件</Typography.Text>;

/** `#/question/:questionId`: the works of one question given to this judge. */
export default function QuestionWorksPage() {
  const { questionId } = useParams();
  const valid = /^\d+$/.test(questionId ?? '');
  const id = valid ? Number(questionId) : 0;
  const works = useReviewWorks(id);
  const tasks = useReviewTasks();
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  // On a phone each work is a card; the table's columns would not fit.
  const phone = Grid.useBreakpoint().md === false;
  if (!valid) return <Navigate to="/404" replace />;
  const task = tasks.data?.find((t) => t.questionId === id);
  const list = works.data ?? [];
  const first = list[0];
  const title = task?.questionTitle ?? first?.questionTitle ?? '赛题作品';
  const competition = task?.competitionName ?? first?.competitionName;
  const showTeam = list.some((w) => w.team !== null);
  const count = (status: number) => list.filter((w) => w.status === status).length;
  const selected = list
    .filter((w) => selectedIds.includes(w.id))
    .filter(hasFile)
    .map((w) => reviewWorkTask(title, w));

  return (
    <>
      <Breadcrumb style={{ marginBottom: 16 }} items={[{ title: <Link to="/">我的评审任务</Link> }, { title }]} />
      <Card
        title={
          <Space wrap>
            {title}
            {task?.blind && <Tag color="purple">盲评</Tag>}
          </Space>
        }
        extra={!phone && competition && <Typography.Text type="secondary">{competition}</Typography.Text>}
      >
        {/* Above the list rather than in the card's title, where on a phone they would crowd the question's name. */}
        <Flex wrap gap={8} justify="space-between" align="center" style={{ marginBottom: 16 }}>
          {phone && competition ? <Typography.Text type="secondary">{competition}</Typography.Text> : <span />}
          <BulkDownloadButtons all={async () => list.filter(hasFile).map((w) => reviewWorkTask(title, w))} selected={phone ? undefined : selected} />
        </Flex>
        {task?.blind && (
          <Alert type="info" showIcon style={{ marginBottom: 16 }} message="本赛题为盲评：作品只显示编号，不显示队伍信息。请勿在评语中透露或猜测作者身份。" />
        )}
        {list.length > 0 && (
          <Typography.Paragraph type="secondary">
            共 {list.length} 份作品：已提交 {count(ASSIGNMENT_STATUS.submitted)} 份，草稿 {count(ASSIGNMENT_STATUS.draft)} 份，未评{' '}
            {count(ASSIGNMENT_STATUS.pending)} 份。
          </Typography.Paragraph>
        )}
        {phone ? (
          <List<ReviewWork>
            loading={works.isLoading}
            dataSource={list}
            locale={{ emptyText: '暂无分配给您的评审作品' }}
            renderItem={(w) => (
              <List.Item key={w.id} data-testid="review-work-card" style={{ display: 'block' }}>
                <Flex justify="space-between" gap={8} align="flex-start">
                  <Typography.Text strong>{w.code}</Typography.Text>
                  <StatusTags work={w} />
                </Flex>
                <div style={{ wordBreak: 'break-word' }}>
                  <FileText work={w} />
                </div>
                {w.team && <TeamInfo team={w.team} />}
                <Flex justify="space-between" gap={8} wrap style={{ marginTop: 4 }}>
                  <Typography.Text type="secondary">
                    总分 {w.total === null ? '—' : totalText(w.total, w.maxTotal)} · {formatMinute(w.updatedAt)}
                  </Typography.Text>
                  <Space size={4}>
                    <DownloadButton url={workDownloadUrl(w.id)} downloadKey={`work-${w.id}`} disabled={!w.fileName}>
                      下载作品
                    </DownloadButton>
                    <Link to={`/score/${w.id}`}>{w.status === ASSIGNMENT_STATUS.submitted ? '查看评分' : '评分'}</Link>
                  </Space>
                </Flex>
              </List.Item>
            )}
          />
        ) : (
          <Table<ReviewWork>
            rowKey="id"
            size="middle"
            loading={works.isLoading}
            dataSource={list}
            pagination={list.length > 20 ? { pageSize: 20, showTotal: (t) => `共 ${t} 份` } : false}
            scroll={{ x: showTeam ? 1100 : 860 }}
            locale={{ emptyText: '暂无分配给您的评审作品' }}
            rowSelection={{
              selectedRowKeys: selectedIds,
              onChange: (keys) => setSelectedIds(keys.map(Number)),
              getCheckboxProps: (w) => ({ disabled: !w.fileName }),
            }}
            columns={[
              { title: '作品编号', dataIndex: 'code', width: 120, render: (code: string) => <Typography.Text strong>{code}</Typography.Text> },
              {
                title: '作品文件',
                width: 220,
                render: (_, w) => <FileText work={w} />,
              },
              ...(showTeam ? [{ title: '队伍信息', width: 240, render: (_: unknown, w: ReviewWork) => (w.team ? <TeamInfo team={w.team} /> : '—') }] : []),
              {
                title: '状态',
                width: 130,
                filters: textOptions(ASSIGNMENT_STATUS_TEXT).map((o) => ({ text: o.label, value: o.value })),
                onFilter: (value, w) => w.status === value,
                render: (_, w) => <StatusTags work={w} />,
              },
              { title: '总分', width: 100, render: (_, w) => (w.total === null ? '—' : totalText(w.total, w.maxTotal)) },
              { title: '更新时间', width: 150, render: (_, w) => formatMinute(w.updatedAt) },
              {
                title: '操作',
                width: 240,
                fixed: 'right',
                render: (_, w) => (
                  <Space size={4}>
                    <DownloadButton url={workDownloadUrl(w.id)} downloadKey={`work-${w.id}`} disabled={!w.fileName}>
                      下载作品
                    </DownloadButton>
                    <Link to={`/score/${w.id}`}>{w.status === ASSIGNMENT_STATUS.submitted ? '查看评分' : '评分'}</Link>
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
    </>
  );
}
