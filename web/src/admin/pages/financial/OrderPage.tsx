import { ACTION_CODES, PAY_METHOD_TEXT, PAY_STATUS, PAY_STATUS_TEXT, batchResultText, fenToYuan, type BatchResult, type Order, type Page } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Segmented, Select, Space, Table, Tag, Tooltip, type UploadFile } from 'antd';
import { useState } from 'react';
import { usePermissions } from '../../../common/auth.ts';
import { DocumentUpload, uploadedUris } from '../../../common/DocumentUpload.tsx';
import { fileUrl } from '../../../common/files.ts';
import { http } from '../../../common/http.ts';
import { pager } from '../../../common/pager.ts';
import { formatMinute } from '../../../common/time.ts';
import { ExportButton } from '../../components/ExportButton.tsx';
import { FormModal } from '../../../common/FormModal.tsx';
import { textOptions } from '../../../common/forms.ts';
import { FilterForm } from '../../components/FilterForm.tsx';
import { SelectionBar } from '../../components/SelectionBar.tsx';
import { useConfirm } from '../../components/useConfirm.ts';
import { useUrlQuery } from '../../components/useUrlQuery.ts';

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

function BatchPaymentModal({ ids, onDone, onClose }: { ids: number[]; onDone: () => Promise<unknown>; onClose: () => void }) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  return (
    <FormModal<{ payerOrg: string }>
      title={`集体缴费：确认 ${ids.length} 个订单已缴费`}
      name="batch"
      onClose={onClose}
      onSave={async ({ payerOrg }) => {
        const r = await http.put<{ paid: number[]; skipped: number[] }>('/api/order/batch/payment', { ids, payerOrg, voucher: uploadedUris(files)[0] });
        void message.success(`已确认${r.paid.length}个订单缴费${r.skipped.length ? `，跳过${r.skipped.length}个非待支付订单` : ''}`);
        await onDone();
      }}
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

function RefundModal({ order, onDone, onClose }: { order: Order; onDone: () => Promise<unknown>; onClose: () => void }) {
  const { message } = App.useApp();
  return (
    <FormModal<{ reason: string }>
      title={`退款：${order.orderNo}`}
      name="refund"
      onClose={onClose}
      onSave={async ({ reason }) => {
        await http.put(`/api/order/refund/${order.id}`, { reason });
        void message.success('已退款');
        await onDone();
      }}
    >
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
  const client = useQueryClient();
  const canEdit = usePermissions().has(ACTION_CODES.orderEdit);
  // The filters live in the address: the home page's 待确认转账 opens `?waiting=1`.
  const { query: address, setQuery, filtersKey } = useUrlQuery<Filters>(FILTERS);
  const query = { ...address, waiting: address.waiting === '1' ? '1' : undefined };
  const [selected, setSelected] = useState<number[]>([]);
  const [batch, setBatch] = useState(false);
  const [refunding, setRefunding] = useState<Order | null>(null);
  const orders = useQuery({ queryKey: ['orders', query], queryFn: () => http.get<Page<Order>>('/api/order/list', { ...query }) });
  const reload = () => client.invalidateQueries({ queryKey: ['orders'] });

  const confirmSelected = async () => {
    const result = await http.put<BatchResult>('/api/order/confirm/batch', { ids: selected });
    const text = batchResultText('确认收款', result);
    void (result.decided || result.skipped || result.notFound ? message.warning(text) : message.success(text));
    setSelected([]);
    await reload();
  };

  return (
    <Card title="订单管理" extra={<ExportButton url="/api/order/list" query={{ ...query }} />}>
      <Segmented
        style={{ marginBottom: 16 }}
        value={query.waiting ? 'waiting' : 'all'}
        options={[
          { label: '全部', value: 'all' },
          { label: '待确认转账', value: 'waiting' },
        ]}
        onChange={(v) => setQuery({ ...query, page: 1, waiting: v === 'waiting' ? '1' : undefined })}
      />
      <FilterForm<Partial<Filters>>
        key={filtersKey}
        initialValues={{ competitionId: query.competitionId, payStatus: query.payStatus, payMethod: query.payMethod, keyword: query.keyword }}
        keywordPlaceholder="订单号、队伍或下单人"
        onSearch={(f) => setQuery({ page: 1, limit: query.limit, waiting: query.waiting, ...f })}
      >
        <Form.Item name="payStatus" label="状态">
          <Select allowClear placeholder="全部" style={{ width: 110 }} options={textOptions(PAY_STATUS_TEXT)} />
        </Form.Item>
        <Form.Item name="payMethod" label="支付方式">
          <Select allowClear placeholder="全部" style={{ width: 130 }} options={textOptions(PAY_METHOD_TEXT)} />
        </Form.Item>
      </FilterForm>
      <SelectionBar count={selected.length} onClear={() => setSelected([])}>
        {canEdit && (
          <>
            <Button size="small" type="primary" onClick={() => confirm(`确定已收到所选 ${selected.length} 个订单的转账吗？未上传凭证或已处理的订单将跳过。`, confirmSelected)}>
              批量确认收款
            </Button>
            <Button size="small" onClick={() => setBatch(true)}>
              集体缴费
            </Button>
          </>
        )}
        <ExportButton size="small" label="导出所选" url="/api/order/list" query={{ ids: selected.join(',') }} />
      </SelectionBar>
      <Table<Order>
        rowKey="id"
        rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys as number[]) }}
        loading={orders.isLoading}
        dataSource={orders.data?.list}
        scroll={{ x: 1500 }}
        locale={{ emptyText: '暂无订单' }}
        pagination={pager(orders.data, (page, limit) => setQuery({ ...query, page, limit }))}
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
          { title: '凭证', width: 70, render: (_, o) => o.voucher && <a href={fileUrl(o.voucher)} target="_blank" rel="noopener noreferrer">查看</a> },
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
                    <a
                      onClick={() =>
                        confirm(`确定已收到订单 ${o.orderNo} 的转账 ¥${fenToYuan(o.amount)} 吗？`, async () => {
                          await http.put(`/api/order/confirm/${o.id}`);
                          void message.success('已确认收款');
                          await reload();
                        })
                      }
                    >
                      确认收款
                    </a>
                  )}
                  {o.payStatus === PAY_STATUS.paid && <a onClick={() => setRefunding(o)}>退款</a>}
                </Space>
              ),
          },
        ]}
      />
      {batch && <BatchPaymentModal ids={selected} onClose={() => setBatch(false)} onDone={async () => { setSelected([]); await reload(); }} />}
      {refunding && <RefundModal order={refunding} onClose={() => setRefunding(null)} onDone={reload} />}
    </Card>
  );
}
