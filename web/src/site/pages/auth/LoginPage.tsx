import { safeReturnTo, type LoginBody } from '@contest/shared';
import { LockOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Divider, Form, Input, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { authApi, authUrls } from '#src/api/auth.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { showFieldErrors } from '#src/common/forms.ts';
import { afterLogin } from '#src/common/desktopLaunch.ts';
import { useAuthConfig } from '#src/common/siteConfig.ts';
import { LOGIN_FLAG_KEY, LOGIN_REDIRECT_KEY } from '#src/common/storage.ts';
import { SmsLoginForm } from './SmsLoginForm.tsx';

export default function LoginPage() {
  const [form] = Form.useForm<LoginBody>();
  const [submitting, setSubmitting] = useState(false);
  const [mode, setMode] = useState<'password' | 'sms'>('password');
  const { data: config } = useAuthConfig();
  const ssoError = new URLSearchParams(location.search).get('ssoError');
  const ssoHref = authUrls.oidcLogin(safeReturnTo(localStorage.getItem(LOGIN_REDIRECT_KEY)));

  async function onFinish(values: LoginBody) {
    setSubmitting(true);
    try {
      await authApi.login(values);
      localStorage.setItem(LOGIN_FLAG_KEY, '1');
      // A full page load: the remembered address may belong to another entry (back office, review centre). The
      // desktop app's login (`/login?state=app`) goes on to hand a token over to the desktop app (spec §2.1, §7).
      location.href = await afterLogin();
    } catch (err) {
      showFieldErrors(form, err);
      setSubmitting(false);
    }
  }

  return (
    <div className="auth-page">
      <Card
        className="auth-card"
        title={
          <Typography.Title level={3} style={{ margin: 0, textAlign: 'center' }}>
            登录竞赛平台
          </Typography.Title>
        }
      >
        {ssoError && <Alert type="error" showIcon message={ssoError} style={{ marginBottom: 16 }} />}
        {config?.smsEnabled && (
          <Tabs
            centered
            activeKey={mode}
            onChange={(k) => setMode(k as 'password' | 'sms')}
            items={[
              { key: 'password', label: '密码登录' },
              { key: 'sms', label: '验证码登录' },
            ]}
          />
        )}
        {mode === 'sms' && config?.smsEnabled ? (
          <SmsLoginForm />
        ) : (
          <Form form={form} size="large" onFinish={onFinish} autoComplete="on">
            <Form.Item name="username" rules={[{ required: true, message: '请输入用户名' }]}>
              <Input prefix={<UserOutlined />} placeholder="用户名" autoComplete="username" />
            </Form.Item>
            <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]} style={{ marginBottom: 8 }}>
              <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" />
            </Form.Item>
            <div style={{ textAlign: 'right', marginBottom: 16 }}>
              {/* Nothing until the platform's options are known, so neither answer flickers into the other. */}
              {config &&
                (config.mailEnabled || config.smsEnabled ? (
                  <Link to="/forgot-password">忘记密码？</Link>
                ) : (
                  <Typography.Text type="secondary">忘记密码请联系平台管理员重置</Typography.Text>
                ))}
            </div>
            <GuardedButton type="primary" htmlType="submit" block loading={submitting}>
              登录
            </GuardedButton>
          </Form>
        )}
        {(config?.oidcEnabled || config?.wechatEnabled) && (
          <>
            <Divider plain>或</Divider>
            <Space direction="vertical" style={{ width: '100%' }}>
              {config.wechatEnabled && (
                <Button
                  block
                  icon={<WechatOutlined style={{ color: '#07c160' }} />}
                  href={authUrls.wechatLogin(safeReturnTo(localStorage.getItem(LOGIN_REDIRECT_KEY)))}
                >
                  微信扫码登录
                </Button>
              )}
              {config.oidcEnabled && (
                <Button block href={ssoHref}>
                  使用{config.oidcName}登录
                </Button>
              )}
            </Space>
          </>
        )}
        <div style={{ marginTop: 16, display: 'flex', justifyContent: 'space-between' }}>
          <Link to="/competitionList">返回首页</Link>
          <Link to="/register">没有账号？立即注册</Link>
        </div>
      </Card>
    </div>
  );
}
