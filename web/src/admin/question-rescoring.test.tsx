// @vitest-environment happy-dom
import { ACTION_CODES, CSRF_COOKIE, type ManagedQuestion, type RescoreProgress, type ScoringQueue } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuestionsPanel } from './pages/competition/parts/QuestionsPanel.tsx';

/** Issue 21: after a change of metric, public share or answer file, the organiser sees the scoring again progress. */

let progress: RescoreProgress = { total: 0, done: 0, running: false };
let queue: ScoringQueue | null = null;
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
  judging: 'both',
  evaluation: { metric: 'auc', idColumn: 'id', targetColumn: 'label', publicPercent: 30, dailyLimit: 5 },
  scorer: null,
  answerRows: 100,
  files: [],
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
};

beforeEach(() => {
  asked.length = 0;
  queue = null;
  document.cookie = `${CSRF_COOKIE}=csrf-token`;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const { pathname } = new URL(url, location.href);
      asked.push(init?.method && init.method !== 'GET' ? `${init.method} ${pathname}` : pathname);
      // The organiser starts it: from then on the progress says it runs.
      if (pathname === '/api/question/rescore/11') progress = { total: 4, done: 0, running: true };
      const answers: Record<string, unknown> = {
        '/api/team/userinfo/': { id: 2, username: 'org', userName: '组织者', faceImg: null },
        '/api/team/userinfo/permission': [ACTION_CODES.competitionEdit],
        '/api/competition/question/list/7': [question],
        '/api/review/test/rescore/11': progress,
        '/api/question/rescore/11': progress,
        '/api/review/test/queue/7': queue,
      };
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

  it('scores every submission again on the organiser’s word, after a confirmation, and shows it running', async () => {
    progress = { total: 4, done: 4, running: false };
    show();
    fireEvent.click(await screen.findByText('重新评分'));
    expect(await screen.findByText(/确定重新评分“A题 客户流失预测”的全部测试提交吗/)).toBeTruthy();
    expect(asked).not.toContain('POST /api/question/rescore/11');
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(asked).toContain('POST /api/question/rescore/11'));
    expect(await screen.findByText('已开始重新评分（共4个提交）')).toBeTruthy();
    expect((await screen.findByTestId('rescoring')).textContent).toContain('重新评分中 0/4');
  });

  it('shows the competition’s scoring queue: waiting, being scored, failed in the last hour', async () => {
    queue = { waiting: 7, running: 1, failedLastHour: 2 };
    show();
    const line = await screen.findByTestId('scoring-queue');
    expect(line.textContent).toBe('评分队列：等待 7评分中 1近一小时失败 2失败记录');
  });

  it('shows nothing when no scoring again is under way', async () => {
    progress = { total: 4, done: 4, running: false };
    show();
    await screen.findByText(/100 行/);
    await waitFor(() => expect(asked).toContain('/api/review/test/rescore/11'));
    expect(screen.queryByTestId('rescoring')).toBeNull();
  });
});
