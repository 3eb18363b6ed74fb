import { PAY_METHOD_TEXT, PAY_STATUS, PAY_STATUS_TEXT, fenToYuan, schoolPaysText } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Result, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { orderApi, orderKeys } from '#src/api/orders.ts';
import { paymentApi } from '#src/api/payments.ts';
import { useCurrentUser } from '#src/common/auth.ts';
import { HttpError, goLogin } from '#src/common/http.ts';
import { formatMinute } from '#src/common/time.ts';
import { useReloadTeam } from '../../team.ts';
import { PayChoice } from './PayChoice.tsx';

export const PAY_STATUS_COLORS: Record<number, string> = { 0: 'warning', 1: 'success', 2: 'default', 3: 'default' };

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
  const [code, setCode] = useState(false);
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
  // Taken into its school's order (统一缴费) while a code was shown: nothing more to watch.
  const bySchool = Boolean(order.data?.schoolOrderNo);
  useEffect(() => {
    if (bySchool) setCode(false);
  }, [bySchool]);

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
  function closeOrder() {
    modal.confirm({
      title: '提示',
      content: '确定取消该订单吗？取消后可以重新下单。',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await orderApi.close(id);
        void message.success('订单已关闭');
        setCode(false);
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
      ) : o.schoolOrderNo ? (
        <Result status="info" title="由学校统一缴费" subTitle={schoolPaysText(o.schoolOrderNo)} />
      ) : (
        <>
          <PayChoice
            payable={{
              amount: o.amount,
              note: `队伍编号 ${o.teamNo}`,
              pay: (method) => paymentApi.pay(id, method),
              voucher: (body) => orderApi.voucher(id, body),
            }}
            onDone={reload}
            onCode={setCode}
          />
          <div style={{ marginTop: 24 }}>
            <Button onClick={closeOrder}>取消订单</Button>
          </div>
        </>
      )}
    </Card>
  );
}
