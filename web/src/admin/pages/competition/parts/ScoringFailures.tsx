import { SCORING_FAILURES_SHOWN, failureSide, type ScoringFailure } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Grid, List, Modal, Table, Tag, Typography } from 'antd';
import { testSubmissionApi, testSubmissionKeys } from '#src/api/test-submissions.ts';
import { formatMinute } from '#src/common/time.ts';

/** Whose side a failure is on: the organisers' program or answer file, or the team's file. */
function SideTag({ failure }: { failure: ScoringFailure }) {
  return failureSide(failure) === 'organiser' ? <Tag color="error">需主办方处理</Tag> : <Tag>队伍文件有误</Tag>;
}

const STDERR_STYLE = { maxHeight: 240, overflow: 'auto', margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;

/**
 * A competition's latest failed submissions, for its organisers: the team, the file, what the team was told, whose side
 * the failure is on, and when an own scoring program ran, the end of its standard error (which the team never sees).
 * On a phone each failure is a card, its standard error folded under it.
 */
export function ScoringFailuresModal({ competitionId, onClose }: { competitionId: number; onClose: () => void }) {
  const { data, isLoading } = useQuery({ queryKey: testSubmissionKeys.failures(competitionId), queryFn: () => testSubmissionApi.failures(competitionId) });
  const phone = Grid.useBreakpoint().md === false;
  return (
    <Modal title="评分失败记录" open onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>} width={900}>
      <Typography.Paragraph type="secondary">
        最近{SCORING_FAILURES_SHOWN}
        条没有得分的测试提交：评分程序或答案文件出错的（需主办方处理），和文件未通过检查的（队伍文件有误）。它们都不计入队伍当天的提交次数；评分程序的标准错误输出只有主办方可见。
      </Typography.Paragraph>
      {phone ? (
        <List<ScoringFailure>
          loading={isLoading}
          dataSource={data}
          locale={{ emptyText: '暂无评分失败的提交' }}
          renderItem={(f) => (
            <List.Item key={f.id} data-testid="failure-card" style={{ display: 'block' }}>
              <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
                <Typography.Text strong ellipsis>
                  {f.teamName}
                </Typography.Text>
                <SideTag failure={f} />
              </div>
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', overflowWrap: 'anywhere' }}>
                {f.scoredAt ? formatMinute(f.scoredAt) : ''} · {f.questionTitle} · {f.fileName}
              </Typography.Text>
              <div style={{ marginTop: 4, overflowWrap: 'anywhere' }}>{f.reason}</div>
              {f.scorerLog && (
                <details style={{ marginTop: 4 }}>
                  <summary>标准错误输出</summary>
                  <pre data-testid="failure-stderr" style={STDERR_STYLE}>
                    {f.scorerLog}
                  </pre>
                </details>
              )}
            </List.Item>
          )}
        />
      ) : (
        <Table<ScoringFailure>
          rowKey="id"
          size="small"
          loading={isLoading}
          dataSource={data}
          pagination={false}
          scroll={{ x: 760 }}
          locale={{ emptyText: '暂无评分失败的提交' }}
          expandable={{
            rowExpandable: (f) => Boolean(f.scorerLog),
            expandedRowRender: (f) => (
              <pre data-testid="failure-stderr" style={STDERR_STYLE}>
                {f.scorerLog}
              </pre>
            ),
          }}
          columns={[
            { title: '时间', width: 140, render: (_, f) => (f.scoredAt ? formatMinute(f.scoredAt) : '') },
            { title: '赛题', dataIndex: 'questionTitle', width: 120 },
            { title: '队伍', dataIndex: 'teamName', width: 120 },
            { title: '文件', dataIndex: 'fileName', width: 120, ellipsis: true },
            { title: '类别', width: 110, render: (_, f) => <SideTag failure={f} /> },
            { title: '原因（队伍所见）', dataIndex: 'reason' },
          ]}
        />
      )}
    </Modal>
  );
}
