import { EMAIL_MESSAGE, PASSWORD_HINT, USERNAME_MESSAGE, checkPasswordStrength, isValidEmail, isValidPhone, isValidUsername, type RegisterBody } from '@contest/shared';
import { App, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { authApi } from '../../../api/auth.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { afterLogin } from '../../../common/desktopLaunch.ts';
import { ruleFrom, sameAsRule, showFieldErrors } from '../../../common/forms.ts';
import { LOGIN_FLAG_KEY } from '../../../common/storage.ts';

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
    } catch (err) {
      showFieldErrors(form, err);
      setSubmitting(false);
      return;
    }
    // Signed up is signed in: the new account goes on where a login would (the page it came from, or the list).
    try {
      await authApi.login({ username: values.username, password: values.password });
      localStorage.setItem(LOGIN_FLAG_KEY, '1');
      void message.success('注册成功，已登录');
      location.href = await afterLogin();
    } catch {
      // The account exists; only the login failed (a limit, a network error): the login page is the way on.
      void message.success('注册成功，请登录');
      navigate('/login');
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
