import { EMAIL_MESSAGE, FORGOT_ANSWER, isValidEmail } from '@contest/shared';
import { MailOutlined } from '@ant-design/icons';
import { Alert, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { accountApi } from '#src/api/users.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { ruleFrom, showFieldErrors } from '#src/common/forms.ts';

/** 忘记密码: a reset link goes to the account's verified email; the page says the same whatever the address. */
export default function ForgotPasswordPage() {
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
        {sentTo ? (
          <Alert type="success" showIcon message={FORGOT_ANSWER} description={`邮箱：${sentTo}。没有收到？请查看垃圾邮件，或一分钟后再试。`} />
        ) : (
          <>
            <Typography.Paragraph type="secondary">
              输入账号已验证的邮箱，我们会发送一封重置密码的邮件。邮箱未验证的账号，请联系平台管理员。
            </Typography.Paragraph>
            <Form form={form} size="large" onFinish={onFinish}>
              <Form.Item name="email" rules={[{ required: true, message: '请输入邮箱' }, ruleFrom((v) => (isValidEmail(v) ? null : EMAIL_MESSAGE))]}>
                <Input prefix={<MailOutlined />} placeholder="已验证的邮箱" autoComplete="email" />
              </Form.Item>
              <GuardedButton type="primary" htmlType="submit" block loading={submitting}>
                发送重置邮件
              </GuardedButton>
            </Form>
          </>
        )}
        <div style={{ marginTop: 16, display: 'flex', justifyContent: 'space-between' }}>
          <Link to="/login">返回登录</Link>
          <Link to="/register">没有账号？立即注册</Link>
        </div>
      </Card>
    </div>
  );
}
