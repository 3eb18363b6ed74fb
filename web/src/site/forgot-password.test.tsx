// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LoginPage from './pages/auth/LoginPage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Every address the page fetched. */
const requested: string[] = [];

/** The login page, with the platform's sign-in options as `/api/auth/config` answers them. */
function loginWith(mailEnabled: boolean, smsEnabled = false, wechatEnabled = false) {
  requested.length = 0;
  vi.stubGlobal(
    'fetch',
    async (url: string) =>
      requested.push(String(url)) &&
      new Response(
        JSON.stringify({
          status: 200,
          message: '操作成功',
          data: { oidcEnabled: false, oidcName: '', mailEnabled, smsEnabled, wechatEnabled, accountSecurityUrl: '/userCenter/accountSet' },
        }),
        { headers: { 'content-type': 'application/json' } },
      ),
  );
  const router = createMemoryRouter([{ path: '/login', element: <LoginPage /> }], { initialEntries: ['/login'] });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

describe('忘记密码 on the login page', () => {
  it('links to the reset by email when the platform sends email', async () => {
    loginWith(true);
    const link = await screen.findByRole('link', { name: '忘记密码？' });
    expect(link.getAttribute('href')).toBe('/forgot-password');
  });

  it('tells whom to ask instead when it sends neither email nor SMS, offering no link that could never send', async () => {
    loginWith(false);
    expect(await screen.findByText('忘记密码请联系平台管理员重置')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '忘记密码？' })).toBeNull();
    // No code login either.
    expect(screen.queryByRole('tab', { name: '验证码登录' })).toBeNull();
  });

  it('offers 验证码登录 and the reset by SMS when the platform sends text messages', async () => {
    loginWith(false, true);
    const tab = await screen.findByRole('tab', { name: '验证码登录' });
    expect((await screen.findByRole('link', { name: '忘记密码？' })).getAttribute('href')).toBe('/forgot-password');
    fireEvent.click(tab);
    expect(await screen.findByPlaceholderText('手机号')).toBeTruthy();
    expect(screen.getByRole('button', { name: '获取验证码' })).toBeTruthy();
    expect(screen.getByText('未注册的手机号验证后将自动注册账号')).toBeTruthy();
  });

  it('offers 微信扫码登录 only when the platform has WeChat sign-in, leading to WeChat with the page to come back to', async () => {
    localStorage.setItem('loginRedirect', '/competition/3/team');
    loginWith(false, false, true);
    const link = await screen.findByRole('link', { name: /微信扫码登录/ });
    expect(link.getAttribute('href')).toMatch(/^\/api\/auth\/wechat\/login\?returnTo=/);
    cleanup();
    loginWith(false);
    expect(await screen.findByText('忘记密码请联系平台管理员重置')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /微信扫码登录/ })).toBeNull();
  });

  it('asks for a valid phone before any proof of work or code is requested', async () => {
    loginWith(false, true);
    fireEvent.click(await screen.findByRole('tab', { name: '验证码登录' }));
    fireEvent.change(await screen.findByPlaceholderText('手机号'), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    expect(await screen.findByText('手机号格式不正确')).toBeTruthy();
    expect(requested.filter((u) => u.includes('/api/auth/altcha') || u.includes('/api/auth/sms/code'))).toEqual([]);
  });
});
