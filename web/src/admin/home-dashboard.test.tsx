// @vitest-environment happy-dom
import type { Dashboard, Todo } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import HomePage from './pages/HomePage.tsx';

/** The API as a table of answers by path. */
let answers: Record<string, unknown> = {};

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const { pathname } = new URL(url, location.href);
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data: answers[pathname] ?? null }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
configure({ asyncUtilTimeout: 15_000 });

const todo: Todo = {
  counts: {
    applicationsToReview: null,
    competitionsToAudit: null,
    questionsToReview: null,
    registrationsToReview: 0,
    transfersToConfirm: null,
    invoicesToIssue: null,
    disputesToAnswer: null,
    judgesNotFinished: null,
  },
  running: [],
  days: [],
  disputeQuestions: [],
  reviewQuestions: [],
};

function open(dashboard: Dashboard) {
  answers = {
    '/api/team/userinfo/': { id: 2, username: 'org', userName: '组织者', faceImg: null },
    '/api/system/todo': todo,
    '/api/system/dashboard': dashboard,
  };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={createMemoryRouter([{ path: '/', element: <HomePage /> }])} />
      </QueryClientProvider>
    </AntApp>,
  );
}

const figures = () =>
  [...screen.getByTestId('dashboard').querySelectorAll('.ant-statistic')].map((s) => [
    s.querySelector('.ant-statistic-title')!.textContent,
    s.querySelector('.ant-statistic-content')!.textContent,
  ]);

describe('the back-office home counters', { timeout: 60_000 }, () => {
  it('labels an organiser’s counters as its organisation’s, with no count of organisations', async () => {
    open({ scope: 'organisation', users: 12, activeUsers: 11, roles: 3, organisations: null, sessions: 4 });
    expect((await screen.findByText('本组织概况')).textContent).toBe('本组织概况');
    expect(screen.getByText('仅统计本组织的用户')).toBeTruthy();
    expect(figures()).toEqual([
      ['本组织用户', '12'],
      ['本组织启用账号', '11'],
      ['本组织用户持有的角色', '3'],
      ['本组织用户的在线会话', '4'],
    ]);
    expect(screen.queryByText('平台概况')).toBeNull();
    expect(screen.queryByText('注册用户')).toBeNull();
  });

  it('keeps the platform-wide counters for the platform administrator', async () => {
    open({ scope: 'platform', users: 1200, activeUsers: 1100, roles: 5, organisations: 8, sessions: 40 });
    await screen.findByText('平台概况');
    expect(figures()).toEqual([
      ['注册用户', '1,200'],
      ['启用账号', '1,100'],
      ['组织机构', '8'],
      ['角色', '5'],
      ['在线会话', '40'],
    ]);
  });
});
