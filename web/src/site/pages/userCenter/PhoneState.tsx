import type { UserInfo } from '@contest/shared';
import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { accountApi } from '#src/api/users.ts';
import { SmsCodeButton } from '#src/common/SmsCodeButton.tsx';
import { useRefreshUser } from '#src/common/auth.ts';
import { showFieldErrors } from '#src/common/forms.ts';
import { useAuthConfig } from '#src/common/siteConfig.ts';
import { codeRules, phoneRules } from '../auth/SmsLoginForm.tsx';

/**
 * The phone, whether it is verified, and the way to verify it: a code sent to it (issue 35). A verified phone signs in
 * by code and resets a forgotten password; it belongs to this account only.
 */
export function PhoneState({ user }: { user: UserInfo }) {
  const { data: config } = useAuthConfig();
  const { message } = App.useApp();
  const refresh = useRefreshUser();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ phone: string; code: string }>();

  async function verify({ phone, code }: { phone: string; code: string }) {
    setSaving(true);
    try {
      await accountApi.verifyPhone(phone.trim(), code.trim());
      void message.success('手机号验证成功');
      setOpen(false);
      await refresh();
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSaving(false);
    }
  }

  const button = config?.smsEnabled && !user.phoneVerified && (
    <Button
      size="small"
      onClick={() => {
        form.setFieldsValue({ phone: user.phone ?? '', code: '' });
        setOpen(true);
      }}
    >
      验证手机号
    </Button>
  );
  return (
    <>
      <Space wrap size={8}>
        {user.phone ? <span>{user.phone}</span> : <Typography.Text type="secondary">未填写</Typography.Text>}
        {user.phone && (user.phoneVerified ? <Tag color="success">已验证</Tag> : <Tag color="warning">未验证</Tag>)}
        {button}
      </Space>
      <Modal
        title="验证手机号"
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText="验证"
        cancelText="取消"
        confirmLoading={saving}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">验证后可用该手机号接收验证码登录、找回密码。一个手机号只能验证一个账号。</Typography.Paragraph>
        <Form form={form} onFinish={verify} layout="vertical">
          <Form.Item name="phone" label="手机号" rules={phoneRules}>
            <Input prefix={<MobileOutlined />} autoComplete="tel" inputMode="tel" />
          </Form.Item>
          <Form.Item label="验证码" required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="code" rules={codeRules} noStyle>
                <Input prefix={<SafetyOutlined />} placeholder="6位验证码" autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
              </Form.Item>
              <SmsCodeButton
                phone={async () => (await form.validateFields(['phone'])).phone.trim()}
                send={async (phone, altcha) => {
                  await accountApi.sendPhoneCode(phone, altcha);
                  void message.success('验证码已发送，10分钟内有效');
                }}
              />
            </Space.Compact>
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
