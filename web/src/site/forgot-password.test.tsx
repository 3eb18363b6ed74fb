// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LoginPage from './pages/auth/LoginPage.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The login page, with the platform's sign-in options as `/api/auth/config` answers them. */
function loginWith(mailEnabled: boolean) {
  vi.stubGlobal(
    'fetch',
    async () =>
      new Response(
        JSON.stringify({
          status: 200,
          message: '操作成功',
          data: { oidcEnabled: false, oidcName: '', mailEnabled, accountSecurityUrl: '/userCenter/accountSet' },
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

  it('tells whom to ask instead when it does not, offering no link that could never send', async () => {
    loginWith(false);
    expect(await screen.findByText('忘记密码请联系平台管理员重置')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '忘记密码？' })).toBeNull();
  });
});
