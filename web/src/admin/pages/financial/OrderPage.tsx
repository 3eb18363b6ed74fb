import { ACTION_CODES, PAY_METHOD_TEXT, PAY_STATUS, PAY_STATUS_TEXT, batchResultText, fenToYuan, type Order } from '@contest/shared';
import { App, Button, Card, Form, Input, Segmented, Select, Space, Table, Tag, Tooltip, type UploadFile } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { DocumentUpload, uploadedUris } from '#src/common/DocumentUpload.tsx';
import { fileUrl } from '#src/common/files.ts';
import { orderApi, orderKeys, orderUrls } from '#src/api/orders.ts';
import { formatMinute } from '#src/common/time.ts';
import { ExportButton } from '../../components/ExportButton.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { textOptions } from '#src/common/forms.ts';
import { FilterForm } from '../../components/FilterForm.tsx';
import { SelectionBar } from '../../components/SelectionBar.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation, usePagedList } from '#src/common/usePagedList.ts';
import { useUrlQuery } from '#src/common/useUrlQuery.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';
import { SchoolOrderList } from './SchoolOrderList.tsx';

const COLORS: Record<number, string> = { 0: 'warning', 1: 'success', 2: 'default', 3: 'default' };

type Filters = {
  /** '1': transfers waiting for confirmation (unpaid with a voucher). */
  waiting: string;
  competitionId: number;
  payStatus: number;
  payMethod: number;
  keyword: string;
};
const FILTERS = { waiting: 'text', competitionId: 'number', payStatus: 'number', payMethod: 'number', keyword: 'text' } as const;

function BatchPaymentModal({ ids, onDone, onClose }: { ids: number[]; onDone: () => void; onClose: () => void }) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const pay = useListMutation(
    (payerOrg: string) => orderApi.batchPayment({ ids, payerOrg, voucher: uploadedUris(files)[0] }),
    [orderKeys.all],
    (r) => {
      void message.success(`已确认${r.paid.length}个订单缴费${r.skipped.length ? `，跳过${r.skipped.length}个非待支付订单` : ''}`);
      onDone();
    },
  );
  return (
    <FormModal<{ payerOrg: string }>
      title={`集体缴费：确认 ${ids.length} 个订单已缴费`}
      name="batch"
      onClose={onClose}
      onSave={({ payerOrg }) => pay.mutateAsync(payerOrg)}
    >
      <Form.Item name="payerOrg" label="缴费单位" rules={[{ required: true, whitespace: true, message: '请输入缴费单位' }]}>
        <Input maxLength={200} placeholder="如：某某大学计算机学院" />
      </Form.Item>
      <Form.Item label="缴费凭证" required>
        <DocumentUpload purpose="voucher" files={files} onChange={setFiles} max={1} />
      </Form.Item>
    </FormModal>
  );
}

function RefundModal({ order, onClose }: { order: Order; onClose: () => void }) {
  const { message } = App.useApp();
  const refund = useListMutation(
    (reason: string) => orderApi.refund(order.id, reason),
    [orderKeys.all],
    () => void message.success('已退款'),
  );
  return (
    <FormModal<{ reason: string }> title={`退款：${order.orderNo}`} name="refund" onClose={onClose} onSave={({ reason }) => refund.mutateAsync(reason)}>
      <Form.Item name="reason" label="退款原因" rules={[{ required: true, whitespace: true, message: '请输入退款原因' }]}>
        <Input.TextArea rows={3} maxLength={500} showCount />
      </Form.Item>
    </FormModal>
  );
}

/** Orders of the organisation's competitions: filter, export, confirm transfers, collective payment, refunds. */
export default function OrderPage() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canEdit = usePermissions().has(ACTION_CODES.orderEdit);
  // The filters live in the address: the home page's 待确认转账 opens `?waiting=1`.
  const address = useUrlQuery<Filters>(FILTERS);
  // Only `waiting=1` means anything; another value is as if absent.
  const source = { ...address, query: { ...address.query, waiting: address.query.waiting === '1' ? ('1' as const) : undefined } };
  const list = usePagedList(source, { queryKey: orderKeys.list, queryFn: orderApi.list, emptyText: '暂无订单', selectable: true, exportUrl: orderUrls.list });
  const { query, setQuery } = list;
  const selected = list.selectedIds;
  const [batch, setBatch] = useState(false);
  const [refunding, setRefunding] = useState<Order | null>(null);
  // 学校统一缴费: the schools' orders, each for many teams (a view of its own, not a filter of the teams' orders).
  const [schools, setSchools] = useState(false);

  const confirmBatch = useListMutation(orderApi.confirmBatch, [orderKeys.all], (result) => {
    const text = batchResultText('确认收款', result);
    void (result.decided || result.skipped || result.notFound ? message.warning(text) : message.success(text));
    list.clearSelection();
  });
  const confirmOne = useListMutation(orderApi.confirm, [orderKeys.all], () => void message.success('已确认收款'));
  const confirmSelected = () => confirmBatch.mutateAsync(selected);

  return (
    <Card title="订单管理" extra={schools ? null : <ExportButton {...list.exportAll} />}>
      <Segmented
        style={{ marginBottom: 16 }}
        value={schools ? 'schools' : query.waiting ? 'waiting' : 'all'}
        options={[
          { label: '全部', value: 'all' },
          { label: '待确认转账', value: 'waiting' },
          { label: '学校统一缴费', value: 'schools' },
        ]}
        onChange={(v) => {
          setSchools(v === 'schools');
          if (v !== 'schools') setQuery({ ...query, page: 1, waiting: v === 'waiting' ? '1' : undefined });
        }}
      />
      {schools ? (
        <SchoolOrderList />
      ) : (
        <>
          <FilterForm<Partial<Filters>>
            key={list.filtersKey}
            initialValues={{ competitionId: query.competitionId, payStatus: query.payStatus, payMethod: query.payMethod, keyword: query.keyword }}
            keywordPlaceholder="订单号、队伍或下单人"
            onSearch={(f) => list.search({ ...f, waiting: query.waiting })}
          >
            <Form.Item name="payStatus" label="状态">
              <Select allowClear placeholder="全部" style={{ width: 110 }} options={textOptions(PAY_STATUS_TEXT)} />
            </Form.Item>
            <Form.Item name="payMethod" label="支付方式">
              <Select allowClear placeholder="全部" style={{ width: 130 }} options={textOptions(PAY_METHOD_TEXT)} />
            </Form.Item>
          </FilterForm>
          <SelectionBar count={selected.length} onClear={list.clearSelection}>
            {canEdit && (
              <>
                <Button
                  size="small"
                  type="primary"
                  onClick={() => confirm(`确定已收到所选 ${selected.length} 个订单的转账吗？未上传凭证或已处理的订单将跳过。`, confirmSelected)}
                >
                  批量确认收款
                </Button>
                <Button size="small" onClick={() => setBatch(true)}>
                  集体缴费
                </Button>
              </>
            )}
            <ExportButton {...list.exportSelected} />
          </SelectionBar>
          <Table<Order>
            {...list.table}
            scroll={{ x: 1500 }}
            columns={[
              { title: '订单号', dataIndex: 'orderNo', width: 190 },
              { title: '竞赛', dataIndex: 'competitionName', width: 200 },
              { title: '队伍', width: 180, render: (_, o) => `${o.teamName}（${o.teamNo}）` },
              { title: '金额', width: 100, render: (_, o) => `¥${fenToYuan(o.amount)}` },
              {
                title: '状态',
                width: 130,
                render: (_, o) => (
                  <Space size={4}>
                    <Tag color={COLORS[o.payStatus]}>{PAY_STATUS_TEXT[o.payStatus]}</Tag>
                    {o.schoolOrderNo && (
                      <Tooltip title={`学校统一缴费订单 ${o.schoolOrderNo}`}>
                        <Tag color="blue">学校统一缴费</Tag>
                      </Tooltip>
                    )}
                    {o.refundFlag && (
                      <Tooltip title="订单关闭后仍收到了支付通知，请核对并退款">
                        <Tag color="red">待退款</Tag>
                      </Tooltip>
                    )}
                  </Space>
                ),
              },
              { title: '支付方式', width: 110, render: (_, o) => (o.payMethod ? PAY_METHOD_TEXT[o.payMethod] : '') },
              { title: '缴费单位', dataIndex: 'payerOrg', width: 150 },
              {
                title: '凭证',
                width: 70,
                render: (_, o) =>
                  o.voucher && (
                    <a href={fileUrl(o.voucher)} target="_blank" rel="noopener noreferrer">
                      查看
                    </a>
                  ),
              },
              { title: '下单时间', width: 150, render: (_, o) => formatMinute(o.createdAt) },
              { title: '支付时间', width: 150, render: (_, o) => (o.paidAt ? formatMinute(o.paidAt) : '') },
              {
                title: '操作',
                width: 120,
                fixed: 'right',
                render: (_, o) =>
                  canEdit && (
                    <Space>
                      {o.payStatus === PAY_STATUS.unpaid && o.voucher && (
                        <ActionLink
                          onClick={() => confirm(`确定已收到订单 ${o.orderNo} 的转账 ¥${fenToYuan(o.amount)} 吗？`, () => confirmOne.mutateAsync(o.id))}
                        >
                          确认收款
                        </ActionLink>
                      )}
                      {o.payStatus === PAY_STATUS.paid && <ActionLink onClick={() => setRefunding(o)}>退款</ActionLink>}
                    </Space>
                  ),
              },
            ]}
          />
        </>
      )}
      {batch && <BatchPaymentModal ids={selected} onClose={() => setBatch(false)} onDone={list.clearSelection} />}
      {refunding && <RefundModal order={refunding} onClose={() => setRefunding(null)} />}
    </Card>
  );
}
