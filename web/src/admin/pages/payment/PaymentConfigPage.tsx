import { ACTION_CODES, PAYMENT_METHOD_MENUS, type PaymentConfigView } from '@contest/shared';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, Row, Space, Spin, Switch, Typography } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { usePermissions } from '#src/common/auth.ts';
import { showFieldErrors } from '#src/common/forms.ts';
import { paymentApi, paymentKeys } from '#src/api/payments.ts';
import { formatMinute } from '#src/common/time.ts';
import { useConfirm } from '../../components/useConfirm.ts';
import { useListMutation } from '#src/common/usePagedList.ts';
import { ActionLink } from '#src/common/ActionLink.tsx';

const KEY_PLACEHOLDER = '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----';

/** A secret's field: the stored value never comes back, only whether it is set. */
function SecretItem({ name, label, view, textarea }: { name: string; label: string; view: PaymentConfigView; textarea?: boolean }) {
  const state = view.secrets[name];
  const placeholder = state ? `${state}，留空则不修改` : textarea ? KEY_PLACEHOLDER : '';
  return (
    <Form.Item name={name} label={label} extra={state ? '出于安全考虑，已保存的密钥不会显示。' : undefined} required={!state}>
      {textarea ? (
        <Input.TextArea rows={4} placeholder={placeholder} autoComplete="off" />
      ) : (
        <Input.Password placeholder={placeholder} autoComplete="new-password" />
      )}
    </Form.Item>
  );
}

function ConfigCard({ method, children }: { method: number; children: (view: PaymentConfigView) => ReactNode }) {
  const { message } = App.useApp();
  const confirm = useConfirm();
  const canEdit = usePermissions().has(ACTION_CODES.paymentEdit);
  const [form] = Form.useForm();
  const menu = PAYMENT_METHOD_MENUS[method]!;
  const { data: view, isLoading } = useQuery({ queryKey: paymentKeys.config(method), queryFn: () => paymentApi.config(method) });
  const saving = useListMutation(
    (values: Record<string, unknown>) => paymentApi.saveConfig(method, values),
    [paymentKeys.config(method)],
    () => void message.success('支付配置已保存'),
  );
  const simulating = useListMutation(
    () => paymentApi.useSimulator(method),
    [paymentKeys.config(method)],
    () => void message.success('已填入支付模拟器的配置'),
  );
  // After each save the form shows what was stored, with the secret inputs emptied again.
  useEffect(() => {
    if (!view) return;
    form.resetFields();
    form.setFieldsValue({ enable: view.enable, ...view.settings });
  }, [view, form]);
  if (isLoading || !view) return <Spin />;

  async function save(values: Record<string, unknown>) {
    try {
      await saving.mutateAsync(values);
    } catch (err) {
      showFieldErrors(form, err);
    }
  }

  return (
    <Card
      title={`${menu.title}配置`}
      extra={
        view.simulator &&
        canEdit &&
        (method === 1 || method === 2) && (
          <Button onClick={() => confirm('用开发支付模拟器的密钥覆盖当前配置吗？模拟器只用于开发与测试，不会产生真实扣款。', () => simulating.mutateAsync())}>
            使用支付模拟器
          </Button>
        )
      }
    >
      {view.updatedAt && <Typography.Paragraph type="secondary">最后修改：{formatMinute(view.updatedAt)}</Typography.Paragraph>}
      <Form form={form} layout="vertical" onFinish={save} initialValues={{ enable: view.enable, ...view.settings }} disabled={!canEdit}>
        <Form.Item name="enable" label="启用" valuePropName="checked">
          <Switch checkedChildren="启用" unCheckedChildren="停用" />
        </Form.Item>
        {children(view)}
        {canEdit && (
          <Button type="primary" htmlType="submit" loading={saving.isPending}>
            保存
          </Button>
        )}
      </Form>
    </Card>
  );
}

const text = (name: string, label: string, required = true, extra?: string) => (
  <Form.Item name={name} label={label} rules={required ? [{ required: true, whitespace: true, message: `请输入${label}` }] : []} extra={extra}>
    <Input />
  </Form.Item>
);

export function AlipayConfigPage() {
  return (
    <ConfigCard method={2}>
      {(view) => (
        <Row gutter={24}>
          <Col xs={24} md={12}>
            {text('appId', '应用ID（APPID）')}
          </Col>
          <Col xs={24} md={12}>
            {text('sellerId', '商户PID', false, '填写后会核对通知中的收款方')}
          </Col>
          <Col span={24}>{text('gatewayUrl', '网关地址', true, '正式环境为 https://openapi.alipay.com/gateway.do')}</Col>
          <Col xs={24} md={12}>
            <SecretItem name="appPrivateKey" label="应用私钥（RSA2）" view={view} textarea />
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="alipayPublicKey" label="支付宝公钥" rules={[{ required: true, message: '请输入支付宝公钥' }]}>
              <Input.TextArea rows={4} placeholder="-----BEGIN PUBLIC KEY-----" />
            </Form.Item>
          </Col>
        </Row>
      )}
    </ConfigCard>
  );
}

export function WechatConfigPage() {
  return (
    <ConfigCard method={1}>
      {(view) => (
        <Row gutter={24}>
          <Col xs={24} md={12}>
            {text('appId', '公众号或应用AppID')}
          </Col>
          <Col xs={24} md={12}>
            {text('mchId', '商户号')}
          </Col>
          <Col xs={24} md={12}>
            {text('serialNo', '商户证书序列号')}
          </Col>
          <Col xs={24} md={12}>
            {text('apiBase', '接口地址', true, '正式环境为 https://api.mch.weixin.qq.com')}
          </Col>
          <Col xs={24} md={12}>
            <SecretItem name="privateKey" label="商户API私钥" view={view} textarea />
          </Col>
          <Col xs={24} md={12}>
            <SecretItem name="apiV3Key" label="APIv3密钥（32位）" view={view} />
          </Col>
          <Col xs={24} md={12}>
            {text('platformSerial', '平台证书序列号')}
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="platformPublicKey" label="平台公钥" rules={[{ required: true, message: '请输入平台公钥' }]}>
              <Input.TextArea rows={4} placeholder="-----BEGIN PUBLIC KEY-----" />
            </Form.Item>
          </Col>
        </Row>
      )}
    </ConfigCard>
  );
}

/** ICBC, CCB and custom methods: offline transfer accounts the payer sees. */
function OfflineConfigPage({ method }: { method: number }) {
  return (
    <ConfigCard method={method}>
      {() => (
        <>
          <Alert type="info" showIcon style={{ marginBottom: 16 }} message="付款人按以下账户转账并上传凭证，财务在“订单管理”中确认收款。" />
          <Form.List name="accounts">
            {(fields, { add, remove }) => (
              <>
                {fields.map((field) => (
                  <Card key={field.key} size="small" style={{ marginBottom: 12 }} extra={<ActionLink onClick={() => remove(field.name)}>删除</ActionLink>}>
                    <Row gutter={16}>
                      {(
                        [
                          ['name', '名称', true],
                          ['accountName', '户名', true],
                          ['accountNo', '账号', true],
                          ['bankName', '开户行', false],
                        ] as const
                      ).map(([name, label, required]) => (
                        <Col xs={24} md={12} key={name}>
                          <Form.Item
                            name={[field.name, name]}
                            label={label}
                            rules={required ? [{ required: true, whitespace: true, message: `请输入${label}` }] : []}
                          >
                            <Input />
                          </Form.Item>
                        </Col>
                      ))}
                      <Col span={24}>
                        <Form.Item name={[field.name, 'instructions']} label="付款说明">
                          <Input.TextArea rows={2} maxLength={1000} />
                        </Form.Item>
                      </Col>
                    </Row>
                  </Card>
                ))}
                <Space style={{ marginBottom: 16 }}>
                  <Button icon={<PlusOutlined />} disabled={fields.length >= 10} onClick={() => add({})}>
                    添加收款账户
                  </Button>
                </Space>
              </>
            )}
          </Form.List>
        </>
      )}
    </ConfigCard>
  );
}

export const IcbcConfigPage = () => <OfflineConfigPage method={4} />;
export const CcbConfigPage = () => <OfflineConfigPage method={5} />;
export const CustomConfigPage = () => <OfflineConfigPage method={6} />;
