import {
  ACTION_CODES,
  CERT_BUILTIN_NAMES,
  CERT_FIELD_NAMES,
  CERT_RUN_STATE,
  builtinLayoutOf,
  type Certificate,
  type CertificateRun,
  type CertificateTemplate,
  type ManagedQuestion,
  type PageQuery,
  type TaskInput,
} from '@contest/shared';
import { FileDoneOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Input, Progress, Space, Table, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { certificateApi, certificateKeys, certificateUrls } from '#src/api/certificates.ts';
import { usePermissions } from '#src/common/auth.ts';
import { DownloadButton } from '#src/common/DownloadButton.tsx';
import { formatMinute } from '#src/common/time.ts';
import { BulkDownloadButtons, loadAllPages } from '#src/downloads/BulkDownload.tsx';
import { dirOf } from '#src/downloads/queue.ts';
import { ExportButton } from '../../components/ExportButton.tsx';
import { QuestionHeader, QuestionScope } from '../../components/QuestionScope.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';
import { reviewApi, reviewKeys, reviewUrls, type ReviewListParams } from '#src/api/review.ts';
import { useEarlyWarning, withEarlyWarning } from '../../components/earlyWarning.tsx';
import { CertificateTemplateModal } from './parts/CertificateTemplateModal.tsx';
import { ActionLink } from '#src/common/ActionLink.tsx';

const HOLDER_KIND = { member: '队员', teacher: '指导老师' } as const;

/**
 * The question's certificate run: which template it uses and how far generation is. Polled every second while the
 * certificates are being made.
 */
function useCertificateRun(questionId: number) {
  return useQuery({
    queryKey: certificateKeys.run(questionId),
    queryFn: () => certificateApi.run(questionId),
    refetchInterval: (q) => (q.state.data?.state === CERT_RUN_STATE.running ? 1000 : false),
  });
}

type Editing = { id: number | null; readOnly: boolean } | null;

/** The competition's certificate templates: create, edit, delete, and choose the one this question uses. */
function TemplatesCard({ question, run }: { question: ManagedQuestion; run: CertificateRun | undefined }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const editable = usePermissions().has(ACTION_CODES.gradeEdit);
  const list = usePagedList(useListState<PageQuery>(), {
    queryKey: (q) => reviewKeys.templates(question.competitionId, q),
    queryFn: (q) => reviewApi.templates(question.competitionId, q),
    emptyText: '暂无证书模板',
  });
  const [editing, setEditing] = useState<Editing>(null);
  const choose = useListMutation(
    (t: CertificateTemplate) => reviewApi.useTemplate(question.id, t.id),
    [reviewKeys.certRun(question.id)],
    (_, t) => void message.success(`本赛题的证书将使用模板“${t.name}”`),
  );
  const removal = useListMutation(
    reviewApi.removeTemplate,
    [reviewKeys.templatesAll, reviewKeys.certRun(question.id)],
    () => void message.success('证书模板已删除'),
  );

  async function use(t: CertificateTemplate) {
    try {
      await choose.mutateAsync(t);
    } catch {
      // the http client has told the user why
    }
  }
  const remove = (t: CertificateTemplate) => confirm(`确定删除证书模板“${t.name}”吗？`, () => removal.mutateAsync(t.id), { danger: true });

  return (
    <Card
      title="证书模板"
      extra={
        editable && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null, readOnly: false })}>
            新建模板
          </Button>
        )
      }
    >
      <Table<CertificateTemplate>
        {...list.table}
        scroll={{ x: 1000 }}
        columns={[
          {
            title: '模板名称',
            width: 220,
            render: (_, t) => (
              <>
                {t.name} {run?.templateId === t.id && <Tag color="blue">本赛题使用</Tag>}
              </>
            ),
          },
          {
            title: '版式',
            width: 160,
            render: (_, t) => {
              const builtin = builtinLayoutOf(t.backgroundUri);
              return builtin ? CERT_BUILTIN_NAMES[builtin] : `背景图 ${t.width} × ${t.height}`;
            },
          },
          { title: '字段', width: 320, ellipsis: true, render: (_, t) => t.fields.map((f) => CERT_FIELD_NAMES[f.field]).join('、') || '—' },
          { title: '更新时间', width: 150, render: (_, t) => formatMinute(t.updatedAt) },
          {
            title: '操作',
            width: 200,
            fixed: 'right',
            render: (_, t) => (
              <Space>
                <ActionLink onClick={() => setEditing({ id: t.id, readOnly: !editable })}>{editable ? '编辑' : '查看'}</ActionLink>
                {editable && run?.templateId !== t.id && <ActionLink onClick={() => void use(t)}>用于本赛题</ActionLink>}
                {editable && <ActionLink onClick={() => remove(t)}>删除</ActionLink>}
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <CertificateTemplateModal
          competitionId={question.competitionId}
          question={question}
          templateId={editing.id}
          readOnly={editing.readOnly}
          onClose={() => setEditing(null)}
        />
      )}
    </Card>
  );
}

/** Generating the question's certificates with the chosen template, and the progress of the run. */
function GenerateCard({ questionId, run }: { questionId: number; run: CertificateRun | undefined }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const editable = usePermissions().has(ACTION_CODES.gradeEdit);
  const template = useQuery({
    queryKey: certificateKeys.template(run?.templateId ?? 0),
    enabled: Boolean(run?.templateId),
    queryFn: () => certificateApi.template(run!.templateId!),
  });
  const generating = useListMutation(
    () => certificateApi.generate(questionId),
    [certificateKeys.run(questionId)],
    () => void message.success('已开始生成证书'),
  );
  const running = run?.state === CERT_RUN_STATE.running;
  const early = useEarlyWarning(questionId);

  const generate = () =>
    confirm(
      withEarlyWarning(
        early('现在生成的证书可能不是最终结果'),
        `将按本赛题当前的获奖结果，使用模板“${template.data?.name ?? ''}”为获奖队伍的队员和指导老师生成证书。确定生成吗？`,
      ),
      () => generating.mutateAsync(),
    );

  const percent = run?.total ? Math.floor((run.done / run.total) * 100) : 0;
  const status = run?.state === CERT_RUN_STATE.failed ? 'exception' : run?.state === CERT_RUN_STATE.done ? 'success' : 'active';

  return (
    <Card
      title="生成证书"
      extra={
        editable && (
          <Button type="primary" icon={<FileDoneOutlined />} loading={running} disabled={!run?.templateId} onClick={generate}>
            {running ? '生成中' : '生成证书'}
          </Button>
        )
      }
    >
      <p>
        本赛题使用的模板：
        {run?.templateId ? <b>{template.data?.name ?? '…'}</b> : <span className="admin-hint">尚未选择，请在上方的模板列表中点击“用于本赛题”</span>}
      </p>
      {run && run.state !== CERT_RUN_STATE.idle && (
        <>
          <Progress percent={percent} status={status} format={() => `${run.done} / ${run.total}`} />
          {run.state === CERT_RUN_STATE.done && <Alert type="success" showIcon message={`证书已生成，共 ${run.total} 份`} />}
          {run.state === CERT_RUN_STATE.failed && <Alert type="error" showIcon message={`生成失败：${run.error ?? '未知错误'}`} />}
        </>
      )}
    </Card>
  );
}

const certificateUrl = certificateUrls.download;

/** A certificate as a download task: `<question title>/<team>/<holder>-<award>-证书<number>.pdf` (the server's name). */
const certificateTask = (c: Certificate): TaskInput => ({
  dir: dirOf(c.questionTitle, c.teamName),
  downloadPath: certificateUrl(c.id),
  fileName: `${c.holderName}-${c.awardName}-证书${c.certNo}.pdf`,
});

/** The question's certificates, searchable, with downloads and an export. */
function CertificatesCard({ questionId }: { questionId: number }) {
  const list = usePagedList(useListState<ReviewListParams>(), {
    queryKey: (q) => reviewKeys.certificates(questionId, q),
    queryFn: (q) => reviewApi.certificates(questionId, q),
    emptyText: '暂无证书',
    selectable: true,
    exportUrl: reviewUrls.certificates(questionId),
  });
  const selectedTasks = useMemo(() => list.selectedRows.map(certificateTask), [list.selectedRows]);
  const allTasks = async () => (await loadAllPages<Certificate>(reviewUrls.certificates(questionId))).map(certificateTask);
  return (
    <Card
      title="证书列表"
      extra={
        <Space>
          <BulkDownloadButtons all={allTasks} selected={selectedTasks} />
          <ExportButton {...list.exportAll} />
        </Space>
      }
    >
      <Input.Search
        allowClear
        placeholder="证书编号、姓名或队伍"
        style={{ width: 280, marginBottom: 16 }}
        onSearch={(v) => list.refine({ keyword: v.trim() || undefined })}
      />
      <Table<Certificate>
        {...list.table}
        scroll={{ x: 1100 }}
        columns={[
          { title: '证书编号', dataIndex: 'certNo', width: 150 },
          { title: '姓名', dataIndex: 'holderName', width: 100 },
          { title: '身份', width: 90, render: (_, c) => HOLDER_KIND[c.holderKind] },
          { title: '队伍', dataIndex: 'teamName', width: 160 },
          { title: '学校', dataIndex: 'school', width: 180, ellipsis: true },
          { title: '奖项', dataIndex: 'awardName', width: 100 },
          { title: '生成时间', width: 150, render: (_, c) => formatMinute(c.createdAt) },
          {
            title: '操作',
            width: 170,
            fixed: 'right',
            render: (_, c) => <DownloadButton url={certificateUrl(c.id)}>下载</DownloadButton>,
          },
        ]}
      />
    </Card>
  );
}

function Certificates({ question }: { question: ManagedQuestion }) {
  const client = useQueryClient();
  const run = useCertificateRun(question.id);
  const state = run.data?.state;
  // A run that ends changes the list of certificates.
  useEffect(() => {
    if (state === CERT_RUN_STATE.done || state === CERT_RUN_STATE.failed) void client.invalidateQueries({ queryKey: reviewKeys.certificatesAll(question.id) });
  }, [state, question.id, client]);
  return (
    <Flex vertical gap={16}>
      <QuestionHeader question={question} current="certificate" />
      <TemplatesCard question={question} run={run.data} />
      <GenerateCard questionId={question.id} run={run.data} />
      <CertificatesCard questionId={question.id} />
    </Flex>
  );
}

/** `/question/certificate/:questionId`: certificate templates, generating the question's certificates, the list. */
export default function CertificatePage() {
  return <QuestionScope>{(question) => <Certificates question={question} />}</QuestionScope>;
}
