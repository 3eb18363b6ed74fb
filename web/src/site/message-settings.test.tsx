// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, useFakeApi } from '../test/fakeApi.tsx';
import UnsubscribePage from './pages/auth/UnsubscribePage.tsx';
import MessageSettingsPage from './pages/userCenter/MessageSettingsPage.tsx';

const api = useFakeApi();
const kinds = (off: string[] = []) =>
  ['notice', 'result', 'reminder'].map((kind) => ({ kind, email: !off.includes(`${kind}:email`), sms: !off.includes(`${kind}:sms`) }));

describe('消息设置', () => {
  it('turns a kind of message off on one channel, saving at once, and says which address is not verified', async () => {
    api.answers = {
      '/api/auth/config': { oidcEnabled: false, oidcName: '', mailEnabled: true, smsEnabled: true, accountSecurityUrl: '' },
      '/api/account/message-preferences': { kinds: kinds(), emailVerified: true, phoneVerified: false },
      'PUT /api/account/message-preferences': (body: { kinds: unknown }) => ({ kinds: body.kinds, emailVerified: true, phoneVerified: false }),
    };
    renderPage(<MessageSettingsPage />, '/userCenter/messages');
    expect(await screen.findByText('手机号尚未验证，收不到短信。', { exact: false })).toBeTruthy();
    const reminderMail = await screen.findByRole('switch', { name: '截止提醒邮件' });
    expect(reminderMail.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(reminderMail);
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    const put = api.requests.find((r) => r.method === 'PUT')!.body as { kinds: { kind: string; email: boolean; sms: boolean }[] };
    expect(put.kinds.find((k) => k.kind === 'reminder')).toEqual({ kind: 'reminder', email: false, sms: true });
    expect(put.kinds.filter((k) => k.kind !== 'reminder').every((k) => k.email && k.sms)).toBe(true);
    await waitFor(() => expect(screen.getByRole('switch', { name: '截止提醒邮件' }).getAttribute('aria-checked')).toBe('false'));
  });

  it('offers no channel the platform does not send', async () => {
    api.answers = {
      '/api/auth/config': { oidcEnabled: false, oidcName: '', mailEnabled: false, smsEnabled: true, accountSecurityUrl: '' },
      '/api/account/message-preferences': { kinds: kinds(), emailVerified: false, phoneVerified: true },
    };
    renderPage(<MessageSettingsPage />, '/userCenter/messages');
    await waitFor(() => expect((screen.getByRole('switch', { name: '竞赛通知邮件' }) as HTMLButtonElement).disabled).toBe(true));
    expect((screen.getByRole('switch', { name: '竞赛通知短信' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('the unsubscribe link', () => {
  it('unsubscribes in one click, without logging in, and says what stopped', async () => {
    history.replaceState(null, '', '/unsubscribe?token=7.notice.email.abc');
    api.answers = { 'POST /api/account/unsubscribe': { kind: 'notice', channel: 'email', label: '竞赛通知邮件' } };
    renderPage(<UnsubscribePage />, '/unsubscribe?token=7.notice.email.abc');
    expect(await screen.findByText('已退订竞赛通知邮件')).toBeTruthy();
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ token: '7.notice.email.abc' });
  });

  it('says so when the link is not valid', async () => {
    history.replaceState(null, '', '/unsubscribe?token=bad');
    api.answers = { 'POST /api/account/unsubscribe': new Error('退订链接无效') };
    renderPage(<UnsubscribePage />, '/unsubscribe?token=bad');
    expect(await screen.findByText('退订未完成')).toBeTruthy();
    expect(screen.getByText('退订链接无效')).toBeTruthy();
  });
});
