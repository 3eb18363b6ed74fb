import {
  ACTION_CODES,
  CUSTOM_METRIC,
  CUSTOM_METRIC_NAME,
  METRIC_NAME_MAX,
  evaluationName,
  DEFAULT_K,
  DEFAULT_POSITIVE_LABEL,
  DEFAULT_TIME_LIMIT_SEC,
  JUDGING,
  JUDGING_HINTS,
  JUDGING_NAMES,
  MAX_TIME_LIMIT_SEC,
  METRICS,
  METRIC_INFO,
  METRIC_NAMES,
  SCORING_FILE_ACCEPT,
  formatSize,
  judgedByExperts,
  scoredAutomatically,
  type EvaluationBody,
  type EvaluationMetric,
  type Judging,
  type ManagedQuestion,
  type Metric,
  type QuestionBody,
} from '@contest/shared';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Col, Form, Grid, Input, InputNumber, Modal, Progress, Radio, Row, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { usePermissions } from '#src/common/auth.ts';
import { fileUrl } from '#src/common/files.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { resumableUpload } from '#src/common/tusUpload.ts';
import { uploadError, uploadHeaders } from '#src/common/upload.ts';
import { RichTextField, richTextOrNull } from '#src/admin/components/RichTextField.tsx';
import { useConfirm } from '#src/admin/components/useConfirm.ts';
import { useListMutation } from '#src/common/usePagedList.ts';
import { questionApi, questionKeys, questionUrls } from '#src/api/questions.ts';
import { testSubmissionApi, testSubmissionKeys } from '#src/api/test-submissions.ts';
import { ScorerContract, ScorerPanel } from './ScorerPanel.tsx';
import { ScoringFailuresModal } from './ScoringFailures.tsx';
import { ActionLink } from '#src/common/ActionLink.tsx';

type Values = Omit<QuestionBody, 'evaluation' | 'judging'> & { judging: Judging; evaluation?: QuestionBody['evaluation'] };

/** What the chosen judging asks of teams and how they are ranked, under the choice. */
function JudgingHint() {
  const judging = Form.useWatch('judging', Form.useFormInstance()) as Judging | undefined;
  return judging ? <span data-testid="judging-hint">{JUDGING_HINTS[judging]}</span> : null;
}

const direction = (higherIsBetter: boolean) => (higherIsBetter ? '越高越好' : '越低越好');

/**
 * An own program's setting: its direction and time limit, and the program itself (its upload and try) once the
 * question is saved with it; before that, its contract and example.
 */
function CustomHelp({ question: opened }: { question: ManagedQuestion | null }) {
  // Read from the list, so that an upload shows its new program at once.
  const { data } = useQuery({
    queryKey: questionKeys.list(opened?.competitionId ?? 0),
    queryFn: () => questionApi.list(opened!.competitionId),
    enabled: Boolean(opened),
  });
  const question = data?.find((q) => q.id === opened?.id) ?? opened;
  const saved = question?.evaluation?.metric === CUSTOM_METRIC;
  return (
    <>
      <Col xs={24} md={12}>
        <Form.Item name={['evaluation', 'higherIsBetter']} label="得分方向" rules={[{ required: true, message: '请选择得分方向' }]}>
          {/* No default: a program's score may be an error (lower is better, as the example's) or an accuracy; a board
              ranked the wrong way round is worse than a question that asks. */}
          <Select
            placeholder="请选择：程序算出的得分越高越好，还是越低越好"
            options={[
              { value: true, label: '越高越好' },
              { value: false, label: '越低越好' },
            ]}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name={['evaluation', 'timeLimitSec']} label="每次运行时间限制（秒）" extra={`1-${MAX_TIME_LIMIT_SEC}秒，不填为${DEFAULT_TIME_LIMIT_SEC}秒`}>
          <InputNumber min={1} max={MAX_TIME_LIMIT_SEC} placeholder={String(DEFAULT_TIME_LIMIT_SEC)} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item
          name={['evaluation', 'metricName']}
          label="指标名称"
          extra={`排行榜和参赛者的提交页以此称呼程序算出的得分，如“加权F1”“路径总成本”；不填为“${CUSTOM_METRIC_NAME}”`}
          rules={[{ max: METRIC_NAME_MAX, message: `指标名称至多${METRIC_NAME_MAX}个字` }]}
        >
          <Input maxLength={METRIC_NAME_MAX} showCount placeholder={CUSTOM_METRIC_NAME} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          评分程序
        </Typography.Title>
        {saved && question ? (
          <ScorerPanel question={question} />
        ) : (
          <>
            <Typography.Paragraph type="warning" data-testid="scorer-after-save">
              保存赛题后会打开“评分程序”窗口，在其中上传评分程序并用预测文件试运行（之后也可在赛题列表中点“评分程序”）。
            </Typography.Paragraph>
            <ScorerContract />
          </>
        )}
      </Col>
    </>
  );
}

/** The chosen metric's definition and direction under its select, and the setting it reads (a positive label or K). */
function MetricHelp({ question }: { question: ManagedQuestion | null }) {
  const metric = Form.useWatch(['evaluation', 'metric'], Form.useFormInstance()) as EvaluationMetric | undefined;
  if (metric === CUSTOM_METRIC) return <CustomHelp question={question} />;
  const info = metric ? METRIC_INFO[metric] : undefined;
  if (!info) return null;
  return (
    <>
      <Col span={24}>
        <Typography.Paragraph type="secondary" data-testid="metric-definition" style={{ marginTop: -16 }}>
          {info.name}：{info.definition}（{direction(info.higherIsBetter)}）
        </Typography.Paragraph>
      </Col>
      {info.option === 'positiveLabel' && (
        <Col span={12}>
          <Form.Item name={['evaluation', 'positiveLabel']} label="正类标签" extra={`与答案文件中的标签按文本比较，不填为“${DEFAULT_POSITIVE_LABEL}”`}>
            <Input maxLength={64} placeholder={DEFAULT_POSITIVE_LABEL} />
          </Form.Item>
        </Col>
      )}
      {info.option === 'k' && (
        <Col span={12}>
          <Form.Item name={['evaluation', 'k']} label="K（每行计前K个）" extra={`不填为${DEFAULT_K}`}>
            <InputNumber min={1} max={1000} placeholder={String(DEFAULT_K)} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      )}
    </>
  );
}

/**
 * Keeps the positive label or K only for the metric that reads it, a direction and time limit only for an own program
 * (which has no target column), and leaves an empty one to its default.
 */
function evaluationToSave(e: EvaluationBody | null | undefined): EvaluationBody | null | undefined {
  if (!e) return e;
  const { positiveLabel, k, higherIsBetter, timeLimitSec, targetColumn, metricName: name, ...rest } = e;
  const custom = e.metric === CUSTOM_METRIC;
  const option = custom ? undefined : METRIC_INFO[e.metric as Metric]?.option;
  return {
    ...rest,
    ...(!custom && { targetColumn }),
    ...(option === 'positiveLabel' && positiveLabel?.trim() && { positiveLabel: positiveLabel.trim() }),
    ...(option === 'k' && typeof k === 'number' && { k }),
    ...(custom && { higherIsBetter: higherIsBetter !== false }),
    ...(custom && typeof timeLimitSec === 'number' && { timeLimitSec }),
    ...(custom && name?.trim() && { metricName: name.trim() }),
  };
}

function QuestionModal({
  competitionId,
  question,
  onClose,
  onScorer,
}: {
  competitionId: number;
  question: ManagedQuestion | null;
  onClose: () => void;
  /** A question just set to be scored by an own program: its program is what the organiser does next. */
  onScorer: (id: number) => void;
}) {
  const { message, modal } = App.useApp();
  /** Saves the question and answers its id (a new one's from the server). */
  const write = async (body: QuestionBody): Promise<{ id: number }> => {
    if (!question) return questionApi.create(competitionId, body);
    await questionApi.update(question.id, body);
    return { id: question.id };
  };
  const saving = useListMutation(write, [questionKeys.list(competitionId)], () => void message.success('赛题已保存'));
  const save = async (v: Values) => {
    const scored = scoredAutomatically(v.judging);
    // Participants already see an approved question and may have chosen it for its test: turning its scoring off takes
    // the upload and both boards away from them, so the organiser confirms that consequence first.
    if (question?.reviewed && question.evaluation && !scored) {
      const confirmed = await new Promise<boolean>((resolve) =>
        modal.confirm({
          title: '关闭自动评分？',
          content: `“${question.title}”已审核通过，参赛者可以看到并选择它。关闭自动评分后，参赛者将不能再在“提交测试”页上传预测文件，公榜与私榜也不再显示。确定关闭吗？`,
          okText: '确定关闭',
          cancelText: '取消',
          okButtonProps: { danger: true },
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        }),
      );
      // A rejection keeps the edit dialog open with what was typed (FormModal shows field errors of HTTP errors only).
      if (!confirmed) throw new Error('cancelled');
    }
    const evaluation = scored ? evaluationToSave(v.evaluation) : null;
    const saved = await saving.mutateAsync({ title: v.title, content: richTextOrNull(v.content), sort: v.sort ?? 0, judging: v.judging, evaluation });
    if (evaluation?.metric === CUSTOM_METRIC && question?.evaluation?.metric !== CUSTOM_METRIC) onScorer(saved.id);
  };
  const initial: Partial<Values> = question
    ? { title: question.title, content: question.content, sort: question.sort, judging: question.judging, evaluation: question.evaluation ?? undefined }
    : { sort: 0, evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 30, dailyLimit: 5 } };
  return (
    <FormModal<Values> title={question ? '编辑赛题' : '新建赛题'} name="question" width={880} initialValues={initial} onSave={save} onClose={onClose}>
      <Form.Item name="title" label="赛题名称" rules={[{ required: true, whitespace: true, message: '请输入赛题名称' }]}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="content" label="赛题描述">
        <RichTextField placeholder="背景、任务、数据说明、评分方式" />
      </Form.Item>
      <Form.Item name="sort" label="排序">
        <InputNumber min={0} max={9999} />
      </Form.Item>
      {/* No default: whether experts judge works, files are scored, or both, is the contest's shape (issue 33). */}
      <Form.Item name="judging" label="评判方式" rules={[{ required: true, message: '请选择评判方式' }]} extra={<JudgingHint />}>
        <Radio.Group options={JUDGING.map((j) => ({ value: j, label: JUDGING_NAMES[j] }))} />
      </Form.Item>
      <Form.Item noStyle shouldUpdate={(a, b) => a.judging !== b.judging}>
        {({ getFieldValue }) =>
          scoredAutomatically(getFieldValue('judging') ?? 'review') && (
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name={['evaluation', 'metric']} label="评分指标" rules={[{ required: true, message: '请选择评分指标' }]}>
                  <Select
                    showSearch
                    optionFilterProp="label"
                    options={[
                      ...METRICS.map((m) => ({ value: m, label: `${METRIC_NAMES[m]}（${direction(METRIC_INFO[m].higherIsBetter)}）` })),
                      { value: CUSTOM_METRIC, label: `${CUSTOM_METRIC_NAME}（上传Python程序）` },
                    ]}
                  />
                </Form.Item>
              </Col>
              <Form.Item noStyle shouldUpdate={(a, b) => a.evaluation?.metric !== b.evaluation?.metric}>
                {/* An own program reads whichever columns it wants: the statement names them, not a setting. */}
                {() => {
                  const custom = getFieldValue(['evaluation', 'metric']) === CUSTOM_METRIC;
                  return (
                    <>
                      <Col span={custom ? 12 : 6}>
                        <Form.Item name={['evaluation', 'idColumn']} label="编号列名" rules={[{ required: true, whitespace: true, message: '请输入编号列名' }]}>
                          <Input maxLength={64} />
                        </Form.Item>
                      </Col>
                      {!custom && (
                        <Col span={6}>
                          <Form.Item
                            name={['evaluation', 'targetColumn']}
                            label="目标列名"
                            rules={[{ required: true, whitespace: true, message: '请输入目标列名' }]}
                          >
                            <Input maxLength={64} />
                          </Form.Item>
                        </Col>
                      )}
                    </>
                  );
                }}
              </Form.Item>
              <Col span={12}>
                <Form.Item name={['evaluation', 'publicPercent']} label="公榜比例（%）" rules={[{ required: true, message: '请输入公榜比例' }]}>
                  <InputNumber min={1} max={99} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name={['evaluation', 'dailyLimit']} label="每队每天提交次数" rules={[{ required: true, message: '请输入每日提交次数' }]}>
                  <InputNumber min={1} max={100} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <MetricHelp question={question} />
            </Row>
          )
        }
      </Form.Item>
    </FormModal>
  );
}

/** A question's public data files: resumable uploads of any size, with progress, and deletion. */
function DataFilesModal({ question, onClose }: { question: ManagedQuestion; onClose: () => void }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const key = questionKeys.list(question.competitionId);
  const { data } = useQuery({ queryKey: key, queryFn: () => questionApi.list(question.competitionId) });
  const files = data?.find((q) => q.id === question.id)?.files ?? question.files;
  const reload = () => client.invalidateQueries({ queryKey: key });
  const removal = useListMutation(
    (fileUri: string) => questionApi.removeFile(question.id, fileUri),
    [key],
    () => void message.success('数据文件已删除'),
  );
  return (
    <Modal title={`数据文件：${question.title}`} open onCancel={onClose} footer={<Button onClick={onClose}>关闭</Button>} width={720}>
      <input
        ref={input}
        type="file"
        hidden
        data-testid="data-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          setProgress(0);
          void resumableUpload(
            file,
            { kind: 'data', questionId: String(question.id) },
            {
              progress: setProgress,
              error: (text) => {
                void message.error(text, 8);
                setProgress(null);
              },
              success: () => {
                void message.success('数据文件已上传');
                setProgress(null);
                void reload();
              },
            },
          );
        }}
      />
      <Button icon={<UploadOutlined />} disabled={progress !== null} onClick={() => input.current?.click()}>
        上传数据文件（可断点续传）
      </Button>
      {progress !== null && <Progress percent={progress} status="active" />}
      <Table
        rowKey="fileUri"
        size="small"
        style={{ marginTop: 16 }}
        dataSource={files}
        pagination={false}
        locale={{ emptyText: '暂无数据文件' }}
        columns={[
          {
            title: '文件',
            render: (_, f) => (
              <a href={fileUrl(f.fileUri)} target="_blank" rel="noopener noreferrer">
                {f.name}
              </a>
            ),
          },
          { title: '大小', width: 120, render: (_, f) => formatSize(f.size) },
          {
            title: '操作',
            width: 80,
            render: (_, f) => (
              <ActionLink onClick={() => confirm(`确定删除数据文件“${f.name}”吗？`, () => removal.mutateAsync(f.fileUri), { danger: true })}>删除</ActionLink>
            ),
          },
        ]}
      />
    </Modal>
  );
}

/**
 * After a change of metric, public share or answer file, the question's submissions are scored again in the background
 * and the boards show only those already done: the organiser sees how far it has gone, refreshed until it is over.
 */
function RescoreStatus({ questionId }: { questionId: number }) {
  const { data } = useQuery({
    queryKey: testSubmissionKeys.rescoring(questionId),
    queryFn: () => testSubmissionApi.rescoring(questionId),
    refetchInterval: (query) => (query.state.data?.running ? 3000 : false),
  });
  if (!data?.running) return null;
  return (
    <div data-testid="rescoring">
      <Tag color="processing">
        重新评分中 {data.done}/{data.total}
      </Tag>
      <Progress size="small" percent={Math.floor((data.done / data.total) * 100)} showInfo={false} />
    </div>
  );
}

/**
 * The competition's scoring queue, as the organisers watch it near a deadline: files waiting, being scored, and failed
 * in the last hour; refreshed every few seconds while anything waits, every half minute otherwise.
 */
function ScoringQueueLine({ competitionId }: { competitionId: number }) {
  const [failures, setFailures] = useState(false);
  const { data } = useQuery({
    queryKey: testSubmissionKeys.queue(competitionId),
    queryFn: () => testSubmissionApi.queue(competitionId),
    refetchInterval: (query) => (query.state.data && query.state.data.waiting + query.state.data.running > 0 ? 3000 : 30_000),
  });
  if (!data) return null;
  return (
    <Space wrap size={4} data-testid="scoring-queue" style={{ marginBottom: 16, marginLeft: 16 }}>
      <span style={{ color: 'rgba(0,0,0,0.55)' }}>评分队列：</span>
      <Tag>等待 {data.waiting}</Tag>
      <Tag color={data.running ? 'processing' : 'default'}>评分中 {data.running}</Tag>
      <Tag color={data.failedLastHour ? 'error' : 'default'}>近一小时失败 {data.failedLastHour}</Tag>
      <ActionLink onClick={() => setFailures(true)}>失败记录</ActionLink>
      {failures && <ScoringFailuresModal competitionId={competitionId} onClose={() => setFailures(false)} />}
    </Space>
  );
}

/** A competition's questions: statement, evaluation setting, hidden answer file, review and the private board. */
export function QuestionsPanel({ competitionId }: { competitionId: number }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const client = useQueryClient();
  const perms = usePermissions();
  const editable = perms.has(ACTION_CODES.competitionEdit);
  const phone = Grid.useBreakpoint().md === false;
  const reviewer = perms.has(ACTION_CODES.questionReview);
  const [editing, setEditing] = useState<ManagedQuestion | null | undefined>(undefined);
  const [dataOf, setDataOf] = useState<ManagedQuestion | null>(null);
  const [scorerOf, setScorerOf] = useState<number | null>(null);
  const key = questionKeys.list(competitionId);
  const questions = useQuery({ queryKey: key, queryFn: () => questionApi.list(competitionId) });
  const reload = () => client.invalidateQueries({ queryKey: key });
  const reviewing = useListMutation(
    (q: ManagedQuestion) => questionApi.review(q.id, !q.reviewed),
    [key],
    (_, q) => void message.success(q.reviewed ? '已撤回审核' : '赛题已审核，参赛者可见'),
  );
  // The progress shows under the answer file's row count (RescoreStatus) until every submission is scored again.
  const rescoring = useListMutation(
    (q: ManagedQuestion) => testSubmissionApi.rescore(q.id),
    [],
    (progress, q) => {
      void message.success(progress.total ? `已开始重新评分（共${progress.total}个提交）` : '该赛题还没有需要评分的测试提交');
      void client.invalidateQueries({ queryKey: testSubmissionKeys.rescoring(q.id) });
    },
  );
  const removal = useListMutation(questionApi.remove, [key], () => void message.success('赛题已删除'));
  // Read from the list, so that an upload shows its new program at once.
  const scorerQuestion = scorerOf === null ? undefined : questions.data?.find((q) => q.id === scorerOf);

  return (
    <>
      {editable && (
        <Button type="primary" icon={<PlusOutlined />} style={{ marginBottom: 16 }} onClick={() => setEditing(null)}>
          新建赛题
        </Button>
      )}
      {editable && questions.data?.some((q) => q.evaluation) && <ScoringQueueLine competitionId={competitionId} />}
      <Table<ManagedQuestion>
        rowKey="id"
        loading={questions.isLoading}
        dataSource={questions.data}
        pagination={false}
        scroll={{ x: 1230 }}
        locale={{ emptyText: '暂无赛题' }}
        columns={[
          { title: '赛题', dataIndex: 'title', width: 200 },
          { title: '状态', width: 90, render: (_, q) => (q.reviewed ? <Tag color="success">已审核</Tag> : <Tag>待审核</Tag>) },
          { title: '评判方式', width: 130, render: (_, q) => <span data-testid="question-judging">{JUDGING_NAMES[q.judging]}</span> },
          {
            title: '评分指标',
            width: 170,
            render: (_, q) =>
              !q.evaluation ? (
                '不自动评分'
              ) : q.evaluation.metric === CUSTOM_METRIC ? (
                <>
                  {evaluationName(q.evaluation)}
                  {!q.scorer && (
                    <div>
                      <Tag color="warning">未上传程序</Tag>
                    </div>
                  )}
                </>
              ) : (
                evaluationName(q.evaluation)
              ),
          },
          {
            title: '答案文件',
            width: 130,
            render: (_, q) =>
              !q.evaluation ? (
                '—'
              ) : q.answerRows === null ? (
                <Tag color="warning">未上传</Tag>
              ) : (
                <>
                  {q.answerRows} 行{editable && q.evaluation && <RescoreStatus questionId={q.id} />}
                </>
              ),
          },
          { title: '出题人', dataIndex: 'creatorName', width: 110 },
          {
            title: '操作',
            // On a phone the fixed column would cover the whole width: narrower, its links wrap under each other.
            width: phone ? 130 : 360,
            fixed: 'right',
            render: (_, q) => (
              <Space wrap size={phone ? [8, 4] : undefined}>
                {editable && <ActionLink onClick={() => setEditing(q)}>编辑</ActionLink>}
                {editable && <ActionLink onClick={() => setDataOf(q)}>数据文件{q.files.length ? `（${q.files.length}）` : ''}</ActionLink>}
                {editable && q.evaluation?.metric === CUSTOM_METRIC && <ActionLink onClick={() => setScorerOf(q.id)}>评分程序</ActionLink>}
                {judgedByExperts(q.judging) && <Link to={`/question/questionWorks?questionId=${q.id}`}>作品</Link>}
                {judgedByExperts(q.judging) && <Link to={`/question/similarity/${q.id}`}>查重</Link>}
                {editable && q.evaluation && (
                  <Upload
                    name="file"
                    accept={SCORING_FILE_ACCEPT}
                    action={questionUrls.answer(q.id)}
                    headers={uploadHeaders()}
                    showUploadList={false}
                    onChange={({ file }) => {
                      if (file.status === 'done') {
                        void message.success(`答案文件已上传（${file.response.data.rows} 行）`);
                        void reload();
                        void client.invalidateQueries({ queryKey: testSubmissionKeys.rescoring(q.id) });
                      }
                      if (file.status === 'error') void message.error(uploadError(file.response), 8);
                    }}
                  >
                    <ActionLink>
                      <UploadOutlined /> 上传答案
                    </ActionLink>
                  </Upload>
                )}
                {reviewer && (
                  <ActionLink
                    onClick={() =>
                      confirm(q.reviewed ? `撤回“${q.title}”的审核？参赛者将看不到它。` : `审核通过“${q.title}”？通过后参赛者可以看到并选择它。`, () =>
                        reviewing.mutateAsync(q),
                      )
                    }
                  >
                    {q.reviewed ? '撤回审核' : '审核通过'}
                  </ActionLink>
                )}
                {/* Its boards and every team's submissions; the private board goes out with the grades. */}
                {q.evaluation && <Link to={`/question/test/${q.id}`}>测试提交</Link>}
                {editable && q.evaluation && q.answerRows !== null && (
                  <ActionLink
                    onClick={() =>
                      confirm(`确定重新评分“${q.title}”的全部测试提交吗？评分在后台进行，完成前排行榜只显示已重新评分的提交。`, () => rescoring.mutateAsync(q))
                    }
                  >
                    重新评分
                  </ActionLink>
                )}
                {editable && (
                  <ActionLink onClick={() => confirm(`确定删除赛题“${q.title}”吗？`, () => removal.mutateAsync(q.id), { danger: true })}>删除</ActionLink>
                )}
              </Space>
            ),
          },
        ]}
      />
      {dataOf && <DataFilesModal question={dataOf} onClose={() => setDataOf(null)} />}
      {scorerQuestion && (
        <Modal
          title={`评分程序：${scorerQuestion.title}`}
          open
          onCancel={() => setScorerOf(null)}
          footer={<Button onClick={() => setScorerOf(null)}>关闭</Button>}
          width={760}
        >
          <ScorerPanel question={scorerQuestion} />
        </Modal>
      )}
      {editing !== undefined && (
        <QuestionModal
          competitionId={competitionId}
          question={editing}
          onScorer={setScorerOf}
          onClose={() => {
            setEditing(undefined);
            // A new metric or public share starts the scoring again of the question's submissions.
            if (editing) void client.invalidateQueries({ queryKey: testSubmissionKeys.rescoring(editing.id) });
          }}
        />
      )}
    </>
  );
}
