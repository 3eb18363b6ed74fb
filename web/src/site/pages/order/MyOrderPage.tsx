import { PAY_METHOD_TEXT, PAY_STATUS, PAY_STATUS_TEXT, fenToYuan, type Order } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Grid, List, Pagination, Select, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { orderApi, orderKeys, type MyOrderParams } from '#src/api/orders.ts';
import { textOptions } from '#src/common/forms.ts';
import { pager } from '#src/common/pager.ts';
import { formatMinute } from '#src/common/time.ts';
import { PAY_STATUS_COLORS } from './PaymentPage.tsx';

const statusTag = (o: Order) => <Tag color={PAY_STATUS_COLORS[o.payStatus]}>{PAY_STATUS_TEXT[o.payStatus]}</Tag>;
const payMethod = (o: Order) => (o.payMethod ? PAY_METHOD_TEXT[o.payMethod] : '—');
// An order its school pays for (统一缴费) is the school's to pay: the team only looks at it.
const action = (o: Order) => (
  <Link to={`/payment/${o.competitionId}/${o.id}`}>{o.payStatus === PAY_STATUS.unpaid && !o.voucher && !o.schoolOrderNo ? '去支付' : '查看'}</Link>
);
/** A long text cut to its column, whole in a tooltip. */
const cut = (text: string) => (
  <Tooltip title={text} placement="topLeft">
    {text}
  </Tooltip>
);

/** What does not fit in a row: under it, one click away. */
function OrderDetails({ order }: { order: Order }) {
  return (
    <Descriptions size="small" column={{ xs: 1, md: 2 }}>
      <Descriptions.Item label="订单号">{order.orderNo}</Descriptions.Item>
      <Descriptions.Item label="队伍">{order.teamName}</Descriptions.Item>
      <Descriptions.Item label="竞赛">{order.competitionName}</Descriptions.Item>
      {order.paidAt && <Descriptions.Item label="支付时间">{formatMinute(order.paidAt)}</Descriptions.Item>}
      {order.tradeNo && <Descriptions.Item label="交易流水号">{order.tradeNo}</Descriptions.Item>}
    </Descriptions>
  );
}

/** `/userCenter/myOrder`: the orders of every team the user is in. */
export default function MyOrderPage() {
  const [query, setQuery] = useState<MyOrderParams & { page: number }>({ page: 1, limit: 20 });
  const { data, isLoading } = useQuery({ queryKey: orderKeys.mine(query), queryFn: () => orderApi.mine(query) });
  // On a phone each order is a card with its key fields; the table's columns would not fit.
  const phone = Grid.useBreakpoint().md === false;
  const pagination = pager(data, (page, limit) => setQuery({ ...query, page, limit }));
  return (
    <Card
      title="我的订单"
      extra={
        <Select
          allowClear
          placeholder="全部状态"
          style={{ width: phone ? 110 : 140 }}
          options={textOptions(PAY_STATUS_TEXT)}
          onChange={(payStatus?: number) => setQuery({ ...query, payStatus, page: 1 })}
        />
      }
    >
      {phone ? (
        <>
          <List<Order>
            loading={isLoading}
            dataSource={data?.list}
            locale={{ emptyText: '暂无订单' }}
            renderItem={(o) => (
              <List.Item key={o.id} className="order-card" data-testid="order-card">
                <div className="order-card-head">
                  <span className="order-card-title">{o.competitionName}</span>
                  {statusTag(o)}
                </div>
                <div className="order-card-row">
                  <span>队伍：{o.teamName}</span>
                  <strong>¥{fenToYuan(o.amount)}</strong>
                </div>
                <div className="order-card-note">订单号：{o.orderNo}</div>
                <div className="order-card-note">下单时间：{formatMinute(o.createdAt)}</div>
                {o.payMethod !== null && <div className="order-card-note">支付方式：{payMethod(o)}</div>}
                <div className="order-card-action">{action(o)}</div>
              </List.Item>
            )}
          />
          {(data?.total ?? 0) > 0 && (
            <Pagination
              simple
              size="small"
              style={{ marginTop: 12, textAlign: 'center' }}
              current={pagination.current}
              pageSize={pagination.pageSize}
              total={pagination.total}
              onChange={(page, limit) => setQuery({ ...query, page, limit })}
            />
          )}
        </>
      ) : (
        <Table<Order>
          rowKey="id"
          loading={isLoading}
          dataSource={data?.list}
          tableLayout="fixed"
          locale={{ emptyText: '暂无订单' }}
          pagination={pagination}
          expandable={{ expandedRowRender: (o) => <OrderDetails order={o} /> }}
          columns={[
            { title: '订单号', dataIndex: 'orderNo', width: 130, ellipsis: { showTitle: false }, render: cut },
            {
              title: '竞赛 / 队伍',
              ellipsis: { showTitle: false },
              render: (_, o) => (
                <Tooltip title={`${o.competitionName} · ${o.teamName}`} placement="topLeft">
                  <div>
                    <div className="cell-ellipsis">{o.competitionName}</div>
                    <div className="cell-ellipsis cell-note">{o.teamName}</div>
                  </div>
                </Tooltip>
              ),
            },
            { title: '金额', width: 90, align: 'right', render: (_, o) => `¥${fenToYuan(o.amount)}` },
            { title: '状态', width: 84, render: (_, o) => statusTag(o) },
            { title: '支付方式', width: 96, ellipsis: true, render: (_, o) => payMethod(o) },
            { title: '下单时间', width: 142, render: (_, o) => formatMinute(o.createdAt) },
            { title: '操作', width: 76, fixed: 'right', render: (_, o) => action(o) },
          ]}
        />
      )}
    </Card>
  );
}
