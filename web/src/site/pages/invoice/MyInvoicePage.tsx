import { INVOICE_STATUS_TEXT, INVOICE_TYPES, PAY_STATUS, fenToYuan, type Invoice, type InvoiceApplyBody, type InvoiceConfig } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Grid, Input, List, Pagination, Select, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { invoiceApi, invoiceKeys } from '#src/api/invoices.ts';
import { orderApi, orderKeys } from '#src/api/orders.ts';
import { fileUrl } from '#src/common/files.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { pager } from '#src/common/pager.ts';
import { formatMinute } from '#src/common/time.ts';
import { useInvoiceTitles } from './InvoiceTitlePage.tsx';

const COLORS: Record<number, string> = { 0: 'processing', 1: 'success', 2: 'error' };

/** An application's type, title (one of the caller's) and email: for a team's order and a school's 统一缴费 order. */
export function InvoiceFields({ config }: { config: InvoiceConfig }) {
  const titles = useInvoiceTitles();
  return (
    <>
      <Form.Item name="type" label="发票类型" rules={[{ required: true, message: '请选择发票类型' }]}>
        <Select options={config.allowedTypes.map((t) => ({ value: t, label: INVOICE_TYPES[t] }))} />
      </Form.Item>
      <Form.Item
        name="titleId"
        label="发票抬头"
        rules={[{ required: true, message: '请选择发票抬头' }]}
        extra={
          <>
            没有合适的抬头？<Link to="/userCenter/invoiceTitle">去添加</Link>
          </>
        }
      >
        <Select placeholder="选择常用抬头" options={(titles.data ?? []).map((t) => ({ value: t.id, label: `${t.name}${t.taxNo ? `（${t.taxNo}）` : ''}` }))} />
      </Form.Item>
      <Form.Item name="email" label="接收邮箱（可选）">
        <Input maxLength={254} />
      </Form.Item>
    </>
  );
}

function ApplyModal({ config, invoiced, onClose }: { config: InvoiceConfig; invoiced: Set<number>; onClose: () => void }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  const paid = useQuery({ queryKey: orderKeys.mine('paid'), queryFn: () => orderApi.mine({ payStatus: PAY_STATUS.paid, limit: 100 }) });
  const orders = (paid.data?.list ?? []).filter((o) => !invoiced.has(o.id));
  async function save(values: InvoiceApplyBody) {
    await invoiceApi.apply(values);
    void message.success('发票申请已提交');
    await client.invalidateQueries({ queryKey: invoiceKeys.mineAll });
  }
  return (
    <FormModal<InvoiceApplyBody>
      title="申请发票"
      name="apply"
      okText="提交申请"
      initialValues={{ type: config.allowedTypes[0] }}
      onSave={save}
      onClose={onClose}
    >
      {config.notice && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={config.notice} />}
      <Form.Item
        name="orderId"
        label="订单"
        rules={[{ required: true, message: '请选择订单' }]}
        extra={!paid.isLoading && !orders.length ? '没有可申请发票的已支付订单' : undefined}
      >
        <Select
          placeholder="选择已支付的订单"
          options={orders.map((o) => ({
            value: o.id,
            // A competition whose organiser did not open invoices is listed, greyed, so the team knows why; so is an
            // order its school paid for (the school's coordinator asks for one invoice of the whole amount).
            disabled: !o.invoiceEnable || Boolean(o.schoolOrderNo),
            label: `${o.competitionName} · ${o.teamName} · ¥${fenToYuan(o.amount)}${
              o.schoolOrderNo ? '（学校统一缴费，发票由院校负责人申请）' : o.invoiceEnable ? '' : '（该竞赛未开放发票申请）'
            }`,
          }))}
        />
      </Form.Item>
      <InvoiceFields config={config} />
    </FormModal>
  );
}

/** The invoice number once issued, the reason once rejected. */
const note = (i: Invoice) => (i.status === 2 ? `驳回原因：${i.reason ?? ''}` : (i.invoiceNo ?? '—'));
/** A long text cut to its column, whole in a tooltip. */
const cut = (text: string) => (
  <Tooltip title={text} placement="topLeft">
    {text}
  </Tooltip>
);

/** What does not fit in a row: under it, one click away. */
function InvoiceDetails({ invoice }: { invoice: Invoice }) {
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2 }}>
      <Descriptions.Item label="竞赛">{invoice.competitionName}</Descriptions.Item>
      <Descriptions.Item label="订单号">{invoice.orderNo}</Descriptions.Item>
      <Descriptions.Item label="抬头">{invoice.title.name}</Descriptions.Item>
      {invoice.title.taxNo && <Descriptions.Item label="税号">{invoice.title.taxNo}</Descriptions.Item>}
      <Descriptions.Item label="发票类型">{INVOICE_TYPES[invoice.type]}</Descriptions.Item>
      <Descriptions.Item label="申请时间">{formatMinute(invoice.createdAt)}</Descriptions.Item>
      {invoice.email && <Descriptions.Item label="接收邮箱">{invoice.email}</Descriptions.Item>}
      {invoice.invoiceNo && <Descriptions.Item label="发票号码">{invoice.invoiceNo}</Descriptions.Item>}
      {invoice.issuedAt && <Descriptions.Item label="开具时间">{formatMinute(invoice.issuedAt)}</Descriptions.Item>}
      {invoice.status === 2 && <Descriptions.Item label="驳回原因">{invoice.reason}</Descriptions.Item>}
    </Descriptions>
  );
}

/** `/userCenter/myInvoice`: invoice applications and the issued invoices. */
export default function MyInvoicePage() {
  const [query, setQuery] = useState({ page: 1, limit: 20 });
  const [applying, setApplying] = useState(false);
  const invoices = useQuery({ queryKey: invoiceKeys.mine(query), queryFn: () => invoiceApi.mine(query) });
  const config = useQuery({ queryKey: invoiceKeys.publicConfig, queryFn: () => invoiceApi.publicConfig() });
  // Orders with an application pending or issued cannot be applied for again.
  const all = useQuery({ queryKey: invoiceKeys.mine('all'), queryFn: () => invoiceApi.mine({ limit: 100 }) });
  const phone = Grid.useBreakpoint().md === false;
  const invoiced = new Set((all.data?.list ?? []).flatMap((i) => (i.status !== 2 && i.orderId !== null ? [i.orderId] : [])));
  return (
    <Card
      title="我的发票"
      extra={
        <Button type="primary" disabled={!config.data?.enable} onClick={() => setApplying(true)}>
          申请发票
        </Button>
      }
    >
      {config.data && !config.data.enable && <Alert type="info" showIcon style={{ marginBottom: 16 }} message="暂未开放发票申请" />}
      {phone ? (
        // On a phone each application is a card with its key fields; the table's columns would not fit.
        <>
          <List<Invoice>
            loading={invoices.isLoading}
            dataSource={invoices.data?.list}
            locale={{ emptyText: '暂无发票申请' }}
            renderItem={(i) => (
              <List.Item key={i.id} className="order-card" data-testid="invoice-card">
                <div className="order-card-head">
                  <span className="order-card-title">{i.competitionName}</span>
                  <Tag color={COLORS[i.status]}>{INVOICE_STATUS_TEXT[i.status]}</Tag>
                </div>
                <div className="order-card-row">
                  <span>抬头：{i.title.name}</span>
                  <strong>¥{fenToYuan(i.amount)}</strong>
                </div>
                <div className="order-card-note">队伍：{i.teamName}</div>
                <div className="order-card-note">
                  {INVOICE_TYPES[i.type]} · 申请于 {formatMinute(i.createdAt)}
                </div>
                {(i.invoiceNo || i.status === 2) && <div className="order-card-note">{i.status === 2 ? note(i) : `发票号码：${i.invoiceNo}`}</div>}
                {i.fileUri && (
                  <div className="order-card-action">
                    <a href={fileUrl(i.fileUri)} target="_blank" rel="noopener noreferrer">
                      下载发票
                    </a>
                  </div>
                )}
              </List.Item>
            )}
          />
          {(invoices.data?.total ?? 0) > query.limit && (
            <Pagination
              simple
              size="small"
              style={{ marginTop: 12, textAlign: 'center' }}
              current={query.page}
              pageSize={query.limit}
              total={invoices.data?.total}
              onChange={(page, limit) => setQuery({ page, limit })}
            />
          )}
        </>
      ) : (
        <Table<Invoice>
          rowKey="id"
          loading={invoices.isLoading}
          dataSource={invoices.data?.list}
          tableLayout="fixed"
          locale={{ emptyText: '暂无发票申请' }}
          pagination={pager(invoices.data, (page, limit) => setQuery({ page, limit }))}
          expandable={{ expandedRowRender: (i) => <InvoiceDetails invoice={i} /> }}
          columns={[
            { title: '竞赛', dataIndex: 'competitionName', ellipsis: { showTitle: false }, render: cut },
            { title: '金额', width: 90, align: 'right', render: (_, i) => `¥${fenToYuan(i.amount)}` },
            { title: '抬头', width: 150, ellipsis: { showTitle: false }, render: (_, i) => cut(i.title.name) },
            { title: '状态', width: 84, render: (_, i) => <Tag color={COLORS[i.status]}>{INVOICE_STATUS_TEXT[i.status]}</Tag> },
            { title: '发票号码 / 说明', width: 160, ellipsis: { showTitle: false }, render: (_, i) => cut(note(i)) },
            {
              title: '操作',
              width: 84,
              fixed: 'right',
              render: (_, i) =>
                i.fileUri ? (
                  <a href={fileUrl(i.fileUri)} target="_blank" rel="noopener noreferrer">
                    下载发票
                  </a>
                ) : (
                  '—'
                ),
            },
          ]}
        />
      )}
      {applying && config.data && <ApplyModal config={config.data} invoiced={invoiced} onClose={() => setApplying(false)} />}
    </Card>
  );
}
