// @vitest-environment happy-dom
import { ACTION_CODES, CSRF_COOKIE, type ManagedQuestion, type RescoreProgress } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuestionsPanel } from './pages/competition/parts/QuestionsPanel.tsx';

/** Issue 21: after a change of metric, public share or answer file, the organiser sees the scoring again progress. */

let progress: RescoreProgress = { total: 0, done: 0, running: false };
const asked: string[] = [];

const question: ManagedQuestion = {
  id: 11,
  competitionId: 7,
  competitionName: '泰迪杯',
  title: 'A题 客户流失预测',
  content: null,
  sort: 0,
  reviewed: true,
  creatorId: null,
  creatorName: null,
  evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 30, dailyLimit: 5 },
  answerRows: 100,
  files: [],
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
};

beforeEach(() => {
  asked.length = 0;
  document.cookie = `${CSRF_COOKIE}=csrf-token`;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const { pathname } = new URL(url, location.href);
      asked.push(pathname);
      const answers: Record<string, unknown> = {
        '/api/team/userinfo/': { id: 2, username: 'org', userName: '组织者', faceImg: null },
        '/api/team/userinfo/permission': [ACTION_CODES.competitionEdit],
        '/api/competition/question/list/7': [question],
        '/api/review/test/rescore/11': progress,
      };
      return new Response(JSON.stringify({ status: 200, message: '操作成功', data: answers[pathname] ?? null }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
configure({ asyncUtilTimeout: 15_000 });

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/', element: <QuestionsPanel competitionId={7} /> }]);
  render(
    <AntApp>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>,
  );
}

describe('the scoring again of a question’s submissions', { timeout: 60_000 }, () => {
  it('shows done of total beside the answer file while it runs, and goes away when it is over', async () => {
    progress = { total: 10, done: 3, running: true };
    show();
    expect((await screen.findByTestId('rescoring')).textContent).toContain('重新评分中 3/10');
    progress = { total: 10, done: 10, running: false };
    await waitFor(() => expect(screen.queryByTestId('rescoring')).toBeNull());
    expect(screen.getByText(/100 行/)).toBeTruthy();
  });

  it('shows nothing when no scoring again is under way', async () => {
    progress = { total: 4, done: 4, running: false };
    show();
    await screen.findByText(/100 行/);
    await waitFor(() => expect(asked).toContain('/api/review/test/rescore/11'));
    expect(screen.queryByTestId('rescoring')).toBeNull();
  });
});
