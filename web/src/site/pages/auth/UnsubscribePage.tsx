import { Button, Card, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { outboxApi } from '#src/api/outbox.ts';

/** The page an email's unsubscribe link opens: one click, no login; that kind of message stops on that channel. */
export default function UnsubscribePage() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [outcome, setOutcome] = useState<{ ok: true; label: string } | { ok: false; message: string } | null>(
    token ? null : { ok: false, message: '链接不完整，请从邮件中重新打开' },
  );
  const navigate = useNavigate();
  useEffect(() => {
    if (!token) return;
    let live = true;
    outboxApi
      .unsubscribe(token)
      .then(({ label }) => live && setOutcome({ ok: true, label }))
      .catch((err: Error) => live && setOutcome({ ok: false, message: err.message }));
    return () => {
      live = false;
    };
  }, [token]);

  return (
    <div className="auth-page">
      <Card className="auth-card">
        {!outcome ? (
          <Spin tip="正在退订…">
            <div style={{ height: 120 }} />
          </Spin>
        ) : outcome.ok ? (
          <Result
            status="success"
            title={`已退订${outcome.label}`}
            subTitle="您仍会在站内消息中看到这类通知。想重新接收，或调整其他消息，请登录后到“个人中心 → 消息设置”。"
            extra={
              <Button type="primary" onClick={() => navigate('/userCenter/messages')}>
                消息设置
              </Button>
            }
          />
        ) : (
          <Result
            status="warning"
            title="退订未完成"
            subTitle={outcome.message}
            extra={<Button onClick={() => navigate('/userCenter/messages')}>到消息设置中退订</Button>}
          />
        )}
      </Card>
    </div>
  );
}
