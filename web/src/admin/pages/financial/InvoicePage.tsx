import { ACTION_CODES, INVOICE_STATUS, INVOICE_STATUS_TEXT, INVOICE_TYPES, TITLE_KINDS, batchResultText, fenToYuan, type BatchResult, type Invoice, type Page } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Form, Input, Popover, Segmented, Select, Space, Table, Tag, type UploadFile } from 'antd';
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
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { SelectionBar } from '../../components/SelectionBar.tsx';
import { useUrlQuery } from '../../components/useUrlQuery.ts';

const COLORS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

type Filters = { status: number; competitionId: number; keyword: string };
const FILTERS = { status: 'number', competitionId: 'number', keyword: 'text' } as const;

function TitleDetail({ invoice }: { invoice: Invoice }) {
  const t = invoice.title;
  return (
    <Descriptions column={1} size="small" bordered style={{ width: 420 }}>
      <Descriptions.Item label="类型">{TITLE_KINDS[t.kind]}</Descriptions.Item>
      <Descriptions.Item label="抬头">{t.name}</Descriptions.Item>
      {t.taxNo && <Descriptions.Item label="纳税人识别号">{t.taxNo}</Descriptions.Item>}
      {t.bank && <Descriptions.Item label="开户银行">{t.bank} {t.bankAccount}</Descriptions.Item>}
      {t.address && <Descriptions.Item label="地址电话">{t.address} {t.phone}</Descriptions.Item>}
      {invoice.email && <Descriptions.Item label="接收邮箱">{invoice.email}</Descriptions.Item>}
    </Descriptions>
  );
}

function IssueModal({ invoice, onDone, onClose }: { invoice: Invoice; onDone: () => Promise<unknown>; onClose: () => void }) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  return (
    <FormModal<{ invoiceNo: string }>
      title={`开具发票：${invoice.title.name}（¥${fenToYuan(invoice.amount)}）`}
      name="issue"
      onClose={onClose}
      onSave={async ({ invoiceNo }) => {
        await http.put(`/api/invoice/issue/${invoice.id}`, { invoiceNo, fileUri: uploadedUris(files)[0] });
        void message.success('发票已开具');
        await onDone();
      }}
    >
      <Form.Item name="invoiceNo" label="发票号码" rules={[{ required: true, whitespace: true, message: '请输入发票号码' }]}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item label="电子发票（PDF）" required>
        <DocumentUpload purpose="invoice" files={files} onChange={setFiles} max={1} />
      </Form.Item>
    </FormModal>
  );
}

/** Invoice applications of the organisation's competitions: issue with the PDF, or reject with a reason. */
export default function InvoicePage() {
  const { message } = App.useApp();
  const client = useQueryClient();
  const canEdit = usePermissions().has(ACTION_CODES.invoiceEdit);
  // The filters live in the address: the home page's 待开票 opens `?status=0`.
  const { query, setQuery, filtersKey } = useUrlQuery<Filters>(FILTERS);
  const waiting = query.status === INVOICE_STATUS.pending;
  const [issuing, setIssuing] = useState<Invoice | null>(null);
  const [rejecting, setRejecting] = useState<Invoice | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [batchRejecting, setBatchRejecting] = useState(false);
  const invoices = useQuery({ queryKey: ['invoices', query], queryFn: () => http.get<Page<Invoice>>('/api/invoice/list', { ...query }) });
  const reload = () => client.invalidateQueries({ queryKey: ['invoices'] });

  return (
    <Card title="发票管理" extra={<ExportButton url="/api/invoice/list" query={{ ...query }} />}>
      <Segmented
        style={{ marginBottom: 16 }}
        value={waiting ? 'waiting' : query.status === undefined ? 'all' : undefined}
        options={[
          { label: '全部', value: 'all' },
          { label: '待开票', value: 'waiting' },
        ]}
        onChange={(v) => setQuery({ ...query, page: 1, status: v === 'waiting' ? INVOICE_STATUS.pending : undefined })}
      />
      <FilterForm<Partial<Filters>>
        key={filtersKey}
        initialValues={{ status: query.status, competitionId: query.competitionId, keyword: query.keyword }}
        keywordPlaceholder="订单号、抬头、申请人或发票号"
        onSearch={(f) => setQuery({ page: 1, limit: query.limit, ...f })}
      >
        <Form.Item name="status" label="状态">
          <Select allowClear placeholder="全部" style={{ width: 110 }} options={textOptions(INVOICE_STATUS_TEXT)} />
        </Form.Item>
      </FilterForm>
      <SelectionBar count={selected.length} onClear={() => setSelected([])}>
        {canEdit && (
          <Button size="small" danger onClick={() => setBatchRejecting(true)}>
            批量驳回
          </Button>
        )}
        <ExportButton size="small" label="导出所选" url="/api/invoice/list" query={{ ids: selected.join(',') }} />
      </SelectionBar>
      <Table<Invoice>
        rowKey="id"
        loading={invoices.isLoading}
        dataSource={invoices.data?.list}
        scroll={{ x: 1400 }}
        locale={{ emptyText: '暂无发票申请' }}
        rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys as number[]) }}
        pagination={pager(invoices.data, (page, limit) => setQuery({ ...query, page, limit }))}
        columns={[
          { title: '订单号', dataIndex: 'orderNo', width: 190 },
          { title: '竞赛', dataIndex: 'competitionName', width: 180 },
          { title: '队伍', dataIndex: 'teamName', width: 130 },
          { title: '申请人', dataIndex: 'username', width: 110 },
          { title: '金额', width: 90, render: (_, i) => `¥${fenToYuan(i.amount)}` },
          { title: '发票类型', width: 130, render: (_, i) => INVOICE_TYPES[i.type] },
          {
            title: '抬头',
            width: 180,
            render: (_, i) => (
              <Popover content={<TitleDetail invoice={i} />} title="发票抬头">
                <a>{i.title.name}</a>
              </Popover>
            ),
          },
          { title: '状态', width: 90, render: (_, i) => <Tag color={COLORS[i.status]}>{INVOICE_STATUS_TEXT[i.status]}</Tag> },
          { title: '发票号码', width: 130, render: (_, i) => (i.fileUri ? <a href={fileUrl(i.fileUri)} target="_blank" rel="noopener noreferrer">{i.invoiceNo}</a> : i.reason) },
          { title: '申请时间', width: 150, render: (_, i) => formatMinute(i.createdAt) },
          {
            title: '操作',
            width: 110,
            fixed: 'right',
            render: (_, i) =>
              canEdit &&
              i.status === INVOICE_STATUS.pending && (
                <Space>
                  <a onClick={() => setIssuing(i)}>开票</a>
                  <a onClick={() => setRejecting(i)}>驳回</a>
                </Space>
              ),
          },
        ]}
      />
      {issuing && <IssueModal invoice={issuing} onClose={() => setIssuing(null)} onDone={reload} />}
      {batchRejecting && (
        <ReasonModal
          title={`驳回所选的 ${selected.length} 个发票申请（已处理的将跳过）`}
          onClose={() => setBatchRejecting(false)}
          onSubmit={async (reason) => {
            const result = await http.put<BatchResult>('/api/invoice/reject/batch', { ids: selected, reason });
            const text = batchResultText('驳回', result);
            void (result.decided || result.notFound ? message.warning(text) : message.success(text));
            setSelected([]);
            await reload();
          }}
        />
      )}
      {rejecting && (
        <ReasonModal
          title={`驳回“${rejecting.title.name}”的发票申请`}
          onClose={() => setRejecting(null)}
          onSubmit={async (reason) => {
            await http.put(`/api/invoice/reject/${rejecting.id}`, { reason });
            void message.success('已驳回发票申请');
            await reload();
          }}
        />
      )}
    </Card>
  );
}
