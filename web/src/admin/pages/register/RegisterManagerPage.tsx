import {
  ACTION_CODES,
  PAY_STATUS_TEXT,
  REGISTER_STATUS,
  REGISTER_STATUS_TEXT,
  SCHOOL_STATUS,
  SCHOOL_STATUS_TEXT,
  batchResultText,
  formatSize,
  paidOrFree,
  type Register,
  type RegisterFlow,
  type TeamMember,
} from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Drawer, Form, List, Segmented, Select, Space, Spin, Table, Tag, Timeline } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { fileUrl } from '#src/common/files.ts';
import { DEFAULT_SHOWN_FIELDS, formValue } from '#src/common/RegInfo.tsx';
import { competitionDetailKeys, presetApi } from '#src/api/competitions.ts';
import { registerApi, registerKeys, registerUrls, type RegisterDecision } from '#src/api/registrations.ts';
import { formatMinute } from '#src/common/time.ts';
import { ExportButton } from '../../components/ExportButton.tsx';
import { textOptions } from '#src/common/forms.ts';
import { FilterForm } from '../../components/FilterForm.tsx';
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { SelectionBar } from '../../components/SelectionBar.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, usePagedList } from '#src/common/usePagedList.ts';
import { useUrlQuery } from '#src/common/useUrlQuery.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

const COLORS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };
const ACTIONS: Record<RegisterFlow['action'], string> = {
  submit: '提交报名',
  resubmit: '修改后重新提交',
  approve: '审核通过',
  reject: '审核驳回',
  schoolApprove: '学校审核通过',
  schoolReject: '学校审核驳回',
};

type Filters = { status: number; competitionId: number; keyword: string };
const FILTERS = { status: 'number', competitionId: 'number', keyword: 'text' } as const;

function RegisterDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const { data } = useQuery({ queryKey: registerKeys.detail(id), queryFn: () => registerApi.detail(id) });
  // The competition's form: every field it asks for is a column, the organiser's own fields too.
  const presets = useQuery({
    queryKey: competitionDetailKeys.part(data?.competitionId ?? 0, 'presets'),
    enabled: Boolean(data),
    queryFn: () => presetApi.list(data!.competitionId),
  });
  const formFields = presets.data?.find((p) => p.menuCode === 'REG_SET')?.fieldList.filter((f) => f.name !== 'userName');
  const shown = formFields?.length ? formFields : DEFAULT_SHOWN_FIELDS;
  return (
    // On a phone the drawer takes the screen, not 760 px of it.
    <Drawer title="报名详情" open width="min(760px, 100vw)" onClose={onClose} destroyOnHidden>
      {!data ? (
        <Spin />
      ) : (
        <>
          <Descriptions column={2} bordered size="small">
            <Descriptions.Item label="竞赛" span={2}>
              {data.competitionName}
            </Descriptions.Item>
            <Descriptions.Item label="队伍">{data.teamName}</Descriptions.Item>
            <Descriptions.Item label="队伍编号">{data.teamNo}</Descriptions.Item>
            <Descriptions.Item label="审核状态">
              <Tag color={COLORS[data.status]}>{REGISTER_STATUS_TEXT[data.status]}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="缴费">{data.payStatus === null ? '免费' : PAY_STATUS_TEXT[data.payStatus]}</Descriptions.Item>
            {data.reason && (
              <Descriptions.Item label="驳回原因" span={2}>
                {data.reason}
              </Descriptions.Item>
            )}
          </Descriptions>
          <h4 style={{ marginTop: 24 }}>队员</h4>
          <Table
            rowKey="userId"
            size="small"
            pagination={false}
            dataSource={data.team.memberList}
            scroll={{ x: 'max-content' }}
            columns={[
              {
                title: '姓名',
                render: (_, m) => (
                  <>
                    {m.name} {m.leader && <Tag color="blue">队长</Tag>}
                  </>
                ),
              },
              { title: '用户名', dataIndex: 'username' },
              ...shown.map((f) => ({ key: f.name, title: f.label, render: (_: unknown, m: TeamMember) => formValue(f, m.info) })),
            ]}
          />
          <h4 style={{ marginTop: 24 }}>指导老师</h4>
          <List
            size="small"
            dataSource={data.team.teacherList}
            locale={{ emptyText: '无' }}
            renderItem={(t) => <List.Item>{[t.name, t.phone, t.organization, t.title].filter(Boolean).join('，')}</List.Item>}
          />
          <h4 style={{ marginTop: 24 }}>附件</h4>
          <List
            size="small"
            dataSource={data.attachments}
            locale={{ emptyText: '无附件' }}
            renderItem={(a) => (
              <List.Item
                actions={[
                  <a key="d" href={fileUrl(a.fileUri)} target="_blank" rel="noopener noreferrer">
                    下载
                  </a>,
                ]}
              >
                {a.name}（{formatSize(a.size)}）
              </List.Item>
            )}
          />
          <h4 style={{ marginTop: 24 }}>审核记录</h4>
          <Timeline
            items={data.flows.map((f) => ({
              color: f.action === 'reject' ? 'red' : f.action === 'approve' ? 'green' : 'blue',
              children: `${formatMinute(f.createdAt)} ${f.actorName} ${ACTIONS[f.action]}${f.reason ? `：${f.reason}` : ''}`,
            }))}
          />
        </>
      )}
    </Drawer>
  );
}

/** Registrations of the organisation's competitions: filter, export, review one by one or the selected ones at once. */
export default function RegisterManagerPage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canAudit = usePermissions().has(ACTION_CODES.registerAudit);
  // The filters live in the address: the home page's 待审核报名 opens `?status=0`.
  const list = usePagedList(useUrlQuery<Filters>(FILTERS), {
    queryKey: registerKeys.list,
    queryFn: registerApi.list,
    emptyText: '暂无报名',
    selectable: true,
    exportUrl: registerUrls.list,
  });
  const { query, setQuery } = list;
  const selected = list.selectedIds;
  const [viewing, setViewing] = useState<number | null>(null);
  const [rejecting, setRejecting] = useState<Register | null>(null);
  const [batchRejecting, setBatchRejecting] = useState(false);
  const waiting = query.status === REGISTER_STATUS.pending;

  type Decision = { action: RegisterDecision; reason?: string };
  const decideOne = useListMutation(
    ({ r, action, reason }: Decision & { r: Register }) => registerApi.decide(r.id, action, reason),
    [registerKeys.all, registerKeys.details],
    (_, { action }) => void message.success(action === 'approve' ? '已审核通过' : '已驳回'),
  );
  const decide = (r: Register, action: RegisterDecision, reason?: string) => decideOne.mutateAsync({ r, action, reason });
  const decideBatch = useListMutation(
    ({ action, reason }: Decision) => registerApi.decideBatch(selected, action, reason),
    [registerKeys.all],
    (result, { action }) => {
      const text = batchResultText(action === 'approve' ? '通过' : '驳回', result);
      void (result.decided || result.skipped || result.notFound ? message.warning(text, result.skipped ? 8 : undefined) : message.success(text));
      list.clearSelection();
    },
  );
  const decideSelected = (action: RegisterDecision, reason?: string) => decideBatch.mutateAsync({ action, reason });

  return (
    <Card title="报名管理" extra={<ExportButton {...list.exportAll} />}>
      <Segmented
        style={{ marginBottom: 16 }}
        value={waiting ? 'waiting' : query.status === undefined ? 'all' : undefined}
        options={[
          { label: '全部', value: 'all' },
          { label: '待审核', value: 'waiting' },
        ]}
        onChange={(v) => setQuery({ ...query, page: 1, status: v === 'waiting' ? REGISTER_STATUS.pending : undefined })}
      />
      <FilterForm<Partial<Filters>>
        key={list.filtersKey}
        initialValues={{ status: query.status, competitionId: query.competitionId, keyword: query.keyword }}
        keywordPlaceholder="队伍名称、编号或报名人"
        onSearch={list.search}
      >
        <Form.Item name="status" label="审核状态">
          <Select allowClear placeholder="全部" style={{ width: 120 }} options={textOptions(REGISTER_STATUS_TEXT)} />
        </Form.Item>
      </FilterForm>
      <SelectionBar count={selected.length} onClear={list.clearSelection}>
        {canAudit && (
          <>
            <Button
              size="small"
              type="primary"
              onClick={() =>
                confirm(`确定通过所选的 ${selected.length} 条报名吗？已审核的和尚未缴费的将跳过，跳过的队伍会列出。`, () => decideSelected('approve'))
              }
            >
              批量通过
            </Button>
            <Button size="small" danger onClick={() => setBatchRejecting(true)}>
              批量驳回
            </Button>
          </>
        )}
        <ExportButton {...list.exportSelected} />
      </SelectionBar>
      <Table<Register>
        {...list.table}
        scroll={{ x: 1300 }}
        columns={[
          { title: '队伍名称', dataIndex: 'teamName', width: 160 },
          { title: '队伍编号', dataIndex: 'teamNo', width: 120 },
          { title: '竞赛', dataIndex: 'competitionName', width: 200 },
          { title: '方式', width: 70, render: (_, r) => (r.individual ? '个人' : '团队') },
          { title: '人数', dataIndex: 'memberNum', width: 60 },
          { title: '报名人', dataIndex: 'username', width: 110 },
          {
            title: '审核状态',
            width: 120,
            render: (_, r) => (
              <Space direction="vertical" size={2}>
                <Tag color={COLORS[r.status]}>{REGISTER_STATUS_TEXT[r.status]}</Tag>
                {/* 两级审核: the school's level, while the organiser's decision waits for it. */}
                {r.status === REGISTER_STATUS.pending && r.schoolStatus != null && (
                  <Tag color={r.schoolStatus === SCHOOL_STATUS.approved ? 'success' : 'warning'}>{SCHOOL_STATUS_TEXT[r.schoolStatus]}</Tag>
                )}
              </Space>
            ),
          },
          { title: '缴费', width: 80, render: (_, r) => (r.payStatus === null ? '免费' : PAY_STATUS_TEXT[r.payStatus]) },
          { title: '驳回原因', dataIndex: 'reason', width: 160, ellipsis: true },
          { title: '报名时间', width: 150, render: (_, r) => formatMinute(r.createdAt) },
          {
            title: '操作',
            width: 160,
            fixed: 'right',
            render: (_, r) => (
              <Space>
                <ActionLink onClick={() => setViewing(r.id)}>查看</ActionLink>
                {canAudit && r.status === REGISTER_STATUS.pending && (
                  <>
                    <ActionLink
                      // 两级审核: the school reviews first; the organiser's 通过 waits for it (驳回 does not).
                      disabled={r.schoolStatus === SCHOOL_STATUS.pending}
                      title={r.schoolStatus === SCHOOL_STATUS.pending ? '须先经学校（院校负责人）审核通过' : undefined}
                      onClick={() =>
                        confirm(
                          paidOrFree(r)
                            ? `确定通过队伍“${r.teamName}”的报名吗？`
                            : `队伍“${r.teamName}”尚未缴费（${PAY_STATUS_TEXT[r.payStatus ?? 0]}），确定不等缴费就通过它的报名吗？`,
                          () => decide(r, 'approve'),
                        )
                      }
                    >
                      通过
                    </ActionLink>
                    <ActionLink onClick={() => setRejecting(r)}>驳回</ActionLink>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      {viewing && <RegisterDrawer id={viewing} onClose={() => setViewing(null)} />}
      {batchRejecting && (
        <ReasonModal
          title={`驳回所选的 ${selected.length} 条报名`}
          onSubmit={(reason) => decideSelected('reject', reason)}
          onClose={() => setBatchRejecting(false)}
        />
      )}
      {rejecting && (
        <ReasonModal
          title={`驳回“${rejecting.teamName}”的报名`}
          onSubmit={(reason) => decide(rejecting, 'reject', reason)}
          onClose={() => setRejecting(null)}
        />
      )}
    </Card>
  );
}
