import { PAY_METHOD_TEXT, PAY_STATUS, PAY_STATUS_TEXT, fenToYuan, type Order, type Page } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { textOptions } from '../../../common/forms.ts';
import { http } from '../../../common/http.ts';
import { pager } from '../../../common/pager.ts';
import { formatMinute } from '../../../common/time.ts';
import { PAY_STATUS_COLORS } from './PaymentPage.tsx';

/** `/userCenter/myOrder`: the orders of every team the user is in. */
export default function MyOrderPage() {
  const [query, setQuery] = useState<{ page: number; limit: number; payStatus?: number }>({ page: 1, limit: 20 });
  const { data, isLoading } = useQuery({ queryKey: ['myOrders', query], queryFn: () => http.get<Page<Order>>('/api/order/person/page', { ...query }) });
  return (
    <Card
      title="我的订单"
      extra={
        <Select
          allowClear
          placeholder="全部状态"
          style={{ width: 140 }}
          options={textOptions(PAY_STATUS_TEXT)}
          onChange={(payStatus?: number) => setQuery({ ...query, payStatus, page: 1 })}
        />
      }
    >
      <Table<Order>
        rowKey="id"
        loading={isLoading}
        dataSource={data?.list}
        scroll={{ x: 1000 }}
        locale={{ emptyText: '暂无订单' }}
        pagination={pager(data, (page, limit) => setQuery({ ...query, page, limit }))}
        columns={[
          { title: '订单号', dataIndex: 'orderNo', width: 190 },
          { title: '竞赛', dataIndex: 'competitionName', width: 200 },
          { title: '队伍', dataIndex: 'teamName', width: 140 },
          { title: '金额', width: 100, render: (_, o) => `¥${fenToYuan(o.amount)}` },
          { title: '状态', width: 90, render: (_, o) => <Tag color={PAY_STATUS_COLORS[o.payStatus]}>{PAY_STATUS_TEXT[o.payStatus]}</Tag> },
          { title: '支付方式', width: 110, render: (_, o) => (o.payMethod ? PAY_METHOD_TEXT[o.payMethod] : '') },
          { title: '下单时间', width: 150, render: (_, o) => formatMinute(o.createdAt) },
          {
            title: '操作',
            width: 90,
            fixed: 'right',
            render: (_, o) => <Link to={`/payment/${o.competitionId}/${o.id}`}>{o.payStatus === PAY_STATUS.unpaid && !o.voucher ? '去支付' : '查看'}</Link>,
          },
        ]}
      />
    </Card>
  );
}
