import { ACTION_CODES, INVOICE_STATUS, INVOICE_STATUS_TEXT, INVOICE_TYPES, TITLE_KINDS, batchResultText, fenToYuan, type Invoice } from '@contest/shared';
import { App, Button, Card, Descriptions, Form, Input, Popover, Segmented, Select, Space, Table, Tag, type UploadFile } from 'antd';
import { useState } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { DocumentUpload, uploadedUris } from '#src/common/DocumentUpload.tsx';
import { fileUrl } from '#src/common/files.ts';
import { invoiceApi, invoiceKeys, invoiceUrls } from '#src/api/invoices.ts';
import { formatMinute } from '#src/common/time.ts';
import { ExportButton } from '../../components/ExportButton.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { textOptions } from '#src/common/forms.ts';
import { FilterForm } from '../../components/FilterForm.tsx';
import { ReasonModal } from '../../components/ReasonModal.tsx';
import { SelectionBar } from '../../components/SelectionBar.tsx';
import { useListMutation, usePagedList } from '#src/common/usePagedList.ts';
import { useUrlQuery } from '#src/common/useUrlQuery.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

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
      {t.bank && (
        <Descriptions.Item label="开户银行">
          {t.bank} {t.bankAccount}
        </Descriptions.Item>
      )}
      {t.address && (
        <Descriptions.Item label="地址电话">
          {t.address} {t.phone}
        </Descriptions.Item>
      )}
      {invoice.email && <Descriptions.Item label="接收邮箱">{invoice.email}</Descriptions.Item>}
    </Descriptions>
  );
}

function IssueModal({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const issue = useListMutation(
    (invoiceNo: string) => invoiceApi.issue(invoice.id, { invoiceNo, fileUri: uploadedUris(files)[0] }),
    [invoiceKeys.all],
    () => void message.success('发票已开具'),
  );
  return (
    <FormModal<{ invoiceNo: string }>
      title={`开具发票：${invoice.title.name}（¥${fenToYuan(invoice.amount)}）`}
      name="issue"
      onClose={onClose}
      onSave={({ invoiceNo }) => issue.mutateAsync(invoiceNo)}
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
  const canEdit = usePermissions().has(ACTION_CODES.invoiceEdit);
  // The filters live in the address: the home page's 待开票 opens `?status=0`.
  const list = usePagedList(useUrlQuery<Filters>(FILTERS), {
    queryKey: invoiceKeys.list,
    queryFn: invoiceApi.list,
    emptyText: '暂无发票申请',
    selectable: true,
    exportUrl: invoiceUrls.list,
  });
  const { query, setQuery } = list;
  const waiting = query.status === INVOICE_STATUS.pending;
  const [issuing, setIssuing] = useState<Invoice | null>(null);
  const [rejecting, setRejecting] = useState<Invoice | null>(null);
  const [batchRejecting, setBatchRejecting] = useState(false);
  const rejectBatch = useListMutation(
    (reason: string) => invoiceApi.rejectBatch(list.selectedIds, reason),
    [invoiceKeys.all],
    (result) => {
      const text = batchResultText('驳回', result);
      void (result.decided || result.notFound ? message.warning(text) : message.success(text));
      list.clearSelection();
    },
  );
  const reject = useListMutation(
    ({ id, reason }: { id: number; reason: string }) => invoiceApi.reject(id, reason),
    [invoiceKeys.all],
    () => void message.success('已驳回发票申请'),
  );

  return (
    <Card title="发票管理" extra={<ExportButton {...list.exportAll} />}>
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
        key={list.filtersKey}
        initialValues={{ status: query.status, competitionId: query.competitionId, keyword: query.keyword }}
        keywordPlaceholder="订单号、抬头、申请人或发票号"
        onSearch={list.search}
      >
        <Form.Item name="status" label="状态">
          <Select allowClear placeholder="全部" style={{ width: 110 }} options={textOptions(INVOICE_STATUS_TEXT)} />
        </Form.Item>
      </FilterForm>
      <SelectionBar count={list.selectedIds.length} onClear={list.clearSelection}>
        {canEdit && (
          <Button size="small" danger onClick={() => setBatchRejecting(true)}>
            批量驳回
          </Button>
        )}
        <ExportButton {...list.exportSelected} />
      </SelectionBar>
      <Table<Invoice>
        {...list.table}
        scroll={{ x: 1400 }}
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
                <ActionLink>{i.title.name}</ActionLink>
              </Popover>
            ),
          },
          { title: '状态', width: 90, render: (_, i) => <Tag color={COLORS[i.status]}>{INVOICE_STATUS_TEXT[i.status]}</Tag> },
          {
            title: '发票号码',
            width: 130,
            render: (_, i) =>
              i.fileUri ? (
                <a href={fileUrl(i.fileUri)} target="_blank" rel="noopener noreferrer">
                  {i.invoiceNo}
                </a>
              ) : (
                i.reason
              ),
          },
          { title: '申请时间', width: 150, render: (_, i) => formatMinute(i.createdAt) },
          {
            title: '操作',
            width: 110,
            fixed: 'right',
            render: (_, i) =>
              canEdit &&
              i.status === INVOICE_STATUS.pending && (
                <Space>
                  <ActionLink onClick={() => setIssuing(i)}>开票</ActionLink>
                  <ActionLink onClick={() => setRejecting(i)}>驳回</ActionLink>
                </Space>
              ),
          },
        ]}
      />
      {issuing && <IssueModal invoice={issuing} onClose={() => setIssuing(null)} />}
      {batchRejecting && (
        <ReasonModal
          title={`驳回所选的 ${list.selectedIds.length} 个发票申请（已处理的将跳过）`}
          onClose={() => setBatchRejecting(false)}
          onSubmit={(reason) => rejectBatch.mutateAsync(reason)}
        />
      )}
      {rejecting && (
        <ReasonModal
          title={`驳回“${rejecting.title.name}”的发票申请`}
          onClose={() => setRejecting(null)}
          onSubmit={(reason) => reject.mutateAsync({ id: rejecting.id, reason })}
        />
      )}
    </Card>
  );
}
