// @vitest-environment happy-dom
import type { Leaderboard as Board } from '@contest/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Leaderboard } from '../common/Leaderboard.tsx';

/** Issue 21: the board says how ties are broken, and that it is incomplete while submissions are scored again. */

let board: Board;
const entry = (rank: number, teamId: number, teamName: string, score: number) => ({
  rank,
  teamId,
  teamName,
  score,
  submissions: 2,
  lastAt: '2026-03-20T02:00:00.000Z',
});

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ status: 200, message: '操作成功', data: board }), { headers: { 'content-type': 'application/json' } })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
configure({ asyncUtilTimeout: 15_000 });

function show() {
  render(
    <AntApp>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Leaderboard questionId={3} board="public" teamId={99} />
      </QueryClientProvider>
    </AntApp>,
  );
}

describe('the leaderboard’s notes', () => {
  it('says that of two equal scores the one reached first ranks first', async () => {
    board = {
      board: 'public',
      metric: 'rmse',
      higherIsBetter: false,
      published: false,
      rescoring: false,
      entries: [entry(1, 1, '甲队', 1), entry(2, 2, '乙队', 1)],
      total: 2,
    };
    show();
    expect((await screen.findByTestId('board-ties')).textContent).toBe('同分时，先提交出该成绩的队伍排名在前。');
    expect(screen.queryByTestId('board-rescoring')).toBeNull();
  });

  it('says so while the submissions are scored again under a new setting', async () => {
    board = { board: 'public', metric: 'mae', higherIsBetter: false, published: false, rescoring: true, entries: [], total: 0 };
    show();
    expect((await screen.findByTestId('board-rescoring')).textContent).toContain('正在按新设置重新评分');
  });

  it("names an own program's metric as its organiser named it", async () => {
    board = {
      board: 'public',
      metric: 'custom',
      metricName: '路径总成本',
      higherIsBetter: false,
      published: false,
      entries: [entry(1, 1, '甲队', 12)],
      total: 1,
    };
    show();
    expect((await screen.findByTestId('board-metric')).textContent).toContain('评分指标：路径总成本，越低越好');
  });
});
