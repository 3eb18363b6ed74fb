// @vitest-environment happy-dom
import type { CertificateCheck } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import VerifyPage from './VerifyPage.tsx';

/** The verification API: one certificate, 202600000007 with the printed code 7KQ2M9XD; anything else is not found. */
let requests: string[] = [];
const check: CertificateCheck = {
  certNo: '202600000007',
  holderName: '张*',
  competitionName: '泰迪杯',
  questionTitle: 'A题',
  awardName: '一等奖',
  createdAt: '2026-05-10T02:00:00.000Z',
};

beforeEach(() => {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const { pathname, search } = new URL(url, location.href);
      requests.push(pathname + search);
      const json = (status: number, data: unknown, message = '操作成功') =>
        new Response(JSON.stringify({ status, message, data }), { status, headers: { 'content-type': 'application/json' } });
      if (pathname === '/api/review/certificate/public/verify/202600000007' && new URLSearchParams(search).get('code') === '7KQ2M9XD') return json(200, check);
      if (new URLSearchParams(search).get('code') === 'LIMITED') return json(429, null, '验证失败次数过多，请10分钟后再试');
      return json(404, null, '未找到该证书，或验证码不正确');
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/certificate/verify', element: <VerifyPage /> },
      { path: '/certificate/verify/:certNo', element: <VerifyPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
  return router;
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: /验\s*证/ }));

describe('certificate verification form', () => {
  it('checks a typed number and code, ignoring case, spaces and dashes', async () => {
    const router = open('/certificate/verify');
    expect(await screen.findByText('查验证书')).toBeTruthy();
    expect(requests).toEqual([]);
    type('证书编号', ' 2026 0000 0007 ');
    type('验证码', '7kq2-m9xd');
    submit();
    expect(await screen.findByText('证书有效')).toBeTruthy();
    expect(screen.getByText('张*')).toBeTruthy();
    expect(requests).toEqual(['/api/review/certificate/public/verify/202600000007?code=7KQ2M9XD']);
    expect(router.state.location.pathname + router.state.location.search).toBe('/certificate/verify/202600000007?code=7KQ2M9XD');
  });

  it('asks for both fields before checking', async () => {
    open('/certificate/verify');
    submit();
    expect(await screen.findByText('请输入证书编号')).toBeTruthy();
    expect(screen.getByText('请输入验证码')).toBeTruthy();
    expect(requests).toEqual([]);
  });

  it('says a wrong combination is not found, and lets the person try again', async () => {
    open('/certificate/verify/202600000007');
    // The number from the address is filled in; the code is asked for.
    expect(await screen.findByText('请输入证书编号旁印的验证码后点击“验证”')).toBeTruthy();
    expect((screen.getByLabelText('证书编号') as HTMLInputElement).value).toBe('202600000007');
    type('验证码', 'AAAA-BBBB');
    submit();
    expect(await screen.findByText('未找到该证书，或验证码不正确')).toBeTruthy();
    type('验证码', '7KQ2 M9XD');
    submit();
    expect(await screen.findByText('证书有效')).toBeTruthy();
  });

  it('tells too many wrong tries apart from a missing certificate', async () => {
    open('/certificate/verify/202600000007?code=LIMITED');
    expect(await screen.findByText('暂时无法验证证书')).toBeTruthy();
    expect(screen.getByText('验证失败次数过多，请10分钟后再试')).toBeTruthy();
  });

  it('checks at once when opened from the QR code, without showing its long code in the form', async () => {
    open('/certificate/verify/202600000008?code=0123456789abcdef');
    await waitFor(() => expect(requests).toEqual(['/api/review/certificate/public/verify/202600000008?code=0123456789abcdef']));
    expect(await screen.findByText('未找到该证书，或验证码不正确')).toBeTruthy();
    expect((screen.getByLabelText('验证码') as HTMLInputElement).value).toBe('');
  });
});
