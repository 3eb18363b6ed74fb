import { ACTION_CODES, PAY_METHOD_TEXT, PAY_STATUS, PAY_STATUS_TEXT, fenToYuan, type SchoolOrder } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Form, Input, Select, Table, Tag, Tooltip } from 'antd';
import { FormModal } from '#src/common/FormModal.tsx';
import { useState } from 'react';
import { orderApi, orderKeys } from '#src/api/orders.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';
import { usePermissions } from '#src/common/auth.ts';
import { fileUrl } from '#src/common/files.ts';
import { textOptions } from '#src/common/forms.ts';
import { formatMinute } from '#src/common/time.ts';
import { useListMutation } from '#src/common/usePagedList.ts';
import { FilterForm } from '../../components/FilterForm.tsx';
import { useConfirm } from '../../components/useConfirm.ts';

const COLORS: Record<number, string> = { 0: 'warning', 1: 'success', 2: 'default', 3: 'default' };

/**
 * 学校统一缴费 on 订单管理: the schools' orders, each paying for many teams. Finance confirms a school's transfer, which pays
 * every team's order in it at once.
 */
export function SchoolOrderList() {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canEdit = usePermissions().has(ACTION_CODES.orderEdit);
  const [query, setQuery] = useState<{ page: number; limit: number; payStatus?: number; keyword?: string }>({ page: 1, limit: 20 });
  const list = useQuery({ queryKey: orderKeys.schoolList(query), queryFn: () => orderApi.schoolList(query) });
  const confirmOne = useListMutation(orderApi.confirmSchool, [orderKeys.all], () => void message.success('已确认收款，所含队伍的订单均已支付'));
  const [refunding, setRefunding] = useState<SchoolOrder | null>(null);
  const refund = useListMutation(
    (reason: string) => orderApi.refundSchool(refunding!.id, reason),
    [orderKeys.all],
    () => {
      void message.success('已退款，所含队伍的订单均已退款');
      setRefunding(null);
    },
  );
  return (
    <>
      <FilterForm<{ payStatus?: number; keyword?: string }>
        initialValues={{ payStatus: query.payStatus, keyword: query.keyword }}
        keywordPlaceholder="订单号或学校"
        onSearch={(f) => setQuery({ ...query, ...f, page: 1 })}
      >
        <Form.Item name="payStatus" label="状态">
          <Select allowClear placeholder="全部" style={{ width: 110 }} options={textOptions(PAY_STATUS_TEXT)} />
        </Form.Item>
      </FilterForm>
      <Table<SchoolOrder>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: '暂无学校统一缴费订单' }}
        scroll={{ x: 1300 }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: list.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (page, limit) => setQuery({ ...query, page, limit }),
        }}
        expandable={{
          expandedRowRender: (o) => o.teams.map((t) => `${t.teamName}（${t.teamNo}，订单 ${t.orderNo}）`).join('；'),
        }}
        columns={[
          { title: '订单号', dataIndex: 'orderNo', width: 200 },
          { title: '竞赛', dataIndex: 'competitionName', width: 200 },
          { title: '学校', dataIndex: 'schoolName', width: 180 },
          { title: '队伍数', dataIndex: 'teamCount', width: 80 },
          { title: '金额', width: 110, render: (_, o) => `¥${fenToYuan(o.amount)}` },
          {
            title: '状态',
            width: 130,
            render: (_, o) => (
              <>
                <Tag color={COLORS[o.payStatus]}>{PAY_STATUS_TEXT[o.payStatus]}</Tag>
                {o.refundFlag && (
                  <Tooltip title="订单关闭后仍收到了支付通知，请核对并退款">
                    <Tag color="red">待退款</Tag>
                  </Tooltip>
                )}
              </>
            ),
          },
          { title: '支付方式', width: 110, render: (_, o) => (o.payMethod ? PAY_METHOD_TEXT[o.payMethod] : '') },
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
          { title: '下单人', dataIndex: 'username', width: 120 },
          { title: '下单时间', width: 150, render: (_, o) => formatMinute(o.createdAt) },
          { title: '支付时间', width: 150, render: (_, o) => (o.paidAt ? formatMinute(o.paidAt) : '') },
          {
            title: '操作',
            width: 100,
            fixed: 'right',
            render: (_, o) =>
              canEdit &&
              (o.payStatus === PAY_STATUS.unpaid && o.voucher ? (
                <ActionLink
                  onClick={() =>
                    confirm(`确定已收到${o.schoolName}的转账 ¥${fenToYuan(o.amount)}（订单 ${o.orderNo}，${o.teamCount}支队伍）吗？`, () =>
                      confirmOne.mutateAsync(o.id),
                    )
                  }
                >
                  确认收款
                </ActionLink>
              ) : o.payStatus === PAY_STATUS.paid ? (
                <ActionLink onClick={() => setRefunding(o)}>退款</ActionLink>
              ) : null),
          },
        ]}
      />
      {refunding && (
        <FormModal<{ reason: string }>
          title={`退款：${refunding.schoolName}统一缴费订单 ${refunding.orderNo}（¥${fenToYuan(refunding.amount)}，${refunding.teamCount}支队伍）`}
          okText="退款"
          onClose={() => setRefunding(null)}
          onSave={({ reason }) => refund.mutateAsync(reason)}
        >
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message="订单及其中全部队伍的订单将标记为已退款；如已开具发票，请另行冲红。只退其中一支队伍时，请在“全部”中退该队伍的订单。"
          />
          <Form.Item name="reason" label="退款原因" rules={[{ required: true, whitespace: true, message: '请输入退款原因' }]}>
            <Input.TextArea maxLength={500} rows={3} />
          </Form.Item>
        </FormModal>
      )}
    </>
  );
}
