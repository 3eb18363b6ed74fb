// @vitest-environment happy-dom
import type { PublicResults } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ResultsPage from './pages/competition/ResultsPage.tsx';

/** The 公示 page (issue 38 item 3) against a table of the API's answers; writes are recorded and answered. */
let answers: Record<string, unknown> = {};
let writes: { url: string; body: unknown }[] = [];
let writeReply: { status: number; message: string } = { status: 200, message: '异议已提交' };

beforeEach(() => {
  writes = [];
  writeReply = { status: 200, message: '异议已提交' };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const { pathname } = new URL(url, location.href);
      const json = (status: number, message: string, data: unknown) =>
        new Response(JSON.stringify({ status, message, data }), { status, headers: { 'content-type': 'application/json' } });
      if ((init.method ?? 'GET') !== 'GET') {
        writes.push({ url: pathname, body: JSON.parse(String(init.body)) });
        return json(writeReply.status, writeReply.message, writeReply.status === 200 ? { id: 1, createdAt: '2026-05-01T00:00:00Z' } : null);
      }
      return json(200, '操作成功', answers[pathname] ?? null);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/results/:competitionId', element: <ResultsPage /> },
      { path: '/certificate/verify/:certNo', element: <p>查验页</p> },
      { path: '/login', element: <p>登录页</p> },
    ],
    { initialEntries: ['/results/3'] },
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

const line = (teamId: number, awardName: string, certNos: string[] = []) => ({
  questionId: 11,
  teamId,
  teamNo: `T${teamId}`,
  teamName: `队伍${teamId}`,
  schoolName: '北京大学',
  awardName,
  rank: teamId,
  certNos,
});
const results = (over: Partial<PublicResults>): PublicResults => ({
  competitionId: 3,
  competitionName: '泰迪杯',
  orgName: '主办方',
  start: '2026-05-01T00:00:00.000Z',
  end: '2026-05-08T00:00:00.000Z',
  state: 'open',
  questions: [{ questionId: 11, title: 'A题', groups: [{ group: null, lines: [line(1, '一等奖'), line(2, '二等奖')] }] }],
  ...over,
});

describe('the 公示 page', () => {
  it('says when the 公示 starts, and lists nothing before', async () => {
    answers = { '/api/competition/results/public/3': results({ state: 'before', questions: [] }) };
    open();
    expect(await screen.findByText(/^成绩将于 2026.05.01 08:00 开始公示$/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('提出异议')).toBeNull();
  });

  it('takes an objection to a line during the 公示期, and shows the refusal of one without a real name with the way on', async () => {
    answers = { '/api/competition/results/public/3': results({}), '/api/team/userinfo/': { id: 5, username: 'wangwu' } };
    open();
    const row = (await screen.findByText('队伍1')).closest('tr')!;
    expect(within(row).getByText('北京大学')).toBeTruthy();
    writeReply = { status: 403, message: '提出异议须实名：请先在个人中心完成实名认证' };
    fireEvent.click(within(row).getByRole('button', { name: '提出异议' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('异议理由'), { target: { value: '作品雷同' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交异议' }));
    expect(await within(dialog).findByText('提出异议须实名：请先在个人中心完成实名认证')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: '去实名认证' })).toBeTruthy();
    writeReply = { status: 200, message: '异议已提交' };
    fireEvent.click(within(dialog).getByRole('button', { name: '提交异议' }));
    expect(await within(dialog).findByText('异议已提交')).toBeTruthy();
    expect(writes.at(-1)).toEqual({ url: '/api/competition/results/objection/3', body: { questionId: 11, teamId: 1, reason: '作品雷同', attachment: null } });
  });

  it('sends a visitor who is not logged in to log in before objecting', async () => {
    answers = { '/api/competition/results/public/3': results({}) };
    open();
    fireEvent.click(within((await screen.findByText('队伍1')).closest('tr')!).getByRole('button', { name: '提出异议' }));
    await waitFor(() => expect(location.href).toMatch(/\/login$/));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(writes).toEqual([]);
  });

  it('shows the final list with each certificate linked to its verification, and no objections', async () => {
    answers = {
      '/api/competition/results/public/3': results({
        state: 'closed',
        questions: [{ questionId: 11, title: 'A题', groups: [{ group: '本科组', lines: [line(1, '一等奖', ['2026000100001'])] }] }],
      }),
    };
    const router = open();
    expect(await screen.findByText('最终名单')).toBeTruthy();
    expect(screen.getByText('本科组')).toBeTruthy();
    expect(screen.queryByText('提出异议')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: '2026000100001' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/certificate/verify/2026000100001'));
  });
});
