import {
  INVOICE_STATUS_TEXT,
  PAY_METHOD_TEXT,
  PAY_STATUS,
  PAY_STATUS_TEXT,
  fenToYuan,
  type SchoolInvoiceBody,
  type SchoolOrder,
  type SchoolTeam,
} from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Empty, Flex, List, Modal, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { coordinatorApi, coordinatorKeys } from '#src/api/coordinators.ts';
import { invoiceApi, invoiceKeys } from '#src/api/invoices.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';
import { FormModal } from '#src/common/FormModal.tsx';
import { formatMinute } from '#src/common/time.ts';
import { InvoiceFields } from '../invoice/MyInvoicePage.tsx';
import { PAY_STATUS_COLORS } from '../order/PaymentPage.tsx';
import { PayChoice } from '../order/PayChoice.tsx';

/** The teams a new 统一缴费 order pays for: every team waiting for payment, ticked, with the total. */
function OpenOrderModal({ teams, fee, onOpen, onClose }: { teams: SchoolTeam[]; fee: number; onOpen: (ids: number[]) => Promise<void>; onClose: () => void }) {
  const [ids, setIds] = useState(teams.map((t) => t.teamId));
  const [saving, setSaving] = useState(false);
  return (
    <Modal
      open
      title="统一缴费"
      okText={`创建订单（${ids.length}支队伍，¥${fenToYuan(ids.length * fee)}）`}
      okButtonProps={{ disabled: !ids.length }}
      confirmLoading={saving}
      cancelText="取消"
      onOk={async () => {
        setSaving(true);
        try {
          await onOpen(ids);
        } finally {
          setSaving(false);
        }
      }}
      onCancel={onClose}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message="所选队伍的报名费合并为一个订单，由您一次支付（在线支付或对公转账），并可为学校申请一张发票；支付前，这些队伍不能自行支付。"
      />
      <Checkbox
        checked={ids.length === teams.length}
        indeterminate={ids.length > 0 && ids.length < teams.length}
        onChange={(e) => setIds(e.target.checked ? teams.map((t) => t.teamId) : [])}
      >
        全选（{teams.length}支待缴费队伍）
      </Checkbox>
      <Checkbox.Group
        value={ids}
        onChange={(v) => setIds(v as number[])}
        style={{ display: 'flex', flexDirection: 'column', gap: 4, marginTop: 8, maxHeight: 320, overflowY: 'auto' }}
        options={teams.map((t) => ({ value: t.teamId, label: `${t.teamName}（${t.teamNo}）` }))}
      />
    </Modal>
  );
}

/**
 * 统一缴费 on the coordinator's page: the school's orders, each paying for many of its teams, paid online or by
 * transfer, closed to give the teams back, and invoiced once for the school.
 */
export function SchoolOrders({ competitionId, schoolId, teams, fee }: { competitionId: number; schoolId: number; teams: SchoolTeam[]; fee: number }) {
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [opening, setOpening] = useState(false);
  const [paying, setPaying] = useState<SchoolOrder | null>(null);
  const [watching, setWatching] = useState(false);
  const [invoicing, setInvoicing] = useState<SchoolOrder | null>(null);
  const orders = useQuery({
    queryKey: coordinatorKeys.orders(competitionId, schoolId),
    queryFn: () => coordinatorApi.orders(competitionId, schoolId),
    // While a QR code is shown, watch for the gateway's notification to land.
    refetchInterval: watching ? 2000 : false,
  });
  const config = useQuery({ queryKey: invoiceKeys.publicConfig, queryFn: () => invoiceApi.publicConfig() });
  const payable = teams.filter((t) => t.payable);
  const reload = () => client.invalidateQueries({ queryKey: coordinatorKeys.all });
  // The order being paid, as last read: paid (or closed) while its dialog is open, the dialog says so and closes.
  const current = paying ? orders.data?.find((o) => o.id === paying.id) : undefined;
  const settled = current && current.payStatus !== PAY_STATUS.unpaid ? current : undefined;
  useEffect(() => {
    if (!settled) return;
    setPaying(null);
    setWatching(false);
    if (settled.payStatus === PAY_STATUS.paid) void message.success(`统一缴费订单 ${settled.orderNo} 已支付`);
    else void message.info(`统一缴费订单 ${settled.orderNo} 已${PAY_STATUS_TEXT[settled.payStatus]}`);
    void reload();
  }, [settled?.id, settled?.payStatus]);

  async function open(ids: number[]) {
    await coordinatorApi.openOrder(competitionId, schoolId, ids);
    void message.success('统一缴费订单已创建，请选择支付方式');
    setOpening(false);
    await reload();
  }
  function close(o: SchoolOrder) {
    modal.confirm({
      title: '关闭统一缴费订单',
      content: `确定关闭订单 ${o.orderNo} 吗？关闭后其中${o.teamCount}支队伍的订单可由队伍自行支付，也可重新统一缴费。`,
      okText: '关闭订单',
      cancelText: '取消',
      onOk: async () => {
        await coordinatorApi.closeOrder(o.id);
        void message.success('订单已关闭');
        await reload();
      },
    });
  }

  return (
    <div data-testid="school-orders">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          统一缴费
        </Typography.Title>
        <Button type="primary" disabled={!payable.length} onClick={() => setOpening(true)}>
          {payable.length ? `为${payable.length}支队伍统一缴费` : '没有待缴费的队伍'}
        </Button>
      </Flex>
      <List<SchoolOrder>
        dataSource={orders.data ?? []}
        loading={orders.isLoading}
        locale={{ emptyText: <Empty description="还没有统一缴费订单：报名通过学校审核的队伍可由您合并为一个订单一次支付" /> }}
        renderItem={(o) => (
          <List.Item key={o.id} className="order-card" data-testid="school-order">
            <Space direction="vertical" size={4} style={{ width: '100%' }}>
              <Flex wrap gap={8} align="center">
                <Typography.Text strong copyable>
                  {o.orderNo}
                </Typography.Text>
                <Tag color={PAY_STATUS_COLORS[o.payStatus]}>{o.voucher && o.payStatus === PAY_STATUS.unpaid ? '待财务确认' : PAY_STATUS_TEXT[o.payStatus]}</Tag>
                {o.invoiceStatus !== null && <Tag color="blue">发票{INVOICE_STATUS_TEXT[o.invoiceStatus]}</Tag>}
              </Flex>
              <span>
                {o.teamCount}支队伍，共 <Typography.Text strong>¥{fenToYuan(o.amount)}</Typography.Text>
                {o.paidAt && `，${o.payMethod ? PAY_METHOD_TEXT[o.payMethod] : ''}支付于 ${formatMinute(o.paidAt)}`}
              </span>
              <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, expandable: true, symbol: '展开' }} style={{ margin: 0 }}>
                {o.teams
                  .map((t) => (t.payStatus === PAY_STATUS.refunded && o.payStatus === PAY_STATUS.paid ? `${t.teamName}（已退款）` : t.teamName))
                  .join('、')}
              </Typography.Paragraph>
              {o.refundReason && <Typography.Text type="secondary">退款原因：{o.refundReason}</Typography.Text>}
              <Space wrap>
                {o.payStatus === PAY_STATUS.unpaid && !o.voucher && (
                  <>
                    <ActionLink onClick={() => setPaying(o)}>支付</ActionLink>
                    <ActionLink danger onClick={() => close(o)}>
                      关闭订单
                    </ActionLink>
                  </>
                )}
                {o.payStatus === PAY_STATUS.paid &&
                  o.invoiceStatus === null &&
                  (o.invoiceEnable ? <ActionLink onClick={() => setInvoicing(o)}>申请发票</ActionLink> : <span>本竞赛未开放发票申请</span>)}
                {o.invoiceStatus !== null && <Link to="/userCenter/myInvoice">在“我的发票”中查看</Link>}
              </Space>
            </Space>
          </List.Item>
        )}
      />
      {opening && <OpenOrderModal teams={payable} fee={fee} onOpen={open} onClose={() => setOpening(false)} />}
      {paying && (
        <Modal
          open
          title={`支付统一缴费订单 ${paying.orderNo}（¥${fenToYuan(paying.amount)}）`}
          footer={null}
          onCancel={() => {
            setPaying(null);
            setWatching(false);
          }}
          destroyOnHidden
        >
          <PayChoice
            payable={{
              amount: paying.amount,
              note: `订单号 ${paying.orderNo}`,
              pay: (method) => coordinatorApi.pay(paying.id, method),
              voucher: (body) => coordinatorApi.voucher(paying.id, body),
            }}
            onCode={setWatching}
            onDone={() => {
              setPaying(null);
              void reload();
            }}
          />
        </Modal>
      )}
      {invoicing && config.data && (
        <FormModal<SchoolInvoiceBody>
          title={`为订单 ${invoicing.orderNo} 申请发票（¥${fenToYuan(invoicing.amount)}）`}
          name="school-invoice"
          okText="提交申请"
          initialValues={{ type: config.data.allowedTypes[0] }}
          onClose={() => setInvoicing(null)}
          onSave={async (values) => {
            await coordinatorApi.invoice(invoicing.id, values);
            void message.success('发票申请已提交，开具后可在“我的发票”中下载');
            await reload();
          }}
        >
          {config.data.notice && <Alert type="info" showIcon style={{ marginBottom: 16 }} message={config.data.notice} />}
          <InvoiceFields config={config.data} />
        </FormModal>
      )}
    </div>
  );
}
