import {
  type SchoolResult,
  ACTION_CODES,
  ADMIN_MENU_CODES,
  DEFAULT_LIMIT,
  DISPUTE_STATUS,
  DISPUTE_STATUS_TEXT,
  GRADE_STATE,
  GRADE_STATE_TEXT,
  REVIEW_SCORE_RULE,
  finalScoreRule,
  type Dispute,
  type Judging,
  type PageQuery,
  type ReviewRule,
} from '@contest/shared';
import { CalculatorOutlined, LockOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Flex, Form, Input, Segmented, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { gradeApi, gradeKeys, gradeUrls } from '#src/api/grades.ts';
import { reviewApi, reviewKeys, type DisputeAnswer, type DisputeListParams } from '#src/api/review.ts';
import { usePermissions } from '#src/common/auth.ts';
import { DownloadButton } from '#src/common/DownloadButton.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { formatMinute } from '#src/common/time.ts';
import { fileUrls } from '#src/api/files.ts';
import { GradeTable } from '../../components/GradeTable.tsx';
import { QuestionHeader, QuestionScope } from '../../components/QuestionScope.tsx';
import { personLabel, useGradeSummary, useQuestionJudges } from '../../components/review.ts';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, usePagedList, type ListSource } from '#src/common/usePagedList.ts';
import { useEarlyWarning, usePublishRefusal, withEarlyWarning } from '../../components/earlyWarning.tsx';
import { ActionLink } from '#src/common/ActionLink.tsx';

const STATE_COLORS: Record<number, string> = { [GRADE_STATE.none]: 'default', [GRADE_STATE.calculated]: 'processing', [GRADE_STATE.confirmed]: 'success' };

/** Where the grades stand, who still has works to score, and the calculate / confirm steps. */
function SummaryCard({ questionId, competitionId }: { questionId: number; competitionId: number }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const permissions = usePermissions();
  const editable = permissions.has(ACTION_CODES.gradeEdit);
  const summary = useGradeSummary(questionId);
  const early = useEarlyWarning(questionId);
  const refusal = usePublishRefusal(questionId);
  // Calculating and confirming change everything about the question's review: its summary, grades and disputes.
  const question = [reviewKeys.question(questionId)];
  const calculation = useListMutation(
    () => reviewApi.calculate(questionId),
    question,
    () => void message.success('成绩已计算，请核对后确认'),
  );
  const confirmation = useListMutation(
    () => reviewApi.confirm(questionId),
    question,
    () => void message.success('成绩已确认并公布'),
  );
  const s = summary.data;

  const calculate = () => calculation.mutateAsync();
  function askCalculate() {
    const warning = early('现在计算的成绩可能不是最终成绩');
    if (s?.unfinished.length)
      confirm(withEarlyWarning(warning, `尚有 ${s.unfinished.length} 位专家未完成评审，未评完的作品将只按已提交的评分计算。确定现在计算吗？`), calculate);
    else if (warning) confirm(withEarlyWarning(warning, null), calculate);
    else calculate().catch(() => undefined); // the http client has told the user why
  }
  const askConfirm = () =>
    confirm('确认后成绩将被锁定，不能再重新计算，并向参赛队伍公布；队伍可在申诉期内提出申诉。确定确认成绩吗？', () => confirmation.mutateAsync());

  const locked = s?.gradeState === GRADE_STATE.confirmed;
  return (
    <Card
      title="成绩汇总"
      loading={summary.isLoading}
      extra={
        editable &&
        s &&
        !locked && (
          <Space>
            <Button icon={<CalculatorOutlined />} loading={calculation.isPending} onClick={askCalculate}>
              {s.gradeState === GRADE_STATE.none ? '计算成绩' : '重新计算'}
            </Button>
            {s.gradeState === GRADE_STATE.calculated && (
              <Tooltip title={refusal ?? (s.unfinished.length ? '所有评审提交后才能确认成绩' : undefined)}>
                <Button type="primary" icon={<LockOutlined />} disabled={Boolean(refusal) || s.unfinished.length > 0} onClick={askConfirm}>
                  确认成绩
                </Button>
              </Tooltip>
            )}
          </Space>
        )
      }
    >
      {s && (
        <>
          <Descriptions size="small" column={{ xs: 1, sm: 3 }}>
            <Descriptions.Item label="成绩状态">
              <Tag color={STATE_COLORS[s.gradeState]}>{GRADE_STATE_TEXT[s.gradeState]}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="计算时间">{s.calculatedAt ? formatMinute(s.calculatedAt) : '—'}</Descriptions.Item>
            <Descriptions.Item label="确认时间">{s.confirmedAt ? formatMinute(s.confirmedAt) : '—'}</Descriptions.Item>
          </Descriptions>
          {refusal && !locked && (
            <Alert
              type="info"
              showIcon
              style={{ marginTop: 12 }}
              data-testid="publish-refusal"
              message={refusal}
              description={
                <>
                  截止后才能确认并公布成绩。在此之前可以先计算成绩、核对结果；截止时间由竞赛阶段或菜单设置中的“提交作品”“提交测试”决定。
                  {permissions.has(ACTION_CODES.competitionEdit) && <Link to={`/competition/edit/${competitionId}`}>查看竞赛设置</Link>}
                </>
              }
            />
          )}
          {s.judging === 'auto' ? (
            <Alert
              type="info"
              showIcon
              style={{ marginTop: 12 }}
              data-testid="board-judged"
              message="该赛题按自动评分的私榜排名，不需要专家评审"
              description="计算成绩即按私榜排名；确认成绩后，成绩与私榜一并公布。"
            />
          ) : s.unfinished.length ? (
            <Alert
              type="warning"
              showIcon
              style={{ marginTop: 12 }}
              message={`尚有 ${s.unfinished.length} 位专家未完成评审`}
              description={s.unfinished.map((u) => `${personLabel(u)}：待评 ${u.pending} 份`).join('；')}
            />
          ) : (
            <Alert type="success" showIcon style={{ marginTop: 12 }} message="所有专家均已完成评审" />
          )}
        </>
      )}
    </Card>
  );
}

/**
 * Answers a dispute, optionally sending the work to one more judge. Judges who already have the team's work are
 * offered disabled; the list needs the assignment menu, without which only the answer is given.
 */
function AnswerModal({ dispute, onClose }: { dispute: Dispute; onClose: () => void }) {
  const { message } = App.useApp();
  const canAssign = usePermissions().has(ADMIN_MENU_CODES.reviewAssign);
  const judges = useQuestionJudges(dispute.questionId, canAssign);
  // The team's assignments: one page is plenty, a team's work goes to a few judges.
  const teamAssignments = { page: 1, limit: 100, keyword: dispute.teamNo };
  const reviewed = useQuery({
    queryKey: reviewKeys.assignments(dispute.questionId, teamAssignments),
    enabled: canAssign,
    queryFn: () => reviewApi.assignments(dispute.questionId, teamAssignments),
    select: (page) => new Set(page.list.filter((a) => a.teamId === dispute.teamId).map((a) => a.judgeId)),
  });
  // An answer may send the work to another judge: the question's assignments and grades change with it.
  const answer = useListMutation(
    (body: DisputeAnswer) => reviewApi.answerDispute(dispute.id, body),
    [reviewKeys.question(dispute.questionId)],
    (_, body) => void message.success(body.rereviewJudgeId ? '已答复，并已安排复评' : '已答复'),
  );
  return (
    <FormModal<{ answer: string; rereviewJudgeId?: number }>
      title={`${dispute.kind === 'objection' ? '答复公示异议' : '答复申诉'}：${dispute.teamName}（${dispute.teamNo}）`}
      name="answer"
      width={640}
      onSave={(v) => answer.mutateAsync({ answer: v.answer, rereviewJudgeId: v.rereviewJudgeId ?? null })}
      onClose={onClose}
    >
      <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
        {dispute.kind === 'objection' && <Descriptions.Item label="类型">公示异议（对该队伍的获奖结果，实名提出）</Descriptions.Item>}
        <Descriptions.Item label={dispute.kind === 'objection' ? '异议人' : '申诉人'}>{disputer(dispute)}</Descriptions.Item>
        <Descriptions.Item label="提出时间">{formatMinute(dispute.createdAt)}</Descriptions.Item>
        <Descriptions.Item label="理由">
          <div style={{ whiteSpace: 'pre-wrap' }}>{dispute.reason}</div>
        </Descriptions.Item>
        {dispute.attachment && (
          <Descriptions.Item label="证明材料">
            <a href={fileUrls.download(dispute.attachment)} target="_blank" rel="noopener noreferrer">
              查看附件
            </a>
          </Descriptions.Item>
        )}
      </Descriptions>
      <Form.Item name="answer" label="答复内容" rules={[{ required: true, whitespace: true, message: '请输入答复内容' }]}>
        <Input.TextArea rows={4} maxLength={1000} showCount />
      </Form.Item>
      {canAssign && (
        <Form.Item name="rereviewJudgeId" label="复评专家（选填）" extra="选择后作品将分配给该专家重新评审，成绩需重新计算">
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="不安排复评"
            loading={judges.isLoading || reviewed.isLoading}
            options={judges.data?.map((j) => {
              const done = reviewed.data?.has(j.userId) ?? false;
              return { value: j.userId, label: `${personLabel(j)}${done ? '（已评审该作品）' : ''}`, disabled: done };
            })}
          />
        </Form.Item>
      )}
    </FormModal>
  );
}

/**
 * The disputes' filter lives in the address, their page in the card (the grade table above has its own): `?dispute=0`
 * (the home page's 待答复成绩申诉) lists the disputes still waiting for an answer, as `status=0`; 全部 removes it.
 */
function useDisputeSource(): ListSource<DisputeListParams> {
  const [params, setParams] = useSearchParams();
  const [paging, setPaging] = useState<PageQuery>({ page: 1, limit: DEFAULT_LIMIT });
  const waiting = params.get('dispute') === String(DISPUTE_STATUS.pending);
  return {
    query: { ...paging, ...(waiting ? { status: DISPUTE_STATUS.pending } : {}) },
    setQuery: ({ page, limit, status }) => {
      setPaging({ page, limit });
      if ((status === DISPUTE_STATUS.pending) === waiting) return;
      const next = new URLSearchParams(params);
      if (status === DISPUTE_STATUS.pending) next.set('dispute', String(DISPUTE_STATUS.pending));
      else next.delete('dispute');
      setParams(next);
    },
  };
}

/** Who filed it: a team member's account, or an objector's verified name with the account. */
const disputer = (d: Dispute) => (d.objectorName ? `${d.objectorName}（${d.username}）` : d.username);

/** The teams' disputes of their grades and the 公示 objections to their results, with the answers. */
function DisputesCard({ questionId }: { questionId: number }) {
  const editable = usePermissions().has(ACTION_CODES.gradeEdit);
  const [answering, setAnswering] = useState<Dispute | null>(null);
  const source = useDisputeSource();
  const waiting = source.query.status === DISPUTE_STATUS.pending;
  const list = usePagedList(source, {
    queryKey: (q) => reviewKeys.disputes(questionId, q),
    queryFn: (q) => reviewApi.disputes(questionId, q),
    emptyText: waiting ? '没有待答复的申诉' : '暂无申诉',
  });
  return (
    <Card
      title="成绩申诉与公示异议"
      extra={
        <Segmented
          value={waiting ? 'waiting' : 'all'}
          onChange={(v) => list.refine({ status: v === 'waiting' ? DISPUTE_STATUS.pending : undefined })}
          options={[
            { value: 'all', label: '全部' },
            { value: 'waiting', label: '待答复' },
          ]}
        />
      }
    >
      <Table<Dispute>
        {...list.table}
        scroll={{ x: 1200 }}
        columns={[
          { title: '队伍编号', dataIndex: 'teamNo', width: 120 },
          { title: '队伍名称', dataIndex: 'teamName', width: 150 },
          {
            title: '提出人',
            width: 150,
            render: (_, d) => (
              <>
                {d.kind === 'objection' && <Tag color="purple">公示异议</Tag>}
                {disputer(d)}
              </>
            ),
          },
          { title: '理由', dataIndex: 'reason', width: 240, ellipsis: { showTitle: true } },
          {
            title: '状态',
            width: 120,
            render: (_, d) => (
              <>
                <Tag color={d.status === DISPUTE_STATUS.pending ? 'warning' : 'success'}>{DISPUTE_STATUS_TEXT[d.status]}</Tag>
                {d.rereview && <Tag color="orange">复评</Tag>}
              </>
            ),
          },
          { title: '答复', dataIndex: 'answer', width: 240, ellipsis: { showTitle: true } },
          { title: '申诉时间', width: 150, render: (_, d) => formatMinute(d.createdAt) },
          { title: '答复时间', width: 150, render: (_, d) => (d.answeredAt ? formatMinute(d.answeredAt) : '—') },
          ...(editable
            ? [
                {
                  title: '操作',
                  width: 80,
                  fixed: 'right' as const,
                  render: (_: unknown, d: Dispute) => d.status === DISPUTE_STATUS.pending && <ActionLink onClick={() => setAnswering(d)}>答复</ActionLink>,
                },
              ]
            : []),
        ]}
      />
      {answering && <AnswerModal dispute={answering} onClose={() => setAnswering(null)} />}
    </Card>
  );
}

const JUDGES_TOTALS = '评分1、评分2……为各位专家的总分（各项得分之和，满分为各项满分之和）';
const TEST_POINTS = '测试得分 = 私榜得分相对私榜第一名折算的百分制';

/**
 * What the columns are for each judging, in the organiser's words, with the question's own rule: how the judges'
 * scores combine (its aggregation, nothing about another) and the weights it gives.
 */
function howGradesAddUp(judging: Judging, rule: Pick<ReviewRule, 'aggregation' | 'reviewWeight' | 'testWeight'> | undefined): string {
  if (judging === 'auto')
    return '该赛题按自动评分的私榜排名：私榜得分为队伍选定的提交中最好的一次（未选定时，取公榜最好的一次提交），最终成绩即私榜得分，名次按评分指标的方向排列，得分相同名次相同。确认成绩时私榜一并公布。';
  const review = rule ? REVIEW_SCORE_RULE[rule.aggregation] : '评审成绩 = 各评委总分 ÷ 满分 × 100，按评审规则合成';
  if (judging === 'review') return `${JUDGES_TOTALS}；${review}；最终成绩 = 评审成绩。`;
  const final = rule ? finalScoreRule(rule) : '最终成绩 = 评审成绩 × 评审成绩权重 + 测试得分 × 测试成绩权重';
  return `${JUDGES_TOTALS}；${review}；${TEST_POINTS}；${final}。确认成绩时私榜一并公布。`;
}

/** The results grouped by the teams' school (issue 36): teams graded, teams awarded and each award's count. */
function SchoolResults({ questionId }: { questionId: number }) {
  const schools = useQuery({ queryKey: gradeKeys.schools(questionId), queryFn: () => gradeApi.schools(questionId) });
  return (
    <Table<SchoolResult>
      rowKey={(s) => (s.schoolName === null ? 'none' : `school:${s.schoolName}`)}
      size="small"
      loading={schools.isLoading}
      dataSource={schools.data ?? []}
      locale={{ emptyText: '暂无成绩' }}
      pagination={(schools.data?.length ?? 0) > 20 ? { pageSize: 20, showTotal: (n) => `共 ${n} 所学校` } : false}
      scroll={{ x: 640 }}
      columns={[
        { title: '学校', width: 220, render: (_, s) => s.schoolName ?? '未填写学校' },
        { title: '参评队伍', dataIndex: 'teams', width: 90 },
        { title: '获奖队伍', dataIndex: 'awarded', width: 90 },
        { title: '最好名次', width: 90, render: (_, s) => s.bestRank ?? '—' },
        { title: '奖项', render: (_, s) => (s.awards.length ? s.awards.map((a) => `${a.awardName} ${a.count}`).join('，') : '—') },
      ]}
    />
  );
}

/** The grades' card: its columns and their explanation follow the question's judging (from the summary) and its rule. */
function GradesCard({ questionId, competitionId }: { questionId: number; competitionId: number }) {
  const judging = useGradeSummary(questionId).data?.judging;
  const rule = useQuery({
    queryKey: reviewKeys.rule(questionId),
    enabled: Boolean(judging && judging !== 'auto'),
    queryFn: () => reviewApi.rule(questionId),
  }).data;
  const [bySchool, setBySchool] = useState(false);
  return (
    <Card
      title="成绩"
      extra={
        <DownloadButton type="default" size="middle" url={gradeUrls.exportGrades(questionId)}>
          导出成绩
        </DownloadButton>
      }
    >
      {judging && (
        <>
          <Typography.Paragraph type="secondary" data-testid="how-grades-add-up">
            {howGradesAddUp(judging, rule ?? undefined)}
          </Typography.Paragraph>
          <Segmented
            style={{ marginBottom: 12 }}
            value={bySchool ? 'school' : 'team'}
            options={[
              { label: '按队伍', value: 'team' },
              { label: '按学校', value: 'school' },
            ]}
            onChange={(v) => setBySchool(v === 'school')}
          />
          {bySchool ? <SchoolResults questionId={questionId} /> : <GradeTable questionId={questionId} competitionId={competitionId} full judging={judging} />}
        </>
      )}
    </Card>
  );
}

/** `/question/grade/:questionId`: calculate and confirm the question's grades, and answer the disputes. */
export default function GradePage() {
  return (
    <QuestionScope>
      {(question) => (
        <Flex vertical gap={16}>
          <QuestionHeader question={question} current="grade" />
          <SummaryCard questionId={question.id} competitionId={question.competitionId} />
          <GradesCard questionId={question.id} competitionId={question.competitionId} />
          <DisputesCard questionId={question.id} />
        </Flex>
      )}
    </QuestionScope>
  );
}
