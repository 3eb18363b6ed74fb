import { ACTION_CODES, ORG_KINDS, PARTNER_STATUS, type PartnerApplication } from '@contest/shared';
import { App, Button, Card, Form, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { partnerApi, partnerKeys, type PartnerListParams } from '#src/api/orgs.ts';
import { formatMinute } from '#src/common/time.ts';
import { ORG_OPTIONS_KEY } from '../../components/options.ts';
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, useListState, usePagedList } from '#src/common/usePagedList.ts';

const STATUS: Record<number, { text: string; color: string }> = {
  [PARTNER_STATUS.pending]: { text: '待审核', color: 'processing' },
  [PARTNER_STATUS.approved]: { text: '已通过', color: 'success' },
  [PARTNER_STATUS.rejected]: { text: '已驳回', color: 'error' },
};

/** Partner applications: who wants to run competitions on the platform, and the platform's answer. */
export default function ApplyPage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canAudit = usePermissions().has(ACTION_CODES.partnerAudit);
  const list = usePagedList(useListState<PartnerListParams>({ status: PARTNER_STATUS.pending }), {
    queryKey: partnerKeys.list,
    queryFn: partnerApi.list,
    emptyText: '暂无申请',
  });
  const { query } = list;
  const [rejecting, setRejecting] = useState<PartnerApplication | null>(null);

  const audit = useListMutation(
    ({ a, approve, reason }: { a: PartnerApplication; approve: boolean; reason?: string }) => partnerApi.audit(a.id, approve, reason),
    [partnerKeys.all, ORG_OPTIONS_KEY],
    (_, { approve }) => void message.success(approve ? '已通过申请' : '已驳回申请'),
  );
  const decide = (a: PartnerApplication, approve: boolean, reason?: string) => audit.mutateAsync({ a, approve, reason });

  const approve = (a: PartnerApplication) =>
    confirm(`确定通过“${a.orgName}”的申请吗？通过后申请人${a.applicantName}将成为该机构的组织方，可以创建竞赛。`, () => decide(a, true));

  return (
    <Card title="申请管理">
      <Form layout="inline" style={{ marginBottom: 16 }} initialValues={{ status: query.status }} onValuesChange={(_, v) => list.refine({ status: v.status })}>
        <Form.Item name="status" label="审核状态">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 140 }}
            options={Object.entries(STATUS).map(([value, s]) => ({ value: Number(value), label: s.text }))}
          />
        </Form.Item>
      </Form>
      <Table<PartnerApplication>
        {...list.table}
        scroll={{ x: 1600 }}
        columns={[
          { title: '机构名称', dataIndex: 'orgName', width: 200 },
          { title: '机构类型', width: 90, render: (_, a) => ORG_KINDS[a.kind] },
          { title: '状态', width: 90, render: (_, a) => <Tag color={STATUS[a.status]?.color}>{STATUS[a.status]?.text}</Tag> },
          { title: '申请人', dataIndex: 'applicantName', width: 110 },
          { title: '联系人', dataIndex: 'contactName', width: 100 },
          { title: '联系电话', dataIndex: 'contactPhone', width: 130 },
          { title: '联系邮箱', dataIndex: 'contactEmail', width: 180 },
          { title: '申请时间', width: 150, render: (_, a) => formatMinute(a.createdAt) },
          {
            title: '申请说明',
            dataIndex: 'description',
            width: 240,
            render: (text: string | null) => (
              <Typography.Paragraph ellipsis={{ rows: 2, tooltip: text }} style={{ margin: 0 }}>
                {text}
              </Typography.Paragraph>
            ),
          },
          { title: '驳回原因', dataIndex: 'reason', width: 180 },
          ...(canAudit
            ? [
                {
                  title: '操作',
                  key: 'actions',
                  fixed: 'right' as const,
                  width: 130,
                  render: (_: unknown, a: PartnerApplication) =>
                    a.status === PARTNER_STATUS.pending && (
                      <Space size={0}>
                        <Button type="link" size="small" onClick={() => approve(a)}>
                          通过
                        </Button>
                        <Button type="link" size="small" danger onClick={() => setRejecting(a)}>
                          驳回
                        </Button>
                      </Space>
                    ),
                },
              ]
            : []),
        ]}
      />
      {rejecting && (
        <ReasonModal title={`驳回申请：${rejecting.orgName}`} onSubmit={(reason) => decide(rejecting, false, reason)} onClose={() => setRejecting(null)} />
      )}
    </Card>
  );
}
