import { ACTION_CODES, AUDIT_STATUS, evaluationName, questionGap, type ManagedQuestion } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Table, Tag, Typography } from 'antd';
import { usePermissions } from '#src/common/auth.ts';
import { competitionDetailKeys } from '#src/api/competitions.ts';
import { questionApi, questionKeys } from '#src/api/questions.ts';
import { useConfirm } from '#src/admin/components/useConfirm.ts';
import { useListMutation } from '#src/common/usePagedList.ts';

/** A competition's questions, read for its audit. */
export function useCompetitionQuestions(competitionId: number, enabled = true) {
  return useQuery({
    queryKey: questionKeys.list(competitionId),
    queryFn: () => questionApi.list(competitionId),
    enabled,
  });
}

/**
 * The questions as the platform audits them: what each is scored by, whether its answer file is there, and its own
 * review. While the competition is in audit, approving the competition approves every question that can be scored;
 * a question added after it went online is approved here, one by one, without opening the organiser's editor.
 */
export function AuditQuestions({ competitionId, auditStatus }: { competitionId: number; auditStatus: number }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const reviewer = usePermissions().has(ACTION_CODES.questionReview);
  const questions = useCompetitionQuestions(competitionId);
  const inAudit = auditStatus === AUDIT_STATUS.pending;

  // A question approved changes the competition's readiness as well as its questions.
  const approval = useListMutation(
    (id: number) => questionApi.review(id, true),
    [competitionDetailKeys.detail(competitionId)],
    () => void message.success('赛题已审核，参赛者可见'),
  );

  const approve = (q: ManagedQuestion) =>
    confirm(`审核通过赛题“${q.title}”吗？通过后参赛者可以看到并选择它，组织方无需再单独操作。`, () => approval.mutateAsync(q.id));

  return (
    <Table<ManagedQuestion>
      rowKey="id"
      size="small"
      data-testid="audit-questions"
      loading={questions.isLoading}
      dataSource={questions.data}
      pagination={false}
      scroll={{ x: 900 }}
      locale={{ emptyText: '暂无赛题：赛题可在上线后添加，添加后在此审核' }}
      columns={[
        { title: '赛题', dataIndex: 'title', width: 200 },
        { title: '评分指标', width: 190, render: (_, q) => (q.evaluation ? evaluationName(q.evaluation) : <Tag color="error">未设置</Tag>) },
        { title: '答案文件', width: 100, render: (_, q) => (q.answerRows === null ? <Tag color="warning">未上传</Tag> : `${q.answerRows} 行`) },
        { title: '数据文件', width: 90, render: (_, q) => (q.files.length ? `${q.files.length} 个` : '无') },
        { title: '状态', width: 90, render: (_, q) => (q.reviewed ? <Tag color="success">已审核</Tag> : <Tag>待审核</Tag>) },
        {
          title: '审核',
          width: 260,
          render: (_, q) => {
            if (q.reviewed) return <Typography.Text type="secondary">参赛者可见</Typography.Text>;
            const gap = questionGap(q);
            if (gap) return <Typography.Text type="warning">{gap}；待组织方补齐后审核</Typography.Text>;
            if (inAudit) return <Typography.Text>审核通过竞赛时一并通过</Typography.Text>;
            return reviewer ? (
              <Button size="small" type="primary" ghost onClick={() => approve(q)}>
                审核通过
              </Button>
            ) : (
              <Typography.Text type="secondary">等待平台审核</Typography.Text>
            );
          },
        },
      ]}
    />
  );
}
