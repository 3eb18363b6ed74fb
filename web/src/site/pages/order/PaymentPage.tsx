import { PAY_METHOD_TEXT, PAY_STATUS, PAY_STATUS_TEXT, fenToYuan, type Order, type PaymentMethodOption, type PayResult } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Collapse, Descriptions, Empty, Image, Radio, Result, Space, Spin, Tag, Typography, type UploadFile } from 'antd';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { orderApi, orderKeys } from '#src/api/orders.ts';
import { paymentApi, paymentKeys } from '#src/api/payments.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { isMobile } from '#src/common/device.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { HttpError, goLogin } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { useReloadTeam } from '../../team.ts';
import { DocumentUpload, uploadedUris } from '#src/common/DocumentUpload.tsx';

export const PAY_STATUS_COLORS: Record<number, string> = { 0: 'warning', 1: 'success', 2: 'default', 3: 'default' };

function OfflinePanel({ order, method, onDone }: { order: Order; method: PaymentMethodOption; onDone: () => void }) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const submit = async () => {
    const [voucher] = uploadedUris(files);
    if (!voucher) {
      void message.error('请上传转账凭证');
      return;
    }
    await orderApi.voucher(order.id, { payMethod: method.method, voucher });
    void message.success('转账凭证已提交，请等待财务确认');
    onDone();
  };
  return (
    <>
      {method.accounts.map((a) => (
        <Descriptions
          key={a.accountNo}
          title={a.name}
          column={1}
          bordered
          size="small"
          styles={{ label: { whiteSpace: 'nowrap' } }}
          style={{ marginBottom: 16 }}
        >
          <Descriptions.Item label="户名">{a.accountName}</Descriptions.Item>
          <Descriptions.Item label="账号">
            <Typography.Text copyable>{a.accountNo}</Typography.Text>
          </Descriptions.Item>
          {a.bankName && <Descriptions.Item label="开户行">{a.bankName}</Descriptions.Item>}
          {a.instructions && <Descriptions.Item label="付款说明">{a.instructions}</Descriptions.Item>}
        </Descriptions>
      ))}
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`请转账 ¥${fenToYuan(order.amount)}，并在备注中填写队伍编号 ${order.teamNo}；转账后上传回单或截图，财务确认后订单即为已支付。`}
      />
      <Space direction="vertical">
        <DocumentUpload purpose="voucher" files={files} onChange={setFiles} max={1} />
        <GuardedButton type="primary" onClick={submit}>
          提交转账凭证
        </GuardedButton>
      </Space>
    </>
  );
}

/** `/payment/:competitionId/:orderId`: the order and the enabled ways to pay it. */
export default function PaymentPage() {
  const { competitionId, orderId } = useParams();
  const valid = /^\d+$/.test(competitionId ?? '') && /^\d+$/.test(orderId ?? '');
  const id = Number(orderId);
  const cid = Number(competitionId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const { message, modal } = App.useApp();
  const { data: user, isLoading: userLoading } = useCurrentUser();
  const reloadTeam = useReloadTeam(cid);
  const [method, setMethod] = useState<number>();
  const [code, setCode] = useState<PayResult | null>(null);
  const order = useQuery({
    queryKey: orderKeys.detail(id),
    enabled: valid && Boolean(user),
    retry: false,
    queryFn: () => orderApi.detail(id),
    // While a QR code is shown, watch for the gateway's notification to land.
    refetchInterval: (q) => (code && q.state.data?.payStatus === PAY_STATUS.unpaid ? 2000 : false),
  });
  // The team's cached registration shows the payment state too: refresh it when the order changes state.
  const status = order.data?.payStatus;
  useEffect(() => {
    if (status !== undefined && status !== PAY_STATUS.unpaid) void reloadTeam();
  }, [status]);
  const methods = useQuery({ queryKey: paymentKeys.methods, enabled: Boolean(user), queryFn: () => paymentApi.methods() });

  if (!valid) return <Navigate to="/404" replace />;
  if (userLoading || order.isLoading) return <Spin style={{ display: 'block', margin: '120px auto' }} />;
  if (!user)
    return (
      <Result
        status="403"
        title="请先登录"
        extra={
          <Button type="primary" onClick={goLogin}>
            去登录
          </Button>
        }
      />
    );
  const o = order.data;
  if (!o || o.competitionId !== cid) {
    return (
      <Result
        status="404"
        title={order.error instanceof HttpError ? order.error.message : '订单不存在'}
        extra={<Link to="/userCenter/myOrder">我的订单</Link>}
      />
    );
  }
  const reload = async () => {
    await client.invalidateQueries({ queryKey: orderKeys.detail(id) });
    await reloadTeam();
  };
  const chosen = methods.data?.find((m) => m.method === method);
  // The app that pays: Alipay (method 2) or WeChat (method 1), the two online methods.
  const app = chosen?.method === 2 ? '支付宝' : '微信';
  // Spec §2.2's mobile: a phone's browser, where a QR code for the same phone cannot be scanned.
  const phone = isMobile();

  async function createCode() {
    setCode(await paymentApi.pay(id, method));
  }
  function closeOrder() {
    modal.confirm({
      title: '提示',
      content: '确定取消该订单吗？取消后可以重新下单。',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await orderApi.close(id);
        void message.success('订单已关闭');
        setCode(null);
        await reload();
      },
    });
  }
  async function reorder() {
    const r = await orderApi.createForTeam(o!.teamId);
    await reloadTeam();
    navigate(`/payment/${cid}/${r.id}`, { replace: true });
  }

  return (
    <Card title="订单支付" extra={<Link to={`/competition/${cid}/team`}>返回我的队伍</Link>}>
      <Descriptions column={{ xs: 1, md: 2 }} bordered size="small" styles={{ label: { whiteSpace: 'nowrap' } }} style={{ marginBottom: 24 }}>
        <Descriptions.Item label="竞赛">{o.competitionName}</Descriptions.Item>
        <Descriptions.Item label="队伍">
          {o.teamName}（{o.teamNo}）
        </Descriptions.Item>
        <Descriptions.Item label="订单号">{o.orderNo}</Descriptions.Item>
        <Descriptions.Item label="金额">
          <Typography.Text strong style={{ color: '#1890ff', fontSize: 18 }}>
            ¥{fenToYuan(o.amount)}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="状态">
          <Tag color={PAY_STATUS_COLORS[o.payStatus]} data-testid="order-status">
            {PAY_STATUS_TEXT[o.payStatus]}
          </Tag>
        </Descriptions.Item>
        <Descriptions.Item label="下单时间">{formatMinute(o.createdAt)}</Descriptions.Item>
      </Descriptions>

      {o.payStatus === PAY_STATUS.paid ? (
        <Result
          status="success"
          title="支付成功"
          subTitle={`${o.payMethod ? PAY_METHOD_TEXT[o.payMethod] : ''} ${o.paidAt ? formatMinute(o.paidAt) : ''}`}
          extra={
            <Link to={`/competition/${cid}/team`}>
              <Button type="primary">查看我的队伍</Button>
            </Link>
          }
        />
      ) : o.payStatus === PAY_STATUS.closed ? (
        <Result
          status="info"
          title="订单已关闭"
          extra={
            <Button type="primary" onClick={reorder}>
              重新下单
            </Button>
          }
        />
      ) : o.payStatus === PAY_STATUS.refunded ? (
        <Result status="info" title="订单已退款" subTitle={o.refundReason ?? undefined} />
      ) : o.voucher ? (
        <Result status="info" title="转账凭证已提交" subTitle="财务确认收款后订单即为已支付，请耐心等待。" />
      ) : !methods.data?.length ? (
        <Empty description="暂未开通支付方式，请联系主办方" />
      ) : (
        <>
          <Typography.Title level={5}>选择支付方式</Typography.Title>
          <Radio.Group
            value={method}
            onChange={(e) => {
              setMethod(e.target.value);
              setCode(null);
            }}
            optionType="button"
            buttonStyle="solid"
            options={methods.data.map((m) => ({ value: m.method, label: m.name }))}
            style={{ marginBottom: 24 }}
          />
          {chosen?.online &&
            (code ? (
              phone ? (
                // A phone cannot scan its own screen: it opens the payment app with the payment's link instead.
                <Space direction="vertical" align="center" style={{ width: '100%' }} data-testid="pay-on-phone">
                  <Button type="primary" size="large" href={code.codeUrl} target="_blank" rel="noopener noreferrer">
                    打开{app}付款
                  </Button>
                  <Typography.Text style={{ textAlign: 'center' }}>在{app}中完成付款后回到本页，支付结果会自动更新</Typography.Text>
                  <Collapse
                    ghost
                    items={[
                      { key: 'qr', label: '在另一台设备上扫码支付', children: <Image src={code.qrImage} width={200} preview={false} alt="支付二维码" /> },
                    ]}
                  />
                </Space>
              ) : (
                <Space direction="vertical" align="center" style={{ width: '100%' }}>
                  <Image src={code.qrImage} width={240} preview={false} alt="支付二维码" />
                  <Typography.Text>请使用{app}扫码支付，支付完成后本页会自动更新</Typography.Text>
                  <Typography.Link href={code.codeUrl} target="_blank" rel="noopener noreferrer">
                    无法扫码？打开支付链接
                  </Typography.Link>
                </Space>
              )
            ) : (
              <GuardedButton type="primary" onClick={createCode}>
                {phone ? `使用${app}付款` : '生成支付二维码'}
              </GuardedButton>
            ))}
          {chosen && !chosen.online && <OfflinePanel order={o} method={chosen} onDone={reload} />}
          <div style={{ marginTop: 24 }}>
            <Button onClick={closeOrder}>取消订单</Button>
          </div>
        </>
      )}
    </Card>
  );
}
