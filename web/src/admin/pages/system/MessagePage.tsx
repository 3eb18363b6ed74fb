import { ACTION_CODES, SMS_PROVIDERS, SMS_TEMPLATE_LABELS, isValidPhone, type SmsConfigBody, type SmsConfigView } from '@contest/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, Radio, Row, Space, Spin, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { smsApi, smsKeys } from '#src/api/sms.ts';
import { usePermissions } from '#src/common/auth.ts';
import { ruleFrom, showFieldErrors } from '#src/common/forms.ts';
import { formatMinute } from '#src/common/time.ts';
import { useListMutation } from '#src/common/usePagedList.ts';

type Values = Omit<SmsConfigBody, 'accessKeySecret'> & { accessKeySecret?: string };

const aliyunExample = { code: 'SMS_123456789', notice: 'SMS_123456790', reminder: 'SMS_123456791' };
const tencentExample = { code: '1234567', notice: '1234568', reminder: '1234569' };

/** How each purpose's template must be written at the provider, with the parameters the platform fills in. */
function templateHint(view: SmsConfigView, provider: Values['provider'], purpose: keyof SmsConfigView['templateParams']) {
  const names = view.templateParams[purpose];
  return provider === 'tencent' ? `参数依次为 ${names.map((n, i) => `{${i + 1}}=${n}`).join('，')}` : `参数：${names.map((n) => `\${${n}}`).join('，')}`;
}

/** 消息服务 (issue 35): the platform's SMS provider, its templates, a test send, and the development simulator. */
export default function MessagePage() {
  const { message } = App.useApp();
  const canEdit = usePermissions().has(ACTION_CODES.messagingEdit);
  const [form] = Form.useForm<Values>();
  const [testForm] = Form.useForm<{ phone: string }>();
  const provider = Form.useWatch('provider', form) ?? 'aliyun';
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const { data: view, isLoading } = useQuery({ queryKey: smsKeys.config, queryFn: () => smsApi.config() });
  const saving = useListMutation(
    (values: SmsConfigBody) => smsApi.save(values),
    [smsKeys.config],
    () => void message.success('短信配置已保存'),
  );
  useEffect(() => {
    if (!view) return;
    form.resetFields();
    form.setFieldsValue({
      provider: view.provider,
      enable: view.enable,
      accessKeyId: view.accessKeyId,
      signName: view.signName,
      sdkAppId: view.sdkAppId,
      templates: view.templates,
    });
  }, [view, form]);
  if (isLoading || !view) return <Spin />;
  const secretSet = view.provider === provider ? view.accessKeySecret : null;

  async function save(values: Values) {
    try {
      const { accessKeySecret, ...rest } = values;
      await saving.mutateAsync({ ...rest, ...(accessKeySecret ? { accessKeySecret } : {}), sdkAppId: values.sdkAppId ?? '' });
    } catch (err) {
      showFieldErrors(form, err);
    }
  }

  function fillSimulator() {
    const sim = view?.simulator;
    if (!sim) return;
    const keys =
      provider === 'tencent'
        ? { accessKeyId: sim.tencent.secretId, accessKeySecret: sim.tencent.secretKey, sdkAppId: sim.tencent.sdkAppId, templates: tencentExample }
        : { accessKeyId: sim.aliyun.accessKeyId, accessKeySecret: sim.aliyun.accessKeySecret, templates: aliyunExample };
    form.setFieldsValue({ ...keys, signName: form.getFieldValue('signName') || '竞赛平台', enable: true });
    void message.info('已填入模拟器的密钥和示例模板，保存后生效');
  }

  async function test({ phone }: { phone: string }) {
    setTesting(true);
    setTestResult(null);
    try {
      const { providerMessageId } = await smsApi.test(phone.trim());
      setTestResult({ ok: true, text: `测试短信已发出，服务商回执编号 ${providerMessageId}` });
    } catch (err) {
      setTestResult({ ok: false, text: (err as Error).message });
    } finally {
      setTesting(false);
    }
  }

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      {view.simulator && (
        <Alert
          type="warning"
          showIcon
          message="短信模拟器已开启（SMS_SIMULATOR，仅限开发与测试）"
          description={
            <>
              所有短信都发到模拟器，不会发到真实手机；模拟器按服务商的协议校验签名和参数。发出的短信在
              <a href={view.simulator.page} target="_blank" rel="noreferrer">
                短信模拟器页面
              </a>
              查看。
            </>
          }
          action={
            canEdit && (
              <Button size="small" onClick={fillSimulator}>
                填入模拟器参数
              </Button>
            )
          }
        />
      )}
      <Card title="短信服务">
        {view.updatedAt && <Typography.Paragraph type="secondary">最后修改：{formatMinute(view.updatedAt)}</Typography.Paragraph>}
        <Form form={form} layout="vertical" onFinish={save} disabled={!canEdit}>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item name="provider" label="短信服务商">
                <Radio.Group optionType="button" options={Object.entries(SMS_PROVIDERS).map(([value, label]) => ({ value, label }))} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="enable" label="启用" valuePropName="checked" extra="启用后，登录页提供短信验证码登录，忘记密码可用手机验证码找回。">
                <Switch checkedChildren="启用" unCheckedChildren="停用" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="accessKeyId" label={provider === 'tencent' ? 'SecretId' : 'AccessKey ID'}>
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="accessKeySecret"
                label={provider === 'tencent' ? 'SecretKey' : 'AccessKey Secret'}
                extra={secretSet ? '出于安全考虑，已保存的密钥不会显示。' : undefined}
              >
                <Input.Password placeholder={secretSet ? `${secretSet}，留空则不修改` : ''} autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="signName" label="短信签名" extra="在服务商处审核通过的签名，如“竞赛平台”，不含【】">
                <Input />
              </Form.Item>
            </Col>
            {provider === 'tencent' && (
              <Col xs={24} md={12}>
                <Form.Item name="sdkAppId" label="短信应用 SdkAppId">
                  <Input />
                </Form.Item>
              </Col>
            )}
            {(Object.keys(SMS_TEMPLATE_LABELS) as (keyof typeof SMS_TEMPLATE_LABELS)[]).map((purpose) => (
              <Col xs={24} md={8} key={purpose}>
                <Form.Item name={['templates', purpose]} label={`${SMS_TEMPLATE_LABELS[purpose]}模板ID`} extra={templateHint(view, provider, purpose)}>
                  <Input placeholder={(provider === 'tencent' ? tencentExample : aliyunExample)[purpose]} />
                </Form.Item>
              </Col>
            ))}
          </Row>
          {canEdit && (
            <Button type="primary" htmlType="submit" loading={saving.isPending}>
              保存
            </Button>
          )}
        </Form>
      </Card>
      <Card title="测试发送">
        <Typography.Paragraph type="secondary">用已保存的配置和验证码模板立即发送一条测试短信（验证码 123456），显示服务商的答复。</Typography.Paragraph>
        <Form form={testForm} layout="inline" onFinish={test} disabled={!canEdit}>
          <Form.Item name="phone" rules={[{ required: true, message: '请输入手机号' }, ruleFrom((v) => (isValidPhone(v.trim()) ? null : '手机号格式不正确'))]}>
            <Input placeholder="接收测试短信的手机号" style={{ width: 220 }} inputMode="tel" />
          </Form.Item>
          <Button htmlType="submit" loading={testing}>
            发送测试短信
          </Button>
        </Form>
        {testResult && <Alert style={{ marginTop: 16 }} type={testResult.ok ? 'success' : 'error'} showIcon message={testResult.text} />}
      </Card>
    </Space>
  );
}
