import { SCORING_FAILURES_SHOWN, type ScoringFailure } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Modal, Table, Typography } from 'antd';
import { testSubmissionApi, testSubmissionKeys } from '../../../../api/testSubmission.ts';
import { formatMinute } from '../../../../common/time.ts';

/**
 * A competition's latest failed submissions, for its organisers: the team, the file, what the team was told, and when
 * an own scoring program failed, the end of its standard error (which the team never sees).
 */
export function ScoringFailuresModal({ competitionId, onClose }: { competitionId: number; onClose: () => void }) {
  const { data, isLoading } = useQuery({ queryKey: testSubmissionKeys.failures(competitionId), queryFn: () => testSubmissionApi.failures(competitionId) });
  return (
    <Modal title="评分失败记录" open onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>} width={900}>
      <Typography.Paragraph type="secondary">最近{SCORING_FAILURES_SHOWN}条评分失败的测试提交。失败的提交不计入队伍当天的提交次数；评分程序的标准错误输出只有主办方可见。</Typography.Paragraph>
      <Table<ScoringFailure>
        rowKey="id"
        size="small"
        loading={isLoading}
        dataSource={data}
        pagination={false}
        scroll={{ x: 700 }}
        locale={{ emptyText: '暂无评分失败的提交' }}
        expandable={{
          rowExpandable: (f) => Boolean(f.scorerLog),
          expandedRowRender: (f) => (
            <pre data-testid="failure-stderr" style={{ maxHeight: 240, overflow: 'auto', margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {f.scorerLog}
            </pre>
          ),
        }}
        columns={[
          { title: '时间', width: 140, render: (_, f) => (f.scoredAt ? formatMinute(f.scoredAt) : '') },
          { title: '赛题', dataIndex: 'questionTitle', width: 140 },
          { title: '队伍', dataIndex: 'teamName', width: 140 },
          { title: '文件', dataIndex: 'fileName', width: 140, ellipsis: true },
          { title: '原因（队伍所见）', dataIndex: 'reason' },
        ]}
      />
    </Modal>
  );
}
