import { isValidPhone } from '@contest/shared';
import { MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { App, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { authApi } from '#src/api/auth.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { SmsCodeButton } from '#src/common/SmsCodeButton.tsx';
import { afterLogin } from '#src/common/desktopLaunch.ts';
import { ruleFrom, showFieldErrors } from '#src/common/forms.ts';
import { LOGIN_FLAG_KEY } from '#src/common/storage.ts';

export const phoneRules = [{ required: true, message: '请输入手机号' }, ruleFrom((v) => (isValidPhone(v.trim()) ? null : '手机号格式不正确'))];
export const codeRules = [
  { required: true, message: '请输入验证码' },
  { pattern: /^\d{6}$/, message: '验证码为6位数字' },
];

/** 短信验证码登录: a code to the phone, then signed in; a phone no account verified gets a new account. */
export function SmsLoginForm() {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ phone: string; code: string }>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish({ phone, code }: { phone: string; code: string }) {
    setSubmitting(true);
    try {
      const { created } = await authApi.smsLogin(phone.trim(), code.trim());
      localStorage.setItem(LOGIN_FLAG_KEY, '1');
      if (created) await message.success('已用该手机号注册并登录，可在个人中心的“账号设置”里设置密码', 2);
      location.href = await afterLogin();
    } catch (err) {
      showFieldErrors(form, err);
      setSubmitting(false);
    }
  }

  return (
    <Form form={form} size="large" onFinish={onFinish}>
      <Form.Item name="phone" rules={phoneRules}>
        <Input prefix={<MobileOutlined />} placeholder="手机号" autoComplete="tel" inputMode="tel" />
      </Form.Item>
      <Form.Item required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" rules={codeRules} noStyle>
            <Input prefix={<SafetyOutlined />} placeholder="6位验证码" autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
          </Form.Item>
          <SmsCodeButton
            phone={async () => (await form.validateFields(['phone'])).phone.trim()}
            send={async (phone, altcha) => {
              await authApi.smsCode(phone, 'login', altcha);
              void message.success('验证码已发送，10分钟内有效');
            }}
          />
        </Space.Compact>
      </Form.Item>
      <Typography.Paragraph type="secondary" style={{ fontSize: 13, marginTop: -8 }}>
        未注册的手机号验证后将自动注册账号
      </Typography.Paragraph>
      <GuardedButton type="primary" htmlType="submit" block loading={submitting}>
        登录
      </GuardedButton>
    </Form>
  );
}
