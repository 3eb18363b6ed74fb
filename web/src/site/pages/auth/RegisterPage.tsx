import { EMAIL_MESSAGE, PASSWORD_HINT, USERNAME_MESSAGE, checkPasswordStrength, isValidEmail, isValidPhone, isValidUsername, type RegisterBody } from '@contest/shared';
import { App, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { authApi } from '../../../api/auth.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { ruleFrom, sameAsRule, showFieldErrors } from '../../../common/forms.ts';

type Values = RegisterBody & { confirm: string };

export default function RegisterPage() {
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();
  const { message } = App.useApp();

  async function onFinish({ confirm: _confirm, ...values }: Values) {
    setSubmitting(true);
    try {
      await authApi.register(values);
      void message.success('注册成功，请登录');
      navigate('/login');
    } catch (err) {
      showFieldErrors(form, err);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <div className="auth-page">
      <Card className="auth-card" title={<Typography.Title level={3} style={{ margin: 0, textAlign: 'center' }}>注册账号</Typography.Title>}>
        <Form form={form} layout="vertical" onFinish={onFinish} autoComplete="off">
          <Form.Item name="username" label="用户名" rules={[{ required: true, message: '请输入用户名' }, ruleFrom((v) => (isValidUsername(v) ? null : USERNAME_MESSAGE))]}>
            <Input placeholder="3至32位" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }, ruleFrom(checkPasswordStrength)]} extra={PASSWORD_HINT}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label="确认密码"
            dependencies={['password']}
            rules={[
              { required: true, message: '请再次输入密码' },
              sameAsRule('password'),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="phone" label="手机号（选填）" rules={[ruleFrom((v) => (isValidPhone(v) ? null : '手机号格式不正确'))]}>
            <Input autoComplete="tel" />
          </Form.Item>
          <Form.Item name="email" label="邮箱（选填）" rules={[ruleFrom((v) => (isValidEmail(v) ? null : EMAIL_MESSAGE))]}>
            <Input autoComplete="email" />
          </Form.Item>
          <GuardedButton type="primary" htmlType="submit" block loading={submitting}>
            注册
          </GuardedButton>
        </Form>
        <div style={{ marginTop: 16, textAlign: 'right' }}>
          <Link to="/login">已有账号？去登录</Link>
        </div>
      </Card>
    </div>
  );
}
