import type { RegisterBody } from '@contest/shared';
import { App, Card, Form, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { authApi } from '#src/api/auth.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { afterLogin } from '#src/common/desktopLaunch.ts';
import { AccountFields } from '#src/common/AccountFields.tsx';
import { showFieldErrors } from '#src/common/forms.ts';
import { LOGIN_FLAG_KEY } from '#src/common/storage.ts';

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
      <Card
        className="auth-card"
        title={
          <Typography.Title level={3} style={{ margin: 0, textAlign: 'center' }}>
            注册账号
          </Typography.Title>
        }
      >
        <Form form={form} layout="vertical" onFinish={onFinish} autoComplete="off">
          <AccountFields />
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
