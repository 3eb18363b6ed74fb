import { Button, message } from 'antd';
import { useEffect, useState } from 'react';
import { solveAltcha } from './altcha.ts';
import { HttpError } from './http.ts';

export const RESEND_SECONDS = 60;

/**
 * 获取验证码: checks the phone (`phone` answers it, or throws when the field is invalid, which the form shows), solves
 * the proof of work (安全验证中…), asks for the code (`send`), then counts down before another may be asked. A refusal
 * (a limit, the wait in Chinese) is shown by the request's own toast and the button is ready again.
 */
export function SmsCodeButton({
  phone,
  send,
  block,
}: {
  phone: () => Promise<string>;
  send: (phone: string, altcha: string) => Promise<unknown>;
  block?: boolean;
}) {
  const [state, setState] = useState<'idle' | 'solving' | 'sending'>('idle');
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  async function click() {
    let number: string;
    try {
      number = await phone();
    } catch {
      return;
    }
    try {
      setState('solving');
      const altcha = await solveAltcha();
      setState('sending');
      await send(number, altcha);
      setLeft(RESEND_SECONDS);
    } catch (err) {
      // An HTTP refusal has had its toast; a failure of the proof of work itself has not.
      if (!(err instanceof HttpError)) void message.error((err as Error).message || '安全验证失败，请重试');
    } finally {
      setState('idle');
    }
  }

  const label = state === 'solving' ? '安全验证中…' : state === 'sending' ? '发送中…' : left > 0 ? `${left}秒后重新获取` : '获取验证码';
  return (
    <Button block={block} disabled={left > 0} loading={state !== 'idle'} onClick={() => void click()} style={{ minWidth: 120 }}>
      {label}
    </Button>
  );
}
