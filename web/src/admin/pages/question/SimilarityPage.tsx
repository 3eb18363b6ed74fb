import {
  ACTION_CODES,
  CODE_LANGUAGE_TEXT,
  SIMILARITY_DECISION_TEXT,
  formatShare,
  judgedByExperts,
  type ManagedQuestion,
  type SimilarityDecision,
  type SimilarityOverview,
  type SimilarityWork,
} from '@contest/shared';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Form,
  Grid,
  Input,
  InputNumber,
  List,
  Popover,
  Progress,
  Radio,
  Segmented,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useMemo, useState } from 'react';
import { similarityApi, similarityKeys } from '#src/api/similarity.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';
import { usePermissions } from '#src/common/auth.ts';
import { DownloadButton } from '#src/common/DownloadButton.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { HttpError } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { QuestionHeader, QuestionScope } from '../../components/QuestionScope.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { PairModal } from './parts/SimilarityPair.tsx';

const RUN_STATUS: Record<string, { text: string; color: string }> = {
  queued: { text: '排队中', color: 'default' },
  running: { text: '查重中', color: 'processing' },
  done: { text: '已完成', color: 'success' },
  failed: { text: '失败', color: 'error' },
};
const LEVEL_COLOR = { hold: 'red', flag: 'orange', none: 'default' } as const;
type Filter = 'all' | 'pending' | 'marked' | 'unreadable';

/**
 * `/question/similarity/:questionId`: 查重 of a question's written works (issue 37). The run (started by itself after the
 * works deadline, or here), the thresholds and the organiser's exclusions, then every team's latest work ranked by its
 * share of text found in another work, with the names of the team found in it under blind review, its own report, and
 * the decision on a held work; a pair opens side by side with the shared passages highlighted.
 */
export default function SimilarityPage() {
  return <QuestionScope>{(q) => <Similarity question={q} />}</QuestionScope>;
}

function Similarity({ question }: { question: ManagedQuestion }) {
  const id = question.id;
  const data = useQuery({
    queryKey: similarityKeys.overview(id),
    queryFn: () => similarityApi.overview(id),
    enabled: judgedByExperts(question.judging),
    // While a run reads and compares, its progress is asked for every two seconds.
    refetchInterval: (q) => (q.state.data?.run && ['queued', 'running'].includes(q.state.data.run.status) ? 2000 : false),
  });
  const [pairId, setPairId] = useState<number | null>(null);

  if (!judgedByExperts(question.judging)) {
    return (
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <QuestionHeader question={question} current="similarity" />
        <Card>
          <Alert type="info" showIcon message="该赛题为自动评分，按私榜排名，没有需要查重的作品" />
        </Card>
      </Space>
    );
  }
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <QuestionHeader question={question} current="similarity" />
      {data.data ? (
        <>
          <RunCard questionId={id} overview={data.data} />
          <WorksCard questionId={id} overview={data.data} onPair={setPairId} />
        </>
      ) : (
        <Card loading />
      )}
      {pairId !== null && <PairModal pairId={pairId} onClose={() => setPairId(null)} />}
    </Space>
  );
}

/** Puts a reply of the 查重 routes in the cache: each of them answers with the whole overview. */
function useOverviewUpdate(questionId: number) {
  const client = useQueryClient();
  return (o: SimilarityOverview) => client.setQueryData(similarityKeys.overview(questionId), o);
}

function RunCard({ questionId, overview }: { questionId: number; overview: SimilarityOverview }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const editable = usePermissions().has(ACTION_CODES.assignEdit);
  const update = useOverviewUpdate(questionId);
  const run = overview.run;
  const busy = run?.status === 'queued' || run?.status === 'running';
  const start = useMutation({
    mutationFn: () => similarityApi.run(questionId),
    onSuccess: (o) => {
      update(o);
      void message.success('查重已开始，完成后结果显示在下方');
    },
  });
  const status = run ? RUN_STATUS[run.status]! : { text: '未查重', color: 'default' };
  const scope = `本题各队伍的最新作品${overview.earlierEditions.length ? `，以及往届：${overview.earlierEditions.join('、')}` : ''}`;

  return (
    <Card
      title="查重"
      extra={
        editable && (
          <Button
            type="primary"
            loading={start.isPending}
            disabled={busy}
            onClick={() =>
              run
                ? confirm('重新查重将读取各队伍的最新作品并更新结果；作品未更新的队伍，已做的处理保留。确定开始吗？', () => start.mutateAsync())
                : start.mutate()
            }
          >
            {busy ? '查重进行中' : run ? '重新查重' : '开始查重'}
          </Button>
        )
      }
    >
      <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }}>
        <Descriptions.Item label="状态">
          <Tag color={status.color}>{status.text}</Tag>
          {!run && <Typography.Text type="secondary">作品提交截止后将自动查重，也可以现在开始</Typography.Text>}
        </Descriptions.Item>
        {run && busy && (
          <Descriptions.Item label="进度">
            <Progress
              style={{ width: 220, margin: 0 }}
              percent={run.works ? Math.floor((run.done / run.works) * 100) : 0}
              format={() => `${run.done}/${run.works}`}
              status="active"
            />
          </Descriptions.Item>
        )}
        {run?.status === 'done' && (
          <>
            <Descriptions.Item label="作品">{run.works} 份</Descriptions.Item>
            <Descriptions.Item label="无法读取">
              {run.unreadable ? <Typography.Text type="danger">{run.unreadable} 份</Typography.Text> : '无'}
            </Descriptions.Item>
            <Descriptions.Item label="完成时间">{run.finishedAt ? formatMinute(run.finishedAt) : '—'}</Descriptions.Item>
          </>
        )}
        {run?.status === 'failed' && <Descriptions.Item label="原因">{run.error ?? '查重过程出错，请重新查重'}</Descriptions.Item>}
        <Descriptions.Item label="比对范围">{scope}</Descriptions.Item>
      </Descriptions>
      {run?.status === 'done' && run.error && <Alert type="warning" showIcon style={{ marginTop: 8 }} message={run.error} />}
      <Flex wrap gap={16} style={{ marginTop: 8 }}>
        <SettingsForm questionId={questionId} overview={overview} editable={editable} />
        <Exclusions questionId={questionId} overview={overview} editable={editable} />
      </Flex>
    </Card>
  );
}

function SettingsForm({ questionId, overview, editable }: { questionId: number; overview: SimilarityOverview; editable: boolean }) {
  const { message } = App.useApp();
  const update = useOverviewUpdate(questionId);
  const [form] = Form.useForm<{ flagPercent: number; holdPercent: number }>();
  const save = useMutation({
    mutationFn: (v: { flagPercent: number; holdPercent: number }) => similarityApi.settings(questionId, v),
    onSuccess: (o) => {
      update(o);
      void message.success('查重阈值已保存');
    },
    onError: (err) => {
      if (err instanceof HttpError && err.fields) form.setFields(Object.entries(err.fields).map(([name, e]) => ({ name: name as 'holdPercent', errors: [e] })));
    },
  });
  return (
    <div style={{ flex: '1 1 320px', minWidth: 0 }}>
      <Typography.Text strong>阈值</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        作品的文字（或代码）中与其他作品相同部分的占比达到“标记”阈值时标为疑似；达到“暂停评审”阈值时暂不分配给评审专家，需处理后才能评审。
        {overview.blind && '本题为盲审：作品中出现本队成员、队名、学校或指导教师姓名时，也会暂停分配。'}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="inline"
        disabled={!editable}
        initialValues={{ flagPercent: overview.flagPercent, holdPercent: overview.holdPercent }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item name="flagPercent" label="标记" rules={[{ required: true, message: '请填写标记阈值' }]}>
          <InputNumber min={1} max={100} precision={0} addonAfter="%" style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="holdPercent" label="暂停评审" rules={[{ required: true, message: '请填写暂停评审阈值' }]}>
          <InputNumber min={1} max={100} precision={0} addonAfter="%" style={{ width: 110 }} />
        </Form.Item>
        {editable && (
          <Form.Item>
            <Button htmlType="submit" loading={save.isPending}>
              保存
            </Button>
          </Form.Item>
        )}
      </Form>
    </div>
  );
}

function Exclusions({ questionId, overview, editable }: { questionId: number; overview: SimilarityOverview; editable: boolean }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const update = useOverviewUpdate(questionId);
  const [uploading, setUploading] = useState(false);
  async function upload(file: File) {
    setUploading(true);
    try {
      update(await similarityApi.addExclusion(questionId, file));
      void message.success('排除文件已上传，重新查重后生效');
    } catch (err) {
      void message.error(err instanceof Error ? err.message : '上传失败', 8);
    } finally {
      setUploading(false);
    }
  }
  return (
    <div style={{ flex: '1 1 320px', minWidth: 0 }}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text strong>排除文件</Typography.Text>
        {editable && (
          <Upload
            accept=".pdf,.docx,.zip,.py,.ipynb,.r,.java,.c,.h,.cpp,.cc,.hpp,.js"
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <Button size="small" icon={<UploadOutlined />} loading={uploading}>
              上传文件
            </Button>
          </Upload>
        )}
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: '4px 0 8px' }}>
        题目、论文模板（PDF、DOCX）和发给各队伍的基线代码（代码文件或zip），上传后不计入相似度；参考文献部分自动排除。
      </Typography.Paragraph>
      <List
        size="small"
        locale={{ emptyText: '尚未上传排除文件' }}
        dataSource={overview.exclusions}
        renderItem={(e) => (
          <List.Item
            actions={
              editable
                ? [
                    <Button
                      key="delete"
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`删除${e.fileName}`}
                      onClick={() =>
                        confirm(
                          `删除排除文件“${e.fileName}”？重新查重后，其中的文字将计入相似度。`,
                          async () => update(await similarityApi.removeExclusion(e.id)),
                          { danger: true },
                        )
                      }
                    />,
                  ]
                : []
            }
          >
            <Typography.Text ellipsis style={{ maxWidth: 260 }}>
              {e.fileName}
            </Typography.Text>
            <Typography.Text type="secondary">{e.chars.toLocaleString()} 字符</Typography.Text>
          </List.Item>
        )}
      />
    </div>
  );
}

/** Where a work stands: held and waiting, decided, replaced since the run, or nothing to do. */
function StateTag({ w }: { w: SimilarityWork }) {
  if (w.outdated && w.chars === 0 && !w.matches.length) return <Tag>未查重</Tag>;
  if (w.outdated) return <Tag color="blue">已更新，需重新查重</Tag>;
  if (w.decision) return <Tag color={w.decision === 'release' ? 'green' : 'volcano'}>{SIMILARITY_DECISION_TEXT[w.decision]}</Tag>;
  if (w.held) return <Tag color="red">待处理</Tag>;
  if (w.level === 'flag') return <Tag color="orange">疑似</Tag>;
  return <Typography.Text type="secondary">正常</Typography.Text>;
}

function WorksCard({ questionId, overview, onPair }: { questionId: number; overview: SimilarityOverview; onPair: (pairId: number) => void }) {
  const editable = usePermissions().has(ACTION_CODES.assignEdit);
  const phone = Grid.useBreakpoint().md === false;
  const [filter, setFilter] = useState<Filter>('all');
  const [keyword, setKeyword] = useState('');
  const [deciding, setDeciding] = useState<SimilarityWork | null>(null);
  const rows = useMemo(
    () =>
      overview.works.filter((w) => {
        if (keyword && !`${w.teamNo}${w.teamName}`.includes(keyword)) return false;
        if (filter === 'pending') return w.held && !w.decision;
        if (filter === 'marked') return w.level !== 'none' || w.identity.length > 0;
        if (filter === 'unreadable') return w.files.some((f) => f.reason) || (!w.outdated && w.chars === 0);
        return true;
      }),
    [overview.works, filter, keyword],
  );
  const pending = overview.works.filter((w) => w.held && !w.decision).length;

  return (
    <Card title="各队伍作品" extra={pending > 0 && <Tag color="red">{pending} 份待处理</Tag>}>
      <Flex wrap gap={8} justify="space-between" style={{ marginBottom: 12 }}>
        <div style={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Segmented<Filter>
            value={filter}
            onChange={setFilter}
            options={[
              { value: 'all', label: '全部' },
              { value: 'pending', label: '待处理' },
              { value: 'marked', label: '已标记' },
              { value: 'unreadable', label: '无法读取' },
            ]}
          />
        </div>
        <Input.Search allowClear placeholder="队伍名称或编号" style={{ width: 240, maxWidth: '100%' }} onSearch={(v) => setKeyword(v.trim())} />
      </Flex>
      <Table<SimilarityWork>
        rowKey="teamId"
        size="middle"
        dataSource={rows}
        scroll={{ x: 1100 }}
        pagination={{ pageSize: 20, showSizeChanger: false, showTotal: (n) => `共 ${n} 份` }}
        locale={{ emptyText: <Empty description={overview.run ? '没有符合条件的作品' : '尚未查重'} /> }}
        columns={[
          {
            title: '队伍',
            key: 'team',
            width: 180,
            fixed: phone ? undefined : 'left',
            render: (_, w) => (
              <Space direction="vertical" size={0}>
                <span>{w.teamName}</span>
                <Typography.Text type="secondary">
                  {w.teamNo} · 第{w.version}版
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: '相似度',
            key: 'share',
            width: 110,
            render: (_, w) => (
              <Space direction="vertical" size={2}>
                <Tag color={LEVEL_COLOR[w.level]}>{formatShare(w.topShare)}</Tag>
                {w.codeShare > 0 && <Tag color={LEVEL_COLOR[w.level]}>代码 {formatShare(w.codeShare)}</Tag>}
              </Space>
            ),
          },
          {
            title: '最相似的作品',
            key: 'matches',
            width: 300,
            render: (_, w) =>
              w.matches.length ? (
                <Space direction="vertical" size={2}>
                  {w.matches.slice(0, 3).map((m) => (
                    <span key={m.pairId}>
                      {m.earlier && <Tag>往届</Tag>}
                      {m.kind === 'code' && <Tag color="purple">代码·{CODE_LANGUAGE_TEXT[m.language ?? ''] ?? m.language}</Tag>}
                      {m.teamName}（{m.teamNo}）{formatShare(m.share)} <ActionLink onClick={() => onPair(m.pairId)}>对比</ActionLink>
                    </span>
                  ))}
                </Space>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
          {
            title: '队伍信息',
            key: 'identity',
            width: 110,
            render: (_, w) =>
              w.identity.length ? (
                <Popover
                  title="作品中出现的队伍信息"
                  content={
                    <List
                      size="small"
                      style={{ maxWidth: 360 }}
                      dataSource={w.identity}
                      renderItem={(h) => (
                        <List.Item>
                          <Space direction="vertical" size={0}>
                            <span>
                              {h.kind}“{h.value}”出现在{h.where}
                            </span>
                            <Typography.Text type="secondary">{h.excerpt}</Typography.Text>
                          </Space>
                        </List.Item>
                      )}
                    />
                  }
                >
                  <Tag color={overview.blind ? 'red' : 'orange'} style={{ cursor: 'pointer' }}>
                    {w.identity.length} 处
                  </Tag>
                </Popover>
              ) : (
                <Typography.Text type="secondary">无</Typography.Text>
              ),
          },
          {
            title: '自查报告',
            key: 'report',
            width: 130,
            render: (_, w) =>
              w.report ? (
                <Space direction="vertical" size={0}>
                  <span>自报 {formatShare(w.report.declaredRate)}</span>
                  <DownloadButton url={w.report.fileUri} width={120}>
                    查看报告
                  </DownloadButton>
                </Space>
              ) : (
                <Typography.Text type="secondary">未上传</Typography.Text>
              ),
          },
          {
            title: '文字',
            key: 'text',
            width: 160,
            render: (_, w) => (
              <Space direction="vertical" size={0}>
                <span>{w.chars ? `${w.chars.toLocaleString()} 字` : '—'}</span>
                {w.files
                  .filter((f) => f.reason)
                  .map((f) => (
                    <Typography.Text key={f.name} type="danger" style={{ fontSize: 12 }}>
                      {f.name}：{f.reason}
                    </Typography.Text>
                  ))}
              </Space>
            ),
          },
          { title: '状态', key: 'state', width: 140, render: (_, w) => <StateTag w={w} /> },
          {
            title: '操作',
            key: 'actions',
            width: 90,
            fixed: phone ? undefined : 'right',
            render: (_, w) =>
              editable && !w.outdated && (w.level !== 'none' || w.identity.length > 0) ? (
                <ActionLink onClick={() => setDeciding(w)}>{w.decision ? '改变处理' : '处理'}</ActionLink>
              ) : null,
          },
        ]}
      />
      {deciding && <DecisionModal questionId={questionId} work={deciding} onClose={() => setDeciding(null)} />}
    </Card>
  );
}

const DECISION_LABEL: Record<SimilarityDecision, string> = { release: '放行', exclude: '不予评审', resubmit: '要求重新提交' };
const DECISION_HELP: Record<SimilarityDecision, string> = {
  release: '作品将正常分配给评审专家',
  exclude: '作品不分配给评审专家，已分配的评审任务（含已给的分数）一并撤回，该队伍在本题没有评审成绩；将通知该队伍',
  resubmit: '通知该队伍修改后重新提交（需在提交截止前，或先延长截止时间）；新版本将在重新查重后处理',
};

function DecisionModal({ questionId, work, onClose }: { questionId: number; work: SimilarityWork; onClose: () => void }) {
  const { message } = App.useApp();
  const update = useOverviewUpdate(questionId);
  return (
    <FormModal<{ decision: SimilarityDecision; note?: string }>
      title={`处理：${work.teamName}（${work.teamNo}）`}
      name="similarityDecision"
      initialValues={{ decision: work.decision ?? 'release', note: work.decisionNote ?? '' }}
      onSave={async (v) => {
        update(await similarityApi.decide(questionId, { teamId: work.teamId, decision: v.decision, note: v.note?.trim() || undefined }));
        void message.success('处理结果已保存');
      }}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">
        相似度 {formatShare(work.topShare)}
        {work.codeShare ? `，代码相似度 ${formatShare(work.codeShare)}` : ''}
        {work.identity.length ? `，作品中出现队伍信息 ${work.identity.length} 处` : ''}
        {work.report ? `，队伍自报查重率 ${formatShare(work.report.declaredRate)}` : ''}。
      </Typography.Paragraph>
      <DecisionFields />
    </FormModal>
  );
}

function DecisionFields() {
  const decision = (Form.useWatch('decision', Form.useFormInstance()) as SimilarityDecision | undefined) ?? 'release';
  return (
    <>
      <Form.Item name="decision" label="处理结果" extra={DECISION_HELP[decision]}>
        <Radio.Group options={(['release', 'exclude', 'resubmit'] as const).map((d) => ({ value: d, label: DECISION_LABEL[d] }))} />
      </Form.Item>
      <Form.Item
        name="note"
        label="说明"
        rules={[
          { required: decision === 'resubmit', whitespace: true, message: '请说明需要队伍修改的内容' },
          { max: 500, message: '说明至多500字' },
        ]}
      >
        <Input.TextArea rows={3} showCount maxLength={500} placeholder={decision === 'release' ? '可选，记录放行的理由' : '将告知该队伍'} />
      </Form.Item>
    </>
  );
}
