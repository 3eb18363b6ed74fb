import { ACTION_CODES, REAL_NAME_DOC_TYPES, type RealNameDetail, type RealNameListQuery, type RealNameRow } from '@contest/shared';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Image, Input, Modal, Segmented, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { fileUrls } from '#src/api/files.ts';
import { realNameApi, realNameKeys } from '#src/api/real-names.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';
import { usePermissions } from '#src/common/auth.ts';
import { showFieldErrors } from '#src/common/forms.ts';
import { formatMinute } from '#src/common/time.ts';
import { useListState, usePagedList } from '#src/common/usePagedList.ts';

type State = RealNameListQuery['state'];
const TABS: { value: State; label: string }[] = [
  { value: 'pending', label: '待审核' },
  { value: 'verified', label: '已通过' },
  { value: 'rejected', label: '未通过' },
  { value: 'all', label: '全部' },
];
const STATE_TAGS: Record<string, [string, string]> = {
  pending: ['processing', '待审核'],
  checking: ['processing', '核验中'],
  verified: ['success', '已通过'],
  rejected: ['error', '已驳回'],
  mismatch: ['error', '姓名与号码不一致'],
  no_record: ['error', '查无此人'],
  failed: ['default', '核验失败'],
};

/** One attempt for the reviewer: the whole number, the photo, and 通过 / 驳回 with the reason the person is shown. */
function Review({ id, onClose, canAudit }: { id: number; onClose: () => void; canAudit: boolean }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ reason: string }>();
  const [rejecting, setRejecting] = useState(false);
  const [saving, setSaving] = useState(false);
  const { data, isLoading } = useQuery({ queryKey: realNameKeys.detail(id), queryFn: () => realNameApi.detail(id) });

  async function decide(pass: boolean, reason?: string) {
    setSaving(true);
    try {
      await realNameApi.audit(id, { pass, ...(reason && { reason }) });
      void message.success(pass ? '已通过，该账号完成实名认证' : '已驳回，申请人将收到原因');
      await client.invalidateQueries({ queryKey: ['realNameList'] });
      onClose();
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }

  const pending = data?.state === 'pending';
  const isPdf = (d: RealNameDetail) => d.fileMime === 'application/pdf';
  return (
    <Modal
      title="实名认证审核"
      open
      width={720}
      onCancel={onClose}
      destroyOnHidden
      footer={
        canAudit && pending
          ? rejecting
            ? [
                <Button key="back" onClick={() => setRejecting(false)}>
                  返回
                </Button>,
                <Button key="reject" danger type="primary" loading={saving} onClick={() => form.submit()}>
                  确认驳回
                </Button>,
              ]
            : [
                <Button key="reject" danger onClick={() => setRejecting(true)}>
                  驳回
                </Button>,
                <Button key="pass" type="primary" loading={saving} onClick={() => void decide(true)}>
                  通过
                </Button>,
              ]
          : [
              <Button key="close" onClick={onClose}>
                关闭
              </Button>,
            ]
      }
    >
      {isLoading || !data ? (
        <Spin />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
            <Descriptions.Item label="账号">{data.username}</Descriptions.Item>
            <Descriptions.Item label="提交时间">{formatMinute(data.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="姓名">{data.name}</Descriptions.Item>
            <Descriptions.Item label="证件类型">{REAL_NAME_DOC_TYPES[data.docType]}</Descriptions.Item>
            <Descriptions.Item label="证件号码" span={2}>
              <Typography.Text copyable>{data.number}</Typography.Text>
            </Descriptions.Item>
            {data.reason && (
              <Descriptions.Item label="原因" span={2}>
                {data.reason}
              </Descriptions.Item>
            )}
          </Descriptions>
          {data.fileUri ? (
            isPdf(data) ? (
              <a href={fileUrls.download(data.fileUri)} target="_blank" rel="noopener noreferrer">
                查看证件扫描件（PDF）
              </a>
            ) : (
              <Image src={fileUrls.download(data.fileUri)} alt="证件照片" style={{ maxHeight: 360, objectFit: 'contain' }} />
            )
          ) : (
            <Typography.Text type="secondary">居民身份证即时核验，无证件照片</Typography.Text>
          )}
          <Alert type="info" showIcon message="请核对照片上的姓名、证件号码与填写的一致，且证件在有效期内。查看记录会写入操作日志。" />
          {rejecting && (
            <Form form={form} layout="vertical" onFinish={({ reason }) => void decide(false, reason.trim())}>
              <Form.Item name="reason" label="驳回原因（申请人可见）" rules={[{ required: true, whitespace: true, message: '请填写不通过的原因' }]}>
                <Input.TextArea rows={3} maxLength={200} showCount placeholder="如：照片模糊，请重新拍摄人像信息页" />
              </Form.Item>
            </Form>
          )}
        </Space>
      )}
    </Modal>
  );
}

/**
 * 实名审核 (issue 35): passports and 港澳台 documents wait here for the platform's review (居民身份证 are checked at once
 * by the provider, and are listed as history). Oldest first, so that nobody waits longer than the others.
 */
export default function RealNameReviewPage() {
  const canAudit = usePermissions().has(ACTION_CODES.realNameAudit);
  const source = useListState<RealNameListQuery>({ state: 'pending' });
  const { query } = source;
  const list = usePagedList(source, {
    queryKey: realNameKeys.list,
    queryFn: realNameApi.list,
    emptyText: query.state === 'pending' ? '没有待审核的实名认证' : '暂无记录',
  });
  const [open, setOpen] = useState<number | null>(null);

  return (
    <Card title="实名审核">
      <Space wrap style={{ marginBottom: 16 }}>
        <Segmented<State> options={TABS} value={query.state} onChange={(state) => list.refine({ state })} />
        <Input.Search
          allowClear
          placeholder="用户名或姓名"
          style={{ width: 240 }}
          onSearch={(keyword) => {
            // Searching again for the same words looks again: new documents may have come in meanwhile.
            if ((keyword.trim() || undefined) === query.keyword) void list.result.refetch();
            else list.refine({ keyword: keyword.trim() || undefined });
          }}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void list.result.refetch()} loading={list.result.isFetching}>
          刷新
        </Button>
      </Space>
      <Table<RealNameRow>
        {...list.table}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: '提交时间', width: 150, render: (_, r) => formatMinute(r.createdAt) },
          { title: '账号', dataIndex: 'username' },
          { title: '姓名', dataIndex: 'name' },
          { title: '证件类型', render: (_, r) => REAL_NAME_DOC_TYPES[r.docType] },
          { title: '证件号码', dataIndex: 'numberMask' },
          { title: '方式', render: (_, r) => (r.method === 'auto' ? '即时核验' : '人工审核') },
          {
            title: '状态',
            render: (_, r) => {
              const [color, text] = STATE_TAGS[r.state] ?? ['default', r.state];
              return <Tag color={color}>{text}</Tag>;
            },
          },
          { title: '审核', render: (_, r) => (r.decidedAt ? `${r.decidedBy ?? '系统'} · ${formatMinute(r.decidedAt)}` : '') },
          {
            title: '操作',
            fixed: 'right',
            width: 90,
            render: (_, r) => canAudit && <ActionLink onClick={() => setOpen(r.id)}>{r.state === 'pending' ? '审核' : '查看'}</ActionLink>,
          },
        ]}
      />
      {open !== null && <Review id={open} canAudit={canAudit} onClose={() => setOpen(null)} />}
    </Card>
  );
}
