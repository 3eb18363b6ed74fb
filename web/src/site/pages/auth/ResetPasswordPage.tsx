import { PASSWORD_HINT, checkPasswordStrength } from '@contest/shared';
import { Button, Card, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { accountApi } from '#src/api/users.ts';
import { GuardedButton } from '#src/common/GuardedButton.tsx';
import { ruleFrom, sameAsRule, showFieldErrors } from '#src/common/forms.ts';
import { HttpError } from '#src/common/http.ts';

type Values = { password: string; confirm: string };

/** The page a reset link opens: a new password, set once; every session of the account ends. */
export default function ResetPasswordPage() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; message: string } | null>(
    token ? null : { ok: false, message: '链接不完整，请从邮件中重新打开' },
  );
  const navigate = useNavigate();

  async function onFinish({ password }: Values) {
    setSubmitting(true);
    try {
      await accountApi.resetPassword(token, password);
      setOutcome({ ok: true });
    } catch (err) {
      // A password the rules refuse stays on the form; a dead link ends here.
      if (err instanceof HttpError && err.fields?.password) showFieldErrors(form, err);
      else setOutcome({ ok: false, message: err instanceof Error ? err.message : '重置失败' });
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
            设置新密码
          </Typography.Title>
        }
      >
        {outcome?.ok ? (
          <Result
            status="success"
            title="密码已重置"
            subTitle="所有设备上的登录均已退出，请用新密码登录。"
            extra={
              <Button type="primary" onClick={() => navigate('/login')}>
                去登录
              </Button>
            }
          />
        ) : outcome ? (
          <Result status="warning" title="无法重置密码" subTitle={outcome.message} extra={<Link to="/forgot-password">重新获取重置邮件</Link>} />
        ) : (
          <Form form={form} layout="vertical" onFinish={onFinish}>
            <Form.Item
              name="password"
              label="新密码"
              rules={[{ required: true, message: '请输入新密码' }, ruleFrom(checkPasswordStrength)]}
              extra={PASSWORD_HINT}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label="确认新密码"
              dependencies={['password']}
              rules={[{ required: true, message: '请再次输入新密码' }, sameAsRule('password')]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <GuardedButton type="primary" htmlType="submit" block loading={submitting}>
              重置密码
            </GuardedButton>
          </Form>
        )}
      </Card>
    </div>
  );
}
