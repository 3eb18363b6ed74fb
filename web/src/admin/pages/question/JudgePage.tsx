import { ACTION_CODES, ASSIGNMENT_STATUS, ASSIGNMENT_STATUS_TEXT, totalText, type AssignResult, type Assignment, type QuestionJudge } from '@contest/shared';
import { PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, Progress, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { DownloadButton } from '#src/common/DownloadButton.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { textOptions } from '#src/common/forms.ts';
import { formatMinute } from '#src/common/time.ts';
import { ExportButton } from '../../components/ExportButton.tsx';
import { FilterForm } from '../../components/FilterForm.tsx';
import { QuestionHeader, QuestionScope } from '../../components/QuestionScope.tsx';
import { personLabel, useQuestionJudges } from '../../components/review.ts';
import { useConfirm } from '../../components/useConfirm.ts';
import { useConfirmedRetry } from '../../components/useConfirmedRetry.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';
import { reviewApi, reviewKeys, reviewUrls, type AssignmentListParams } from '#src/api/review.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

type Choice = { value: number; label: string };

const judgeOf = (a: Assignment) => personLabel({ username: a.judgeUsername, userName: a.judgeName });
const STATUS_COLORS: Record<number, string> = {
  [ASSIGNMENT_STATUS.pending]: 'default',
  [ASSIGNMENT_STATUS.draft]: 'processing',
  [ASSIGNMENT_STATUS.submitted]: 'success',
};

/** Picks experts of the pool to judge the question; the pool is searched on the server as the user types. */
function AddJudgesModal({ questionId, onClose }: { questionId: number; onClose: () => void }) {
  const { message } = App.useApp();
  const [keyword, setKeyword] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const candidates = useQuery({
    queryKey: reviewKeys.candidates(questionId, keyword),
    queryFn: () => reviewApi.candidates(questionId, keyword),
  });
  function search(text: string) {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setKeyword(text.trim()), 300);
  }
  const adding = useListMutation(
    (userIds: number[]) => reviewApi.addJudges(questionId, userIds),
    [reviewKeys.question(questionId)],
    (_, userIds) => void message.success(`已添加${userIds.length}位评审专家`),
  );
  return (
    <FormModal<{ judges: Choice[] }>
      title="添加评审专家"
      name="judges"
      width={600}
      onSave={({ judges }) => adding.mutateAsync(judges.map((j) => j.value))}
      onClose={onClose}
    >
      <Form.Item
        name="judges"
        label="评审专家"
        rules={[{ required: true, message: '请选择评审专家' }]}
        extra="只列出专家库中尚未评审本题的专家；可按用户名、姓名或单位搜索"
      >
        <Select
          mode="multiple"
          labelInValue
          showSearch
          filterOption={false}
          onSearch={search}
          loading={candidates.isFetching}
          placeholder="搜索并选择专家"
          notFoundContent={candidates.isFetching ? '搜索中…' : '没有可添加的专家'}
          options={candidates.data?.map((c) => ({ value: c.userId, label: `${personLabel(c)} · ${c.organization}` }))}
        />
      </Form.Item>
    </FormModal>
  );
}

/** What automatic assignment did: how many works it gave out, and which still lack judges. */
function AssignResultAlert({ questionId, result, onClose }: { questionId: number; result: AssignResult; onClose: () => void }) {
  const created = `本次新分配 ${result.created} 份评审任务。`;
  // Works 查重 holds are named with a way to them: they go to judges once the organiser releases them.
  const held = result.held ? (
    <>
      {result.held} 份作品因查重暂未分配（待处理或不予评审），<Link to={`/question/similarity/${questionId}`}>前往作品查重</Link>处理后可再次分配。
    </>
  ) : null;
  if (!result.short.length)
    return <Alert type={held ? 'warning' : 'success'} showIcon closable onClose={onClose} style={{ marginBottom: 16 }} message={created} description={held} />;
  return (
    <Alert
      type="warning"
      showIcon
      closable
      onClose={onClose}
      style={{ marginBottom: 16 }}
      message={`${created}另有 ${result.short.length} 份作品因利益回避（专家与队伍同单位等）缺少评审专家，请添加更多专家后再次分配：`}
      description={
        <>
          {result.short.map((s) => `${s.teamNo}（缺 ${s.missing} 位）`).join('、')}
          {held && <div>{held}</div>}
        </>
      }
    />
  );
}

/** The question's judges with their workload; adding and removing judges, and the automatic assignment. */
function JudgesCard({ questionId }: { questionId: number }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const editable = usePermissions().has(ACTION_CODES.assignEdit);
  const judges = useQuestionJudges(questionId);
  const [adding, setAdding] = useState(false);
  const [result, setResult] = useState<AssignResult | null>(null);
  const question = [reviewKeys.question(questionId)];
  // Before the works deadline the server asks whether to assign anyway (teams may still replace their works).
  const guarded = useConfirmedRetry('early');
  const assignment = useListMutation(
    () => guarded((o) => reviewApi.autoAssign(questionId, o)),
    question,
    (r) => {
      setResult(r);
      void message.success(`自动分配完成，新分配 ${r.created} 份`);
    },
  );
  const removal = useListMutation(
    (userId: number) => reviewApi.removeJudge(questionId, userId),
    question,
    () => void message.success('已移除评审专家'),
  );

  // One click, one question at most: before the works deadline the server's warning asks (useConfirmedRetry); after it,
  // adding the missing assignments changes nothing already given, so it needs no second thought.
  const assign = () => assignment.mutate();
  const remove = (j: QuestionJudge) => confirm(`确定将“${personLabel(j)}”移出本题的评审专家吗？`, () => removal.mutateAsync(j.userId), { danger: true });

  return (
    <Card
      title="评审专家"
      extra={
        editable && (
          <Space>
            <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              添加专家
            </Button>
            <Tooltip title="按评审规则为尚缺评审专家的作品分配专家（已有的分配保持不变），并尽量均衡各专家的工作量">
              <Button type="primary" icon={<ThunderboltOutlined />} disabled={!judges.data?.length} loading={assignment.isPending} onClick={assign}>
                自动分配
              </Button>
            </Tooltip>
          </Space>
        )
      }
    >
      {result && <AssignResultAlert questionId={questionId} result={result} onClose={() => setResult(null)} />}
      <Table<QuestionJudge>
        rowKey="userId"
        loading={judges.isLoading}
        dataSource={judges.data}
        pagination={false}
        scroll={{ x: 1000 }}
        locale={{ emptyText: '尚未添加评审专家' }}
        columns={[
          { title: '姓名', width: 100, render: (_, j) => j.userName ?? '—' },
          { title: '用户名', dataIndex: 'username', width: 120 },
          { title: '所在单位', dataIndex: 'organization', width: 200, ellipsis: true },
          { title: '专业领域', dataIndex: 'speciality', width: 140, ellipsis: true },
          { title: '职称', dataIndex: 'title', width: 100 },
          { title: '已分配', dataIndex: 'assigned', width: 80 },
          { title: '已提交', dataIndex: 'submitted', width: 80 },
          { title: '进度', width: 160, render: (_, j) => <Progress size="small" percent={j.assigned ? Math.round((j.submitted / j.assigned) * 100) : 0} /> },
          ...(editable
            ? [
                {
                  title: '操作',
                  width: 80,
                  fixed: 'right' as const,
                  render: (_: unknown, j: QuestionJudge) =>
                    j.assigned ? (
                      <Tooltip title="已有分配的作品，请先将作品转派给其他专家">
                        <span className="admin-hint">移除</span>
                      </Tooltip>
                    ) : (
                      <ActionLink onClick={() => remove(j)}>移除</ActionLink>
                    ),
                },
              ]
            : []),
        ]}
      />
      {adding && <AddJudgesModal questionId={questionId} onClose={() => setAdding(false)} />}
    </Card>
  );
}

/** Gives an assignment to another of the question's judges. */
function ReassignModal({ assignment, judges, onClose }: { assignment: Assignment; judges: QuestionJudge[]; onClose: () => void }) {
  const { message } = App.useApp();
  const reassigning = useListMutation(
    (judgeId: number) => reviewApi.reassign(assignment.id, judgeId),
    [reviewKeys.question(assignment.questionId)],
    () => void message.success('已转派'),
  );
  const save = ({ judgeId }: { judgeId: number }) => reassigning.mutateAsync(judgeId);
  const others = judges.filter((j) => j.userId !== assignment.judgeId);
  return (
    <FormModal<{ judgeId: number }> title={`转派作品 ${assignment.code}`} name="reassign" onSave={save} onClose={onClose}>
      <p>当前评审专家：{judgeOf(assignment)}</p>
      <Form.Item name="judgeId" label="转派给" rules={[{ required: true, message: '请选择评审专家' }]} extra="专家已保存的草稿评分不会带给新专家">
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={others.length ? '选择本题的其他评审专家' : '本题没有其他评审专家'}
          options={others.map((j) => ({ value: j.userId, label: `${personLabel(j)}（已分配 ${j.assigned}）` }))}
        />
      </Form.Item>
    </FormModal>
  );
}

/** Every work-to-judge assignment of the question: filter, export, reassign, reopen a submitted score. */
function AssignmentsCard({ questionId }: { questionId: number }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const editable = usePermissions().has(ACTION_CODES.assignEdit);
  const judges = useQuestionJudges(questionId);
  const list = usePagedList(useListState<AssignmentListParams>(), {
    queryKey: (q) => reviewKeys.assignments(questionId, q),
    queryFn: (q) => reviewApi.assignments(questionId, q),
    emptyText: '暂无评审分配',
    exportUrl: reviewUrls.assignments(questionId),
  });
  const [reassigning, setReassigning] = useState<Assignment | null>(null);
  const reopening = useListMutation(reviewApi.reopen, [reviewKeys.question(questionId)], () => void message.success('评分已重新打开'));

  const reopen = (a: Assignment) => confirm(`确定重新打开作品 ${a.code} 的评分吗？专家“${judgeOf(a)}”可修改后再次提交。`, () => reopening.mutateAsync(a.id));

  return (
    <Card
      title="评审分配"
      extra={
        <Space>
          <ExportButton {...list.exportAll} />
          <DownloadButton type="default" size="middle" url={reviewUrls.reviewExport(questionId)}>
            导出评审明细
          </DownloadButton>
        </Space>
      }
    >
      <FilterForm<Omit<AssignmentListParams, 'page' | 'limit'>> withCompetition={false} keywordPlaceholder="作品编号、队伍名称或编号" onSearch={list.search}>
        <Form.Item name="judgeId" label="评审专家">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 180 }}
            showSearch
            optionFilterProp="label"
            options={judges.data?.map((j) => ({ value: j.userId, label: personLabel(j) }))}
          />
        </Form.Item>
        <Form.Item name="status" label="状态">
          <Select allowClear placeholder="全部" style={{ width: 110 }} options={textOptions(ASSIGNMENT_STATUS_TEXT)} />
        </Form.Item>
      </FilterForm>
      <Table<Assignment>
        {...list.table}
        scroll={{ x: 1200 }}
        columns={[
          { title: '作品编号', dataIndex: 'code', width: 120 },
          { title: '队伍编号', dataIndex: 'teamNo', width: 120 },
          { title: '队伍名称', dataIndex: 'teamName', width: 160 },
          { title: '评审专家', width: 160, render: (_, a) => judgeOf(a) },
          {
            title: '状态',
            width: 130,
            render: (_, a) => (
              <>
                <Tag color={STATUS_COLORS[a.status]}>{ASSIGNMENT_STATUS_TEXT[a.status]}</Tag>
                {a.rereview && <Tag color="orange">复评</Tag>}
                {a.scoredVersion !== null && a.currentVersion !== null && a.scoredVersion !== a.currentVersion && (
                  <Tag color="red" title="队伍在评分后上传了新版本，评分已退回专家重新评审">
                    评的是第 {a.scoredVersion} 版，现为第 {a.currentVersion} 版
                  </Tag>
                )}
              </>
            ),
          },
          { title: '总分', width: 100, render: (_, a) => (a.total === null ? '—' : totalText(a.total, a.maxTotal)) },
          { title: '更新时间', width: 150, render: (_, a) => formatMinute(a.updatedAt) },
          { title: '提交时间', width: 150, render: (_, a) => (a.submittedAt ? formatMinute(a.submittedAt) : '—') },
          ...(editable
            ? [
                {
                  title: '操作',
                  width: 100,
                  fixed: 'right' as const,
                  render: (_: unknown, a: Assignment) =>
                    a.status === ASSIGNMENT_STATUS.submitted ? (
                      <ActionLink onClick={() => reopen(a)}>重新打开</ActionLink>
                    ) : (
                      <ActionLink onClick={() => setReassigning(a)}>转派</ActionLink>
                    ),
                },
              ]
            : []),
        ]}
      />
      {reassigning && <ReassignModal assignment={reassigning} judges={judges.data ?? []} onClose={() => setReassigning(null)} />}
    </Card>
  );
}

/** `/question/judge/:questionId`: who reviews the question, and which works each of them has. */
export default function JudgePage() {
  return (
    <QuestionScope>
      {(question) => (
        <Flex vertical gap={16}>
          <QuestionHeader question={question} current="judge" />
          <JudgesCard questionId={question.id} />
          <AssignmentsCard questionId={question.id} />
        </Flex>
      )}
    </QuestionScope>
  );
}
