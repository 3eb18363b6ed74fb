import { EMAIL_MESSAGE, FORGOT_ANSWER, PASSWORD_HINT, SMS_CODE_ANSWER, checkPasswordStrength, isValidEmail } from '@contest/shared';
import { LockOutlined, MailOutlined, MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { Alert, App, Card, Form, Input, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { authApi } from '#src/api/auth.ts';
import { accountApi } from '#src/api/users.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { SmsCodeButton } from '#src/common/SmsCodeButton.tsx';
import { ruleFrom, sameAsRule, showFieldErrors } from '#src/common/forms.ts';
import { useAuthConfig } from '#src/common/siteConfig.ts';
import { codeRules, phoneRules } from './SmsLoginForm.tsx';

/** 忘记密码 by email: a reset link goes to the account's verified email; the page says the same whatever the address. */
function ByEmail() {
  const [form] = Form.useForm<{ email: string }>();
  const [submitting, setSubmitting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function onFinish({ email }: { email: string }) {
    setSubmitting(true);
    try {
      await accountApi.forgotPassword(email);
      setSentTo(email.trim());
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSubmitting(false);
    }
  }

  if (sentTo) return <Alert type="success" showIcon message={FORGOT_ANSWER} description={`邮箱：${sentTo}。没有收到？请查看垃圾邮件，或一分钟后再试。`} />;
  return (
    <>
      <Typography.Paragraph type="secondary">输入账号已验证的邮箱，我们会发送一封重置密码的邮件。</Typography.Paragraph>
      <Form form={form} size="large" onFinish={onFinish}>
        <Form.Item name="email" rules={[{ required: true, message: '请输入邮箱' }, ruleFrom((v) => (isValidEmail(v) ? null : EMAIL_MESSAGE))]}>
          <Input prefix={<MailOutlined />} placeholder="已验证的邮箱" autoComplete="email" />
        </Form.Item>
        <GuardedButton type="primary" htmlType="submit" block loading={submitting}>
          发送重置邮件
        </GuardedButton>
      </Form>
    </>
  );
}

type SmsValues = { phone: string; code: string; password: string; confirm: string };

/** 忘记密码 by SMS: a code to the account's verified phone, then a new password; every session of the account ends. */
function BySms() {
  const { message } = App.useApp();
  const [form] = Form.useForm<SmsValues>();
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState(false);

  async function onFinish({ phone, code, password }: SmsValues) {
    setSubmitting(true);
    try {
      await accountApi.resetPasswordBySms(phone.trim(), code.trim(), password);
      setDone(true);
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSubmitting(false);
    }
  }

  if (done)
    return (
      <Alert
        type="success"
        showIcon
        message="密码已重置"
        description={
          <>
            该账号在所有设备上的登录均已退出。请<Link to="/login">用新密码登录</Link>。
          </>
        }
      />
    );
  return (
    <>
      <Typography.Paragraph type="secondary">输入账号已验证的手机号，获取验证码后设置新密码。</Typography.Paragraph>
      <Form form={form} size="large" onFinish={onFinish}>
        <Form.Item name="phone" rules={phoneRules}>
          <Input prefix={<MobileOutlined />} placeholder="已验证的手机号" autoComplete="tel" inputMode="tel" />
        </Form.Item>
        <Form.Item required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="code" rules={codeRules} noStyle>
              <Input prefix={<SafetyOutlined />} placeholder="6位验证码" autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
            </Form.Item>
            <SmsCodeButton
              phone={async () => (await form.validateFields(['phone'])).phone.trim()}
              send={async (phone, altcha) => {
                await authApi.smsCode(phone, 'reset', altcha);
                void message.info(SMS_CODE_ANSWER, 5);
              }}
            />
          </Space.Compact>
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: '请输入新密码' }, ruleFrom(checkPasswordStrength)]} extra={PASSWORD_HINT}>
          <Input.Password prefix={<LockOutlined />} placeholder="新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="confirm" dependencies={['password']} rules={[{ required: true, message: '请再次输入新密码' }, sameAsRule('password')]}>
          <Input.Password prefix={<LockOutlined />} placeholder="确认新密码" autoComplete="new-password" />
        </Form.Item>
        <GuardedButton type="primary" htmlType="submit" block loading={submitting}>
          重置密码
        </GuardedButton>
      </Form>
    </>
  );
}

/** 找回密码: by a link to the verified email, or by a code to the verified phone, whichever the platform sends. */
export default function ForgotPasswordPage() {
  const { data: config } = useAuthConfig();
  const ways = [
    ...(config?.mailEnabled ? [{ key: 'email', label: '邮箱', children: <ByEmail /> }] : []),
    ...(config?.smsEnabled ? [{ key: 'sms', label: '手机验证码', children: <BySms /> }] : []),
  ];
  return (
    <div className="auth-page">
      <Card
        className="auth-card"
        title={
          <Typography.Title level={3} style={{ margin: 0, textAlign: 'center' }}>
            找回密码
          </Typography.Title>
        }
      >
        {!config ? null : ways.length === 0 ? (
          <Alert type="info" showIcon message="平台未开通短信和邮件服务，忘记密码请联系平台管理员重置。" />
        ) : ways.length === 1 ? (
          ways[0]!.children
        ) : (
          <Tabs centered items={ways} />
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, fontSize: 13 }}>
          手机号和邮箱都未验证的账号，请联系平台管理员。
        </Typography.Paragraph>
        <div style={{ display: 'flex', justifyContent: 'space-between' }}>
          <Link to="/login">返回登录</Link>
          <Link to="/register">没有账号？立即注册</Link>
        </div>
      </Card>
    </div>
  );
}
