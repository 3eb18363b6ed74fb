import { TAX_NO, TAX_NO_MESSAGE, TITLE_KINDS, type InvoiceTitle, type InvoiceTitleBody } from '@contest/shared';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Radio, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { invoiceApi, invoiceKeys } from '#src/api/invoices.ts';
import { FormModal } from '#src/common/FormModal.tsx';
import { ActionLink } from '#src/common/ActionLink.tsx';

export const useInvoiceTitles = () => useQuery({ queryKey: invoiceKeys.titles, queryFn: () => invoiceApi.titles() });

/** Bank details matter for a company title only (and are required for a special VAT invoice). */
function CompanyFields() {
  const kind = Form.useWatch('kind', Form.useFormInstance());
  if (kind !== 'company') return null;
  return (
    <>
      <Form.Item
        name="taxNo"
        label="纳税人识别号"
        rules={[
          { required: true, message: '单位抬头须填写纳税人识别号' },
          { pattern: TAX_NO, message: TAX_NO_MESSAGE },
        ]}
        normalize={(v: string) => v?.toUpperCase()}
      >
        <Input maxLength={18} />
      </Form.Item>
      <Form.Item name="bank" label="开户银行（专用发票必填）">
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="bankAccount" label="银行账号（专用发票必填）">
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="address" label="注册地址（专用发票必填）">
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="phone" label="注册电话（专用发票必填）">
        <Input maxLength={30} />
      </Form.Item>
    </>
  );
}

function TitleModal({ title, onClose }: { title: InvoiceTitle | null; onClose: () => void }) {
  const { message } = App.useApp();
  const client = useQueryClient();
  async function save(values: InvoiceTitleBody) {
    if (title) await invoiceApi.updateTitle(title.id, values);
    else await invoiceApi.createTitle(values);
    void message.success('发票抬头已保存');
    await client.invalidateQueries({ queryKey: invoiceKeys.titles });
  }
  return (
    <FormModal<InvoiceTitleBody>
      title={title ? '编辑发票抬头' : '新增发票抬头'}
      name="title"
      initialValues={title ?? { kind: 'personal' }}
      onSave={save}
      onClose={onClose}
    >
      <Form.Item name="kind" label="抬头类型">
        <Radio.Group options={Object.entries(TITLE_KINDS).map(([value, label]) => ({ value, label }))} />
      </Form.Item>
      <Form.Item name="name" label="发票抬头" rules={[{ required: true, whitespace: true, message: '请输入发票抬头' }]}>
        <Input maxLength={200} />
      </Form.Item>
      <CompanyFields />
    </FormModal>
  );
}

/** `/userCenter/invoiceTitle`: the user's common invoice titles. */
export default function InvoiceTitlePage() {
  const { data, isLoading } = useInvoiceTitles();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [editing, setEditing] = useState<InvoiceTitle | null | undefined>(undefined);
  const remove = (t: InvoiceTitle) =>
    modal.confirm({
      title: '提示',
      content: `确定删除发票抬头“${t.name}”吗？已提交的发票申请不受影响。`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        await invoiceApi.removeTitle(t.id);
        void message.success('发票抬头已删除');
        await client.invalidateQueries({ queryKey: invoiceKeys.titles });
      },
    });
  return (
    <Card
      title="常用发票抬头"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
          新增抬头
        </Button>
      }
    >
      <Table<InvoiceTitle>
        rowKey="id"
        loading={isLoading}
        dataSource={data}
        pagination={false}
        locale={{ emptyText: '暂无发票抬头' }}
        columns={[
          { title: '类型', width: 80, render: (_, t) => <Tag>{TITLE_KINDS[t.kind]}</Tag> },
          { title: '发票抬头', dataIndex: 'name' },
          { title: '纳税人识别号', dataIndex: 'taxNo' },
          { title: '开户银行', dataIndex: 'bank' },
          {
            title: '操作',
            width: 120,
            render: (_, t) => (
              <Space>
                <ActionLink onClick={() => setEditing(t)}>编辑</ActionLink>
                <ActionLink onClick={() => remove(t)}>删除</ActionLink>
              </Space>
            ),
          },
        ]}
      />
      {editing !== undefined && <TitleModal title={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
