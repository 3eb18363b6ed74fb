import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { accountApi, accountKeys } from '#src/api/users.ts';

/** The page a verification link opens: proves the address at once and says so. */
export default function VerifyEmailPage() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [outcome, setOutcome] = useState<{ ok: true; email: string } | { ok: false; message: string } | null>(
    token ? null : { ok: false, message: '链接不完整，请从邮件中重新打开' },
  );
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!token) return;
    let live = true;
    accountApi
      .verifyEmail(token)
      .then(({ email }) => {
        if (!live) return;
        setOutcome({ ok: true, email });
        void queryClient.invalidateQueries({ queryKey: accountKeys.current });
      })
      .catch((err: Error) => live && setOutcome({ ok: false, message: err.message }));
    return () => {
      live = false;
    };
  }, [token, queryClient]);

  return (
    <div className="auth-page">
      <Card className="auth-card">
        {!outcome ? (
          <Spin tip="正在验证邮箱…">
            <div style={{ height: 120 }} />
          </Spin>
        ) : outcome.ok ? (
          <Result
            status="success"
            title="邮箱验证成功"
            subTitle={`${outcome.email} 已验证，忘记密码时可用它找回。`}
            extra={
              <Button type="primary" onClick={() => navigate('/userCenter/myInfo')}>
                查看个人信息
              </Button>
            }
          />
        ) : (
          <Result
            status="warning"
            title="邮箱验证未完成"
            subTitle={outcome.message}
            extra={<Button onClick={() => navigate('/userCenter/myInfo')}>到个人信息重新发送</Button>}
          />
        )}
      </Card>
    </div>
  );
}
