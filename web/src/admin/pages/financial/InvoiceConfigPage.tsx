import { ACTION_CODES, INVOICE_TYPES, TAX_NO, TAX_NO_MESSAGE, type InvoiceConfig } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Form, Input, Spin, Switch, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { usePermissions } from '#src/common/auth.ts';
import { showFieldErrors } from '#src/common/forms.ts';
import { invoiceApi, invoiceKeys } from '#src/api/invoices.ts';
import { formatMinute } from '#src/common/time.ts';
import { DateTimePicker } from '../../components/DateTimePicker.tsx';
import { useListMutation } from '#src/common/usePagedList.ts';
import { fromPickerOrNull, toPickerOrNull } from '#src/common/beijing.ts';

type Values = Omit<InvoiceConfig, 'applyStart' | 'applyEnd' | 'updatedAt'> & { applyStart?: Dayjs | null; applyEnd?: Dayjs | null };

/** Who issues the invoices, which types may be asked for, and when. */
export default function InvoiceConfigPage() {
  const { message } = App.useApp();
  const canEdit = usePermissions().has(ACTION_CODES.invoiceConfigEdit);
  const [form] = Form.useForm<Values>();
  const { data, isLoading } = useQuery({ queryKey: invoiceKeys.config, queryFn: invoiceApi.config });
  const saving = useListMutation(invoiceApi.saveConfig, [invoiceKeys.config], () => void message.success('发票配置已保存'));
  if (isLoading || !data) return <Spin />;

  async function save(v: Values) {
    try {
      await saving.mutateAsync({ ...v, applyStart: fromPickerOrNull(v.applyStart), applyEnd: fromPickerOrNull(v.applyEnd) });
    } catch (err) {
      showFieldErrors(form, err);
    }
  }

  return (
    <Card title="发票配置">
      {!canEdit && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16, maxWidth: 640 }}
          message="发票配置由平台管理员统一设置，此处仅供查看"
          description="开票单位、可申请的发票类型和申请时间对平台上所有竞赛相同。本组织的竞赛是否开放发票申请，在竞赛的「基本信息」中勾选「开放发票申请」；如需修改以下配置，请联系平台管理员。"
        />
      )}
      {data.updatedAt && <Typography.Paragraph type="secondary">最后修改：{formatMinute(data.updatedAt)}</Typography.Paragraph>}
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 640 }}
        disabled={!canEdit}
        onFinish={save}
        initialValues={{ ...data, applyStart: toPickerOrNull(data.applyStart), applyEnd: toPickerOrNull(data.applyEnd) }}
      >
        <Form.Item
          name="enable"
          label="平台开放发票申请"
          valuePropName="checked"
          extra="关闭后所有竞赛都暂停发票申请；开启时，由各竞赛在「基本信息」中决定是否开放"
        >
          <Switch checkedChildren="开放" unCheckedChildren="关闭" />
        </Form.Item>
        <Form.Item name="issuerName" label="开票单位" rules={[{ required: true, whitespace: true, message: '请输入开票单位' }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="issuerTaxNo"
          label="开票单位纳税人识别号"
          rules={[
            { required: true, message: '请输入开票单位纳税人识别号' },
            { pattern: TAX_NO, message: TAX_NO_MESSAGE },
          ]}
          normalize={(v: string) => v?.toUpperCase()}
        >
          <Input maxLength={18} />
        </Form.Item>
        <Form.Item name="allowedTypes" label="可申请的发票类型" rules={[{ required: true, message: '请至少选择一种发票类型' }]}>
          <Checkbox.Group options={Object.entries(INVOICE_TYPES).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
        <Form.Item name="applyStart" label="申请开始时间（可选）">
          <DateTimePicker />
        </Form.Item>
        <Form.Item name="applyEnd" label="申请截止时间（可选）">
          <DateTimePicker />
        </Form.Item>
        <Form.Item name="notice" label="开票说明（申请时向用户展示）">
          <Input.TextArea rows={3} maxLength={1000} showCount />
        </Form.Item>
        {canEdit && (
          <Button type="primary" htmlType="submit" loading={saving.isPending}>
            保存
          </Button>
        )}
      </Form>
    </Card>
  );
}
