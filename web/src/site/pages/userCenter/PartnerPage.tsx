import { ORG_KINDS, PARTNER_STATUS, type PartnerApplication, type PartnerApplyBody } from '@contest/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Radio, Result, Space, Table, Tag } from 'antd';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { showFieldErrors } from '#src/common/forms.ts';
import { partnerApi, partnerKeys } from '#src/api/orgs.ts';
import { formatMinute } from '#src/common/time.ts';

const STATUS: Record<number, { text: string; color: string }> = {
  [PARTNER_STATUS.pending]: { text: '待审核', color: 'processing' },
  [PARTNER_STATUS.approved]: { text: '已通过', color: 'success' },
  [PARTNER_STATUS.rejected]: { text: '已驳回', color: 'error' },
};

/** A school or company applies to become an organiser; the platform administrator decides. */
export default function PartnerPage() {
  const { message } = App.useApp();
  const [form] = Form.useForm<PartnerApplyBody>();
  const client = useQueryClient();
  const mine = useQuery({ queryKey: partnerKeys.mine, queryFn: () => partnerApi.mine() });
  const pending = mine.data?.list.some((a) => a.status === PARTNER_STATUS.pending);
  const approved = mine.data?.list.find((a) => a.status === PARTNER_STATUS.approved);

  async function submit(values: PartnerApplyBody) {
    try {
      await partnerApi.apply(values);
      void message.success('申请已提交，请等待平台审核');
      form.resetFields();
      await client.invalidateQueries({ queryKey: partnerKeys.mine });
    } catch (err) {
      showFieldErrors(form, err);
    }
  }

  return (
    <Space direction="vertical" size={24} style={{ width: '100%' }}>
      <Card title="申请成为组织方">
        {approved ? (
          // Once approved, the next step is the back office, not a second application.
          <Result
            status="success"
            title={`“${approved.orgName}”已成为组织方`}
            subTitle="您的账号已是该机构的组织方管理员：在管理后台的「竞赛管理」中新建竞赛，按「上线准备」的提示补齐后提交审核。"
            extra={
              <Button type="primary" href="/backadmin.html">
                进入管理后台
              </Button>
            }
          />
        ) : pending ? (
          <Tag color="processing">您有一份申请正在审核中，审核结果会显示在下方</Tag>
        ) : (
          <Form form={form} layout="vertical" onFinish={submit} initialValues={{ kind: 'school' }} style={{ maxWidth: 520 }}>
            <Form.Item name="name" label="机构名称" rules={[{ required: true, message: '请输入机构名称' }]}>
              <Input placeholder="学校或企业的全称" />
            </Form.Item>
            <Form.Item name="kind" label="机构类型">
              <Radio.Group options={Object.entries(ORG_KINDS).map(([value, label]) => ({ value, label }))} />
            </Form.Item>
            <Form.Item name="contactName" label="联系人" rules={[{ required: true, message: '请输入联系人' }]}>
              <Input />
            </Form.Item>
            <Form.Item name="contactPhone" label="联系电话" rules={[{ required: true, message: '请输入联系电话' }]}>
              <Input />
            </Form.Item>
            <Form.Item name="contactEmail" label="联系邮箱">
              <Input />
            </Form.Item>
            <Form.Item name="description" label="申请说明">
              <Input.TextArea rows={3} maxLength={1000} showCount placeholder="计划举办的竞赛、面向的对象等" />
            </Form.Item>
            <GuardedButton type="primary" htmlType="submit">
              提交申请
            </GuardedButton>
          </Form>
        )}
      </Card>
      <Card title="我的申请">
        <Table<PartnerApplication>
          rowKey="id"
          loading={mine.isLoading}
          dataSource={mine.data?.list}
          pagination={false}
          locale={{ emptyText: '暂无申请记录' }}
          columns={[
            { title: '机构名称', dataIndex: 'orgName' },
            { title: '类型', render: (_, a) => ORG_KINDS[a.kind] },
            { title: '提交时间', render: (_, a) => formatMinute(a.createdAt) },
            { title: '状态', render: (_, a) => <Tag color={STATUS[a.status]!.color}>{STATUS[a.status]!.text}</Tag> },
            { title: '审核意见', dataIndex: 'reason' },
          ]}
        />
      </Card>
    </Space>
  );
}
