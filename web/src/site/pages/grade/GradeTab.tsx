import { DISPUTE_STATUS, DISPUTE_STATUS_TEXT, JUDGING_NAMES, judgedByExperts, scoredAutomatically, type Dispute, type MyGrade } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Empty, Form, Input, Result, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { myGradeApi, myGradeKeys } from '#src/api/grades.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { goLogin, sysTime } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { useTeam } from '../../team.ts';
import { useCompetition } from '../competition/CompetitionLayout.tsx';
import { showRank, showScore, showTestScore } from './format.ts';

function DisputeModal({ grade, competitionId, onClose }: { grade: MyGrade; competitionId: number; onClose: () => void }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  async function save(values: { reason: string }) {
    await myGradeApi.dispute(grade.questionId, values);
    void message.success('申诉已提交，请等待组织方答复');
    await client.invalidateQueries({ queryKey: myGradeKeys.grades(competitionId) });
  }
  return (
    <FormModal<{ reason: string }> title={`成绩申诉：${grade.questionTitle}`} name="dispute" okText="提交申诉" onSave={save} onClose={onClose}>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={`每支队伍对每道赛题只能申诉一次，申诉截止于 ${formatMinute(grade.disputeUntil!)}。`} />
      <Form.Item name="reason" label="申诉理由" rules={[{ required: true, whitespace: true, message: '请输入申诉理由' }]}>
        <Input.TextArea rows={6} maxLength={1000} showCount placeholder="请具体说明对成绩有异议的地方" />
      </Form.Item>
    </FormModal>
  );
}

function DisputeInfo({ dispute }: { dispute: Dispute }) {
  const answered = dispute.status === DISPUTE_STATUS.answered;
  return (
    <Descriptions title="成绩申诉" column={1} size="small" bordered style={{ marginTop: 16 }} data-testid="dispute">
      <Descriptions.Item label="状态">
        <Space>
          <Tag color={answered ? 'success' : 'processing'}>{DISPUTE_STATUS_TEXT[dispute.status]}</Tag>
          {dispute.rereview && <Tag color="orange">已安排复评</Tag>}
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label="申诉理由">
        <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{dispute.reason}</Typography.Paragraph>
      </Descriptions.Item>
      <Descriptions.Item label="申诉时间">
        {formatMinute(dispute.createdAt)}（{dispute.username}）
      </Descriptions.Item>
      {answered && (
        <Descriptions.Item label="组织方答复">
          <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{dispute.answer}</Typography.Paragraph>
          {dispute.answeredAt && <Typography.Text type="secondary">{formatMinute(dispute.answeredAt)}</Typography.Text>}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

function GradeCard({ grade, onDispute }: { grade: MyGrade; onDispute: () => void }) {
  const now = sysTime().getTime();
  const open = grade.disputeUntil !== null && Date.parse(grade.disputeUntil) > now;
  return (
    <Card
      type="inner"
      className="wrap-card-head"
      title={grade.questionTitle}
      style={{ marginBottom: 16 }}
      data-testid="my-grade"
      extra={
        !grade.dispute &&
        open && (
          <Button onClick={onDispute} data-testid="dispute-button">
            申诉
          </Button>
        )
      }
    >
      {grade.rechecking && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="该赛题的成绩正在复评"
          description="复评结束、组织方重新确认后，将在此公布新的成绩。"
        />
      )}
      <Descriptions column={{ xs: 1, sm: 2, md: 3 }} size="small">
        <Descriptions.Item label="评判方式">{JUDGING_NAMES[grade.judging]}</Descriptions.Item>
        {/* The parts the judging has: a paper question has no test score, a prediction question no review score. */}
        {judgedByExperts(grade.judging) && <Descriptions.Item label="评审成绩">{showScore(grade.reviewScore)}</Descriptions.Item>}
        {scoredAutomatically(grade.judging) && <Descriptions.Item label="私榜得分">{showTestScore(grade.testScore)}</Descriptions.Item>}
        {grade.judging === 'both' && <Descriptions.Item label="测试得分（百分制）">{showScore(grade.testPoints)}</Descriptions.Item>}
        <Descriptions.Item label="最终成绩">
          <Typography.Text strong style={{ fontSize: 16 }}>
            {/* Ranked by its private board, a question's final score is that board's: a metric's value. */}
            {grade.judging === 'auto' ? showTestScore(grade.finalScore) : showScore(grade.finalScore)}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="排名">{showRank(grade.rank, grade.teams)}</Descriptions.Item>
        <Descriptions.Item label="奖项">{grade.awardName ? <Tag color="gold">{grade.awardName}</Tag> : grade.rechecking ? '—' : '未获奖'}</Descriptions.Item>
        <Descriptions.Item label="成绩公布">{formatMinute(grade.confirmedAt)}</Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" data-testid="grade-formula" style={{ marginTop: 8 }}>
        {grade.formula}
      </Typography.Paragraph>
      {grade.dispute ? (
        <DisputeInfo dispute={grade.dispute} />
      ) : open ? (
        <Typography.Text type="secondary">如对成绩有异议，可在 {formatMinute(grade.disputeUntil!)} 前提出申诉。</Typography.Text>
      ) : (
        grade.disputeUntil && <Typography.Text type="secondary">申诉期已于 {formatMinute(grade.disputeUntil)} 结束。</Typography.Text>
      )}
    </Card>
  );
}

/** `competition/:id/grade`: the team's confirmed grades, one per question, and its disputes. */
export default function GradeTab() {
  const { competition } = useCompetition();
  const { data: user } = useCurrentUser();
  const { data, isLoading } = useTeam(competition.id);
  const [disputing, setDisputing] = useState<MyGrade | null>(null);
  const grades = useQuery({
    queryKey: myGradeKeys.grades(competition.id),
    enabled: Boolean(data?.team),
    queryFn: () => myGradeApi.grades(competition.id),
  });
  if (!user)
    return (
      <Result
        status="info"
        title="登录后查看成绩"
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  if (isLoading) return <Spin />;
  if (!data?.team) return <Result status="info" title="您还没有参加本竞赛" extra={<Link to={`/competition/${competition.id}/team`}>我的队伍</Link>} />;
  if (grades.isLoading) return <Spin />;
  if (!grades.data?.length) return <Empty description="成绩尚未公布" />;
  return (
    <>
      {grades.data.map((g) => (
        <GradeCard key={g.questionId} grade={g} onDispute={() => setDisputing(g)} />
      ))}
      {disputing && <DisputeModal grade={disputing} competitionId={competition.id} onClose={() => setDisputing(null)} />}
    </>
  );
}
